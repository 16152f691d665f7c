import type { PickerList as CorePickerList } from './api';

/** A property of a node: how the editor shows it, which operations use it, whether msg may override it. */
export type FieldType =
	| 'string'
	| 'text'
	| 'number'
	| 'boolean'
	| 'select'
	| 'json'
	/** A string with a picker the config node fills from the account (avatars, voices, models). */
	| 'picker'
	/** A message property's path (a TypedInput of type msg): where a file is read from. */
	| 'property';

export interface Field {
	name: string;
	label: string;
	type: FieldType;
	default: string | number | boolean;
	/** Operations that show and use it. */
	ops: readonly string[];
	/** Choices of a `select`, value and label. */
	options?: ReadonlyArray<readonly [string, string]>;
	/** Which list the picker loads (a key of the config node's admin endpoint). */
	list?: PickerList;
	/** A message property of the same name fills it when the node's setting is empty. */
	override?: boolean;
	/** Shown only when another field has one of these values. */
	showIf?: { field: string; values: readonly (string | boolean)[] };
	/** Smallest accepted value of a `number`. */
	min?: number;
	/** One line under the field in the editor. */
	tip?: string;
}

/** The core's picker lists (`api/pickers.ts`) the editor offers. */
export const PICKER_LISTS = [
	'avatars',
	'voices',
	'talkingVideoModels',
	'aiVideoModels',
	'imageModels',
] as const satisfies readonly CorePickerList[];
export type PickerList = (typeof PICKER_LISTS)[number];

/** What fieldProblem needs to know of a field. */
export interface FieldCheck {
	type: FieldType;
	min?: number;
	options?: ReadonlyArray<readonly [string, string]>;
}

/**
 * Why a value is refused for a field, or '' when it is accepted (empty is accepted: it means "not
 * set"). The runtime checks with it and the editor runs its very source as the field's validator, so
 * the editor marks exactly what a deploy would refuse. Self-contained, in plain ES5 inside, for that.
 */
export function fieldProblem(field: FieldCheck, value: unknown): string {
	if (value === undefined || value === null || value === '') return '';
	if (field.type === 'number') {
		const n = typeof value === 'number' ? value : Number(String(value).trim());
		if (String(value).trim() === '' || !isFinite(n))
			return 'must be a number (got ' + JSON.stringify(value) + ')';
		if (field.min !== undefined && n < field.min)
			return 'must be at least ' + field.min + ' (got ' + n + ')';
	}
	if (field.type === 'select' && field.options) {
		const allowed: string[] = [];
		for (let i = 0; i < field.options.length; i++) allowed.push(field.options[i][0]);
		if (allowed.indexOf(String(value)) === -1)
			return 'must be one of ' + allowed.join(', ') + ' (got ' + JSON.stringify(value) + ')';
	}
	if (field.type === 'json' && typeof value === 'string' && value.trim() !== '') {
		try {
			JSON.parse(value);
		} catch (error) {
			return 'must be valid JSON (' + (error as Error).message + ')';
		}
	}
	return '';
}
