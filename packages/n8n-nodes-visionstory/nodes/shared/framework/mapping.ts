/** Small pieces node files use to map parameters to requests and results to items. */

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

/** A comma- or newline-separated list of ids. */
export function idList(value: unknown): string[] {
	const values = Array.isArray(value) ? value : String(value ?? '').split(/[\s,]+/);
	return values.map((v) => String(v).trim()).filter(Boolean);
}
