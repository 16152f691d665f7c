import type { IDataObject } from 'n8n-workflow';

import type { TaskStatus } from '../api/contract';
import type { Params } from './operation';

/** Small pieces node files use to map parameters to requests and results to items. */

export function optionsOf(params: Params): IDataObject {
	return (params.options as IDataObject | undefined) ?? {};
}

/** A trimmed string, or undefined for empty values so the field is left out of the request. */
export function optional(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

/** A number, undefined when empty, and NaN for text that is not a number, so validation reports it. */
export function optionalNumber(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return Number(value);
}

export function filtersOf(params: Params): IDataObject {
	return (params.filters as IDataObject | undefined) ?? {};
}

/** The status filter of a video list, left out when no status is chosen. */
export function statusQuery(params: Params): { status?: TaskStatus[] } {
	const status = filtersOf(params).status as TaskStatus[] | undefined;
	return status?.length ? { status } : {};
}

/** A comma- or newline-separated list of ids. */
export function idList(value: unknown): string[] {
	const values = Array.isArray(value) ? value : String(value ?? '').split(/[\s,]+/);
	return values.map((v) => String(v).trim()).filter(Boolean);
}

/** Deletes answer `{ deleted: true }`; the id is added so the item says what was deleted. */
export function deleteResult(idField: string, param: string) {
	return (result: { deleted?: boolean | null }, params: Params): IDataObject => ({
		[idField]: params[param] as string,
		deleted: result.deleted ?? true,
	});
}

/** The binary field to write to: a top-level parameter on some operations, an option on others. */
export function outputFieldOf(params: Params): string {
	return String(params.outputBinaryProperty || optionsOf(params).outputBinaryProperty || 'data');
}
