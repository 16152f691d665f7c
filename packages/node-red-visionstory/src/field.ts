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
	| 'picker';

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
	/** A message property of the same name, when present, wins over the editor's value. */
	override?: boolean;
	/** Shown only when another field has one of these values. */
	showIf?: { field: string; values: readonly (string | boolean)[] };
	placeholder?: string;
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
