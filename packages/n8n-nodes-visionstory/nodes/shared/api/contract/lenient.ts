import { z } from 'zod/v3';

/**
 * Reading answers the way a real service sends them where the contract is silent or facts.md says
 * "guess": a value in a plausible other type is read as what it means (a number as a numeric string),
 * a value that cannot be used is skipped rather than failing the whole answer. Only what the contract
 * states stays required.
 */

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

function toNumber(value: unknown): unknown {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
	return value === null ? null : value;
}

function toString(value: unknown): unknown {
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

function toBoolean(value: unknown): unknown {
	if (value === 'true') return true;
	if (value === 'false') return false;
	return value;
}

/**
 * A field read by a plain function that never fails. A zod type of its own rather than a transform:
 * zod's effects cost several times a plain check, and lists of hundreds of entries are read often.
 */
export class LenientField<T> extends z.ZodType<T, z.ZodTypeDef, unknown> {
	constructor(readonly reader: (value: unknown) => T) {
		super({});
	}

	_parse(input: z.ParseInput): z.ParseReturnType<T> {
		return z.OK(this.reader(input.data));
	}
}

/** A field read by `fn`, which keeps what is usable and returns undefined for the rest. */
export function read<T>(fn: (value: unknown) => T) {
	return new LenientField(fn);
}

/** Drops what is not of the type (optional fields only): the field reads as absent. */
function optional<T>(is: (value: unknown) => value is T, coerce: (value: unknown) => unknown) {
	return new LenientField((value): T | null | undefined => {
		const coerced = coerce(value);
		if (coerced === null) return null;
		return is(coerced) ? coerced : undefined;
	});
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** An optional number; a numeric string reads as its number. */
export const num = () => optional(isNumber, toNumber);
/** An optional string; a number reads as its text. */
export const str = () => optional(isString, toString);
/** An optional boolean; "true" and "false" read as booleans. */
export const bool = () => optional(isBoolean, toBoolean);

/** A required number (the contract states it); a numeric string reads as its number. */
export const requiredNumber = () => z.preprocess(toNumber, z.number());
/** A required string (the contract states it); a number reads as its text (ids sent as numbers). */
export const requiredString = () => z.preprocess(toString, z.string());

/** A status: read in lower case without spaces, so `Created` is `created`; values this version does not know are carried. */
export const status = () =>
	z.preprocess(
		(value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
		z.string().min(1),
	);

/** Entries of `items` that can be read; the others are skipped. */
function readable<T extends z.ZodTypeAny>(item: T, items: unknown[]): Array<z.output<T>> {
	const out: Array<z.output<T>> = [];
	for (const entry of items) {
		const parsed = item.safeParse(entry);
		if (parsed.success && parsed.data !== null && parsed.data !== undefined)
			out.push(parsed.data as z.output<T>);
	}
	return out;
}

/** An optional array; entries that cannot be read are skipped; one comma-separated string reads as its parts when `splitText`. */
export function list<T extends z.ZodTypeAny>(item: T, options: { splitText?: boolean } = {}) {
	return new LenientField((value): Array<z.output<T>> | null | undefined => {
		if (value === null) return null;
		if (typeof value === 'string' && options.splitText)
			return readable(
				item,
				value
					.split(',')
					.map((part) => part.trim())
					.filter(Boolean),
			);
		return Array.isArray(value) ? readable(item, value) : undefined;
	});
}

/** A required array (the contract states it); entries that cannot be read are skipped. */
export function requiredList<T extends z.ZodTypeAny>(item: T) {
	return z.array(z.unknown()).transform((items) => readable(item, items));
}

/** An optional object of entries by key; entries that cannot be read (or are null) are skipped. */
export function record<T extends z.ZodTypeAny>(item: T) {
	return new LenientField((value): Record<string, z.output<T>> | null | undefined => {
		if (value === null) return null;
		if (typeof value !== 'object' || Array.isArray(value) || value === undefined) return undefined;
		const out: Record<string, z.output<T>> = {};
		for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
			const parsed = item.safeParse(entry);
			if (parsed.success && parsed.data !== null && parsed.data !== undefined)
				out[key] = parsed.data as z.output<T>;
		}
		return out;
	});
}

/** An optional nested object: one in another shape (a string, a boolean) reads as absent. */
export function nested<T extends z.ZodTypeAny>(schema: T) {
	return new LenientField((value): z.output<T> | null | undefined => {
		if (value === null) return null;
		const parsed = schema.safeParse(value);
		return parsed.success ? (parsed.data as z.output<T>) : undefined;
	});
}
