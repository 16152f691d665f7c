import { invalid } from './errors';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent and null are the same to the contract ("string or null"). */
function present(value: unknown): boolean {
	return value !== undefined && value !== null;
}

interface StringRule {
	required?: boolean;
	maxLength?: number;
	oneOf?: readonly string[];
	pattern?: RegExp;
	patternMessage?: string;
}

interface NumberRule {
	required?: boolean;
	integer?: boolean;
	min?: number;
	max?: number;
	oneOf?: readonly number[];
}

/**
 * Collects every contract violation of one request so a 422 can list them all at once, keyed by the
 * field's path (`text_script.text`, `refs[2].url`). The first message for a path wins.
 */
export class Validator {
	readonly errors: Record<string, string> = {};
	/** error.code of the 422; a business code (like 37101 for an unreadable image reference) may replace it. */
	code = 422;

	fail(path: string, message: string): void {
		if (!(path in this.errors)) this.errors[path] = message;
	}

	get ok(): boolean {
		return Object.keys(this.errors).length === 0;
	}

	has(path: string): boolean {
		return path in this.errors;
	}

	throwIfAny(message?: string, hint?: string): void {
		if (!this.ok) throw invalid(this.errors, message, hint, this.code);
	}

	string(obj: Json, key: string, path: string, rule: StringRule = {}): string | undefined {
		const value = obj[key];
		if (!present(value)) {
			if (rule.required) this.fail(path, 'is required');
			return undefined;
		}
		if (typeof value !== 'string') {
			this.fail(path, 'must be a string');
			return undefined;
		}
		if (rule.required && value.trim() === '') {
			this.fail(path, 'must not be empty');
			return undefined;
		}
		if (rule.maxLength !== undefined && value.length > rule.maxLength) {
			this.fail(path, `must be at most ${rule.maxLength} characters (got ${value.length})`);
			return undefined;
		}
		if (rule.oneOf && !rule.oneOf.includes(value)) {
			this.fail(path, `must be one of ${rule.oneOf.join(', ')}`);
			return undefined;
		}
		if (rule.pattern && !rule.pattern.test(value)) {
			this.fail(path, rule.patternMessage ?? `must match ${rule.pattern.source}`);
			return undefined;
		}
		return value;
	}

	number(obj: Json, key: string, path: string, rule: NumberRule = {}): number | undefined {
		const value = obj[key];
		if (!present(value)) {
			if (rule.required) this.fail(path, 'is required');
			return undefined;
		}
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			this.fail(path, 'must be a number');
			return undefined;
		}
		return this.checkNumber(value, path, rule);
	}

	boolean(obj: Json, key: string, path: string, required = false): boolean | undefined {
		const value = obj[key];
		if (!present(value)) {
			if (required) this.fail(path, 'is required');
			return undefined;
		}
		if (typeof value !== 'boolean') {
			this.fail(path, 'must be a boolean');
			return undefined;
		}
		return value;
	}

	object(obj: Json, key: string, path: string, required = false): Json | undefined {
		const value = obj[key];
		if (!present(value)) {
			if (required) this.fail(path, 'is required');
			return undefined;
		}
		if (!isObject(value)) {
			this.fail(path, 'must be an object');
			return undefined;
		}
		return value;
	}

	array(
		obj: Json,
		key: string,
		path: string,
		rule: { required?: boolean; min?: number; max?: number } = {},
	): unknown[] | undefined {
		const value = obj[key];
		if (!present(value)) {
			if (rule.required) this.fail(path, 'is required');
			return undefined;
		}
		if (!Array.isArray(value)) {
			this.fail(path, 'must be an array');
			return undefined;
		}
		if (rule.min !== undefined && value.length < rule.min) {
			this.fail(path, `must have at least ${rule.min} item${rule.min === 1 ? '' : 's'}`);
			return undefined;
		}
		if (rule.max !== undefined && value.length > rule.max) {
			this.fail(path, `must have at most ${rule.max} items (got ${value.length})`);
			return undefined;
		}
		return value;
	}

	/** Records an error unless exactly one of `keys` is present; returns the one that is. */
	exactlyOne(obj: Json, keys: readonly string[], path: string): string | undefined {
		const given = keys.filter((k) => present(obj[k]));
		if (given.length !== 1) {
			this.fail(
				path,
				`exactly one of ${keys.join(', ')} must be provided (got ${given.length === 0 ? 'none' : given.join(', ')})`,
			);
			return undefined;
		}
		return given[0];
	}

	queryInt(
		query: URLSearchParams,
		name: string,
		rule: NumberRule & { default?: number },
	): number | undefined {
		const raw = query.get(name);
		if (raw === null || raw === '') {
			if (rule.required) this.fail(name, 'is required');
			return rule.default;
		}
		if (!/^-?\d+$/.test(raw.trim())) {
			this.fail(name, 'must be an integer');
			return undefined;
		}
		return this.checkNumber(Number(raw), name, { ...rule, integer: true });
	}

	queryBool(query: URLSearchParams, name: string, fallback: boolean): boolean {
		const raw = query.get(name);
		if (raw === null || raw === '') return fallback;
		const lower = raw.toLowerCase();
		if (lower === 'true' || lower === '1') return true;
		if (lower === 'false' || lower === '0') return false;
		this.fail(name, 'must be true or false');
		return fallback;
	}

	queryString(query: URLSearchParams, name: string, required = false): string | undefined {
		const raw = query.get(name);
		if (raw === null || raw.trim() === '') {
			if (required) this.fail(name, 'is required');
			return undefined;
		}
		return raw;
	}

	private checkNumber(value: number, path: string, rule: NumberRule): number | undefined {
		if (rule.integer && !Number.isInteger(value)) {
			this.fail(path, 'must be an integer');
			return undefined;
		}
		if (rule.oneOf && !rule.oneOf.includes(value)) {
			this.fail(path, `must be one of ${rule.oneOf.join(', ')}`);
			return undefined;
		}
		if (rule.min !== undefined && value < rule.min) {
			this.fail(
				path,
				rule.max === undefined
					? `must be at least ${rule.min}`
					: `must be between ${rule.min} and ${rule.max}`,
			);
			return undefined;
		}
		if (rule.max !== undefined && value > rule.max) {
			this.fail(
				path,
				rule.min === undefined
					? `must be at most ${rule.max}`
					: `must be between ${rule.min} and ${rule.max}`,
			);
			return undefined;
		}
		return value;
	}
}

export const CLIENT_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
