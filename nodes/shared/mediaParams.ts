import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { InlineRules } from './contract';
import type { FieldIssue } from './errors';
import type { MediaInput } from './media';
import { binaryMedia, checkInline } from './media';
import type { Params } from './params';

export interface MediaDecl {
	/** Parameter prefix (`audio` → audioSource, audioBinaryProperty, audioUrl, audioAssetId), or a fixed collection's name for lists. */
	name: string;
	rules: InlineRules;
	/** A list of media: the fixed collection's entry key and how many entries are allowed. */
	list?: { entry: string; min?: number; max?: number };
}

/** Reads one media input from its source choice; an issue names the field when it is unusable. */
async function readOne(
	context: IExecuteFunctions,
	index: number,
	field: string,
	source: string,
	values: { binaryProperty?: unknown; url?: unknown; assetId?: unknown },
): Promise<MediaInput | FieldIssue | undefined> {
	switch (source) {
		case 'none':
		case '':
			return undefined;
		case 'binary':
			return await binaryMedia(context, index, field, String(values.binaryProperty || 'data'));
		case 'url': {
			const url = String(values.url ?? '').trim();
			return url ? { kind: 'url', url, field } : { field, message: 'is empty; enter a public URL' };
		}
		case 'asset': {
			const assetId = String(values.assetId ?? '').trim();
			return assetId ? { kind: 'asset', assetId, field } : { field, message: 'is empty; pick an asset' };
		}
		default:
			return { field, message: `"${source}" is not a source; allowed: binary, url, asset` };
	}
}

function isIssue(value: unknown): value is FieldIssue {
	return typeof value === 'object' && value !== null && 'message' in value && 'field' in value && !('kind' in value);
}

export async function readMedia(context: IExecuteFunctions, decl: MediaDecl, params: Params, index: number, issues: FieldIssue[]) {
	if (!decl.list) {
		const source = String(params[`${decl.name}Source`] ?? 'none');
		const field = source === 'binary' ? `${decl.name}BinaryProperty` : source === 'url' ? `${decl.name}Url` : `${decl.name}AssetId`;
		const read = await readOne(context, index, field, source, {
			binaryProperty: params[`${decl.name}BinaryProperty`],
			url: params[`${decl.name}Url`],
			assetId: params[`${decl.name}AssetId`],
		});
		if (isIssue(read)) issues.push(read);
		else if (read) {
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
		const field = `${decl.name}.${position}`;
		const read = await readOne(context, index, field, String(entry.source ?? 'binary'), entry);
		if (isIssue(read)) issues.push(read);
		else if (read) {
			const problem = checkInline(read, decl.rules);
			if (problem) issues.push(problem);
			inputs.push(read);
		}
	}
	return inputs;
}
