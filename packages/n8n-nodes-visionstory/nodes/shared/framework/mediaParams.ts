import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../api/client';
import type { CallOptions } from '../api/exchange';
import type { EndpointName, InlineRules, MediaRef, ResponseOf } from '../api/contract';
import { HttpUrl, inlineData } from '../api/contract';
import type { FieldIssue } from '../api/errors';
import { invalidInput } from '../api/errors';
import { acceptedMimeType } from '../api/mediaTypes';
import type { MediaInput } from '../n8n/binary';
import { binaryMedia, checkInline, mediaParts, mediaRefOf } from '../n8n/binary';
import { sendInstant } from '../api/instantCalls';
import type { OperationContext, Prepared } from './action';
import { instantScope } from './action';
import type { Params } from './params';
import { param } from './params';

/** A media input of an operation: its parameters' prefix, the endpoint's rules for it, and for a list its entries. */
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
			return url
				? { source: 'url', url, parameter }
				: { field: parameter, message: 'is empty; enter a public URL' };
		}
		case 'asset': {
			const assetId = String(values.assetId ?? '').trim();
			return assetId
				? { source: 'asset', assetId, parameter }
				: { field: parameter, message: 'is empty; pick an asset' };
		}
		default:
			return {
				field: parameter,
				message: `"${source}" is not a source; allowed: binary, url, asset`,
			};
	}
}

/** A file under another name of a type the endpoint takes is sent under the name it takes. */
function asAccepted(input: MediaInput, rules: InlineRules): MediaInput {
	if (input.source !== 'binary') return input;
	const mimeType = acceptedMimeType(input.mimeType, rules.mimeTypes);
	return mimeType ? { ...input, mimeType } : input;
}

function isIssue(value: unknown): value is FieldIssue {
	return (
		typeof value === 'object' &&
		value !== null &&
		'message' in value &&
		'field' in value &&
		!('source' in value)
	);
}

export async function readMedia(
	context: IExecuteFunctions,
	decl: MediaDecl,
	params: Params,
	index: number,
	issues: FieldIssue[],
) {
	if (!decl.list) {
		const source = String(params[`${decl.name}Source`] ?? 'none');
		const parameter =
			source === 'binary'
				? `${decl.name}BinaryProperty`
				: source === 'url'
					? `${decl.name}Url`
					: `${decl.name}AssetId`;
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
	if (entries.length < min)
		issues.push({
			field: decl.name,
			message: `needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`,
		});
	if (max !== undefined && entries.length > max) {
		issues.push({
			field: decl.name,
			message: `has ${entries.length} entries; at most ${max} are allowed`,
		});
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

/**
 * One item's media inputs, read by name (`audio` → audioSource, audioBinaryProperty, audioUrl,
 * audioAssetId; a list → its fixed collection) and checked against the endpoint's rules. Every
 * problem is kept until `check`, so one error names them all before anything is sent. Binary bytes
 * stay placeholders in the request; `inputs` holds the files behind them, in placeholder order.
 */
export class ItemMedia {
	readonly inputs: MediaInput[] = [];
	private readonly issues: FieldIssue[] = [];

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly index: number,
	) {}

	/** A single media input; undefined when its source is None or hidden. */
	async one(name: string, rules: InlineRules): Promise<MediaRef | undefined> {
		const params: Params = {};
		for (const suffix of ['Source', 'BinaryProperty', 'Url']) this.read(params, name + suffix);
		this.read(params, `${name}AssetId`, true);
		const read = await readMedia(this.context, { name, rules }, params, this.index, this.issues);
		return read && !Array.isArray(read) ? this.place(read) : undefined;
	}

	/** A list of media from a fixed collection, `entry` being its entries' key. */
	async list(
		name: string,
		rules: InlineRules,
		list: NonNullable<MediaDecl['list']>,
	): Promise<MediaRef[]> {
		const params: Params = {};
		this.read(params, name);
		const read = await readMedia(
			this.context,
			{ name, rules, list },
			params,
			this.index,
			this.issues,
		);
		return (Array.isArray(read) ? read : []).map((input) => this.place(input));
	}

	/** Throws every problem found, naming its field. */
	check(endpoint: string): void {
		if (this.issues.length) throw invalidInput(endpoint, this.issues);
	}

	private read(params: Params, name: string, extractValue = false): void {
		const value = this.context.getNodeParameter(name, this.index, null) as IDataObject[string];
		if (value === null) return;
		// Only a shown resource locator can be reduced to its id: n8n throws for hidden ones.
		params[name] = extractValue
			? (this.context.getNodeParameter(name, this.index, null, {
					extractValue: true,
				}) as IDataObject[string])
			: value;
	}

	private place(input: MediaInput): MediaRef {
		this.inputs.push(input);
		return mediaRefOf(input, this.inputs.length - 1);
	}
}

/** An item's checked request and the files behind its binary placeholders, in placeholder order. */
export interface MediaRequest<N extends EndpointName> {
	request: Checked<N>;
	media: MediaInput[];
}

/**
 * An item's one file, from a binary field or a URL, for an endpoint that takes it as a URL or as inline
 * data: read by `name` (`<name>Source`, `<name>BinaryProperty`, `<name>Url`) and checked, each API field under the
 * parameter that set it, so an error names what the editor shows.
 */
export async function oneFile(
	ctx: OperationContext,
	index: number,
	name: string,
	rules: InlineRules,
	endpoint: EndpointName,
) {
	const media = new ItemMedia(ctx.n8n, index);
	const file = await media.one(name, rules);
	media.check(endpoint);
	return {
		url: param.checked(`${name}Url`, file?.url, HttpUrl.nullish()),
		inline_data: param.checked(
			`${name}BinaryProperty`,
			file?.inline_data,
			inlineData(rules).nullish(),
		),
		media: media.inputs,
	};
}

/**
 * Sends an item's checked request, its files streamed into the body as the request is sent. A charged
 * call that answers at once is sent at most once per execution, node and item: n8n's Retry On Fail
 * gets the earlier answer back, or a refusal where the earlier try may have been charged unanswered.
 */
export async function sendWithMedia<N extends EndpointName>(
	ctx: OperationContext,
	name: N,
	item: Prepared<MediaRequest<N>>,
	options: Pick<CallOptions, 'audioSec'> = {},
): Promise<ResponseOf<N>> {
	const { request, media } = item.request;
	const call = { signal: ctx.signal, media: mediaParts(ctx.n8n, media), ...options };
	return await sendInstant(ctx.client, name, request, call, instantScope(ctx, item.index));
}

/** `execute` of an operation whose answer is its output item: the item's request sent with its files. */
export function executeSending<N extends EndpointName>(name: N) {
	return async (
		ctx: OperationContext,
		item: Prepared<MediaRequest<N>>,
	): Promise<INodeExecutionData[]> => [
		{ json: (await sendWithMedia(ctx, name, item)) as IDataObject },
	];
}

/** `estimate` (Validate Only) of an operation sending `name`: the client's price for the item's request, where one is known. */
export function estimateOf<N extends EndpointName>(name: N) {
	return async (ctx: OperationContext, item: MediaRequest<N>): Promise<number | undefined> =>
		await ctx.client.estimate(name, item.request, { signal: ctx.signal });
}
