import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { InlineRules } from '../api/contract';
import type { FieldIssue } from '../api/errors';
import { acceptedMimeType } from '../api/mediaTypes';
import type { MediaInput } from '../n8n/binary';
import { binaryMedia, checkInline } from '../n8n/binary';
import type { MediaDecl, Params } from './operation';


/** Reads one media input from its source choice; an issue names the field when it is unusable. */
async function readOne(
	context: IExecuteFunctions,
	index: number,
	parameter: string,
	source: string,
	values: { binaryProperty?: unknown; url?: unknown; assetId?: unknown },
): Promise<MediaInput | FieldIssue | undefined> {
	switch (source) {
		case 'none':
		case '':
			return undefined;
		case 'binary':
			return await binaryMedia(context, index, parameter, String(values.binaryProperty || 'data'));
		case 'url': {
			const url = String(values.url ?? '').trim();
			return url ? { source: 'url', url, parameter } : { field: parameter, message: 'is empty; enter a public URL' };
		}
		case 'asset': {
			const assetId = String(values.assetId ?? '').trim();
			return assetId ? { source: 'asset', assetId, parameter } : { field: parameter, message: 'is empty; pick an asset' };
		}
		default:
			return { field: parameter, message: `"${source}" is not a source; allowed: binary, url, asset` };
	}
}

/** A file under another name of a type the endpoint takes is sent under the name it takes. */
function asAccepted(input: MediaInput, rules: InlineRules): MediaInput {
	if (input.source !== 'binary') return input;
	const mimeType = acceptedMimeType(input.mimeType, rules.mimeTypes);
	return mimeType ? { ...input, mimeType } : input;
}

function isIssue(value: unknown): value is FieldIssue {
	return typeof value === 'object' && value !== null && 'message' in value && 'field' in value && !('source' in value);
}

export async function readMedia(context: IExecuteFunctions, decl: MediaDecl, params: Params, index: number, issues: FieldIssue[]) {
	if (!decl.list) {
		const source = String(params[`${decl.name}Source`] ?? 'none');
		const parameter = source === 'binary' ? `${decl.name}BinaryProperty` : source === 'url' ? `${decl.name}Url` : `${decl.name}AssetId`;
		const given = await readOne(context, index, parameter, source, {
			binaryProperty: params[`${decl.name}BinaryProperty`],
			url: params[`${decl.name}Url`],
			assetId: params[`${decl.name}AssetId`],
		});
		if (isIssue(given)) issues.push(given);
		else if (given) {
			const read = asAccepted(given, decl.rules);
			const problem = checkInline(read, decl.rules);
			if (problem) issues.push(problem);
			return read;
		}
		return undefined;
	}
	const collection = (params[decl.name] as IDataObject | undefined) ?? {};
	const entries = (collection[decl.list.entry] as IDataObject[] | undefined) ?? [];
	const { min = 0, max } = decl.list;
	if (entries.length < min) issues.push({ field: decl.name, message: `needs at least ${min} entr${min === 1 ? 'y' : 'ies'}` });
	if (max !== undefined && entries.length > max) {
		issues.push({ field: decl.name, message: `has ${entries.length} entries; at most ${max} are allowed` });
	}
	const inputs: MediaInput[] = [];
	for (const [position, entry] of entries.entries()) {
		const parameter = `${decl.name}.${position}`;
		const given = await readOne(context, index, parameter, String(entry.source ?? 'binary'), entry);
		if (isIssue(given)) issues.push(given);
		else if (given) {
			const read = asAccepted(given, decl.rules);
			const problem = checkInline(read, decl.rules);
			if (problem) issues.push(problem);
			inputs.push(read);
		}
	}
	return inputs;
}
