import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { VisionStoryClient } from './client';
import type { InlineRules, MediaRef, OperationName, RequestOf, ResponseOf } from './contract';
import type { FieldIssue } from './errors';
import { VisionStoryError } from './errors';
import type { MediaInput } from './media';
import { binaryMedia, checkInline, mediaParts, mediaRefOf } from './media';
import type { MediaPart } from './mediaBody';
import { createN8nClient } from './n8nTransport';
import type { FieldLabeler } from './nodeErrors';
import { errorItem, toNodeError } from './nodeErrors';
import type { Outcome } from './wait';
import { mapConcurrent } from './wait';

/** One item's parameter values, by parameter name (resource locators already reduced to their id). */
export type Params = IDataObject;

/** Media of one item as MediaRefs (binary bytes as placeholders), by media name. */
export type MediaRefs = Record<string, MediaRef | MediaRef[] | undefined>;

export interface MediaDecl {
	/** Parameter prefix (`audio` → audioSource, audioBinaryProperty, audioUrl, audioAssetId), or a fixed collection's name for lists. */
	name: string;
	rules: InlineRules;
	/** A list of media: the fixed collection's entry key and how many entries are allowed. */
	list?: { entry: string; min?: number; max?: number };
}

/** One input item, read and checked; nothing has been sent for it yet. */
export interface Prepared {
	index: number;
	params: Params;
	media: Record<string, MediaInput | MediaInput[] | undefined>;
	/** All media inputs in placeholder order. */
	inputs: MediaInput[];
	/** The validated API request (binary bytes still placeholders), when the operation has one. */
	request?: IDataObject;
}

export interface Scope {
	context: IExecuteFunctions;
	client: VisionStoryClient;
	signal?: AbortSignal;
	label: FieldLabeler;
	/** Execution, run, node and item: stable when n8n re-runs this node within the same execution. */
	idempotencyContext(itemIndex: number): string;
	/** The files behind the item's placeholders, for the call's `media` option. */
	media(item: Prepared): Record<string, MediaPart>;
}

export type ItemOutcome = Outcome<INodeExecutionData[]>;

export interface OperationDef {
	value: string;
	name: string;
	action: string;
	description: string;
	/** Parameters of this operation; the node description shows them only for it. */
	properties: INodeProperties[];
	media?: MediaDecl[];
	/** API field path → parameter name, to name the parameter in errors (`text_script.text` → `text`). */
	fields?: Record<string, string>;
	/** The contract operation the request is checked against before anything is sent. */
	validateAs?: OperationName;
	request?: (params: Params, media: MediaRefs) => unknown;
	/** Checks that need the service (e.g. a model's limits), run for all items before any is sent. */
	check?: (scope: Scope, items: Prepared[]) => Promise<Map<number, VisionStoryError>>;
	run(scope: Scope, items: Prepared[]): Promise<ItemOutcome[]>;
}

// ---------------------------------------------------------------------------------------------
// Reading parameters and media

function isVisible(context: IExecuteFunctions, property: INodeProperties, index: number): boolean {
	// n8n drops parameters hidden by displayOptions when it loads the node, so absence means hidden.
	return context.getNodeParameter(property.name, index, null) !== null || property.type === 'notice';
}

function readParams(context: IExecuteFunctions, properties: INodeProperties[], index: number): Params {
	const params: Params = {};
	for (const property of properties) {
		if (property.type === 'notice' || !isVisible(context, property, index)) continue;
		params[property.name] = context.getNodeParameter(
			property.name,
			index,
			null,
			property.type === 'resourceLocator' ? { extractValue: true } : undefined,
		) as IDataObject[string];
	}
	return params;
}

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

async function readMedia(context: IExecuteFunctions, decl: MediaDecl, params: Params, index: number, issues: FieldIssue[]) {
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
		const field = `${decl.name}.${position + 1}`;
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

// ---------------------------------------------------------------------------------------------
// Naming fields in errors

function labeler(operation: OperationDef): FieldLabeler {
	const byName = new Map<string, INodeProperties>();
	const collect = (properties: INodeProperties[]) => {
		for (const p of properties) {
			byName.set(p.name, p);
			for (const option of (p.options ?? []) as Array<INodeProperties | INodePropertyOptions>) {
				if ('displayName' in option && 'name' in option && 'type' in option) byName.set(option.name, option);
				if ('values' in option && Array.isArray(option.values)) collect(option.values as INodeProperties[]);
			}
		}
	};
	collect(operation.properties);
	const fields = Object.entries(operation.fields ?? {}).sort(([a], [b]) => b.length - a.length);
	const show = (name: string, rest = '') => {
		const property = byName.get(name);
		return property ? `"${property.displayName}" (${name}${rest})` : undefined;
	};
	return (apiField: string) => {
		if (byName.has(apiField)) return show(apiField);
		const [head, ...tail] = apiField.split('.');
		if (byName.has(head) && tail.length) return show(head, ` entry ${tail.join('.')}`);
		for (const [path, name] of fields) {
			if (apiField === path || apiField.startsWith(`${path}.`)) return show(name, apiField === path ? '' : `: ${apiField}`);
		}
		const camel = apiField.split('.').pop()!.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
		return show(camel);
	};
}

// ---------------------------------------------------------------------------------------------
// The one executor

async function prepare(scope: Scope, operation: OperationDef, index: number): Promise<Prepared> {
	const { context, client } = scope;
	const params = readParams(context, operation.properties, index);
	const issues: FieldIssue[] = [];
	const media: Prepared['media'] = {};
	const inputs: MediaInput[] = [];
	const refs: MediaRefs = {};
	for (const decl of operation.media ?? []) {
		const read = await readMedia(context, decl, params, index, issues);
		media[decl.name] = read;
		const list = Array.isArray(read) ? read : read ? [read] : [];
		const placed = list.map((input) => {
			inputs.push(input);
			return mediaRefOf(input, inputs.length - 1);
		});
		refs[decl.name] = Array.isArray(read) ? placed : placed[0];
	}
	if (issues.length) throw invalid(operation, issues);
	let request: IDataObject | undefined;
	if (operation.request) {
		const raw = operation.request(params, refs);
		request = operation.validateAs
			? (client.validate(operation.validateAs, raw as RequestOf<typeof operation.validateAs>) as IDataObject)
			: (raw as IDataObject);
	}
	return { index, params, media, inputs, request };
}

export function invalid(operation: OperationDef | string, issues: FieldIssue[]): VisionStoryError {
	const name = typeof operation === 'string' ? operation : operation.value;
	return new VisionStoryError({
		kind: 'validation',
		operation: name,
		message: `Invalid input: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`,
		hint: 'Nothing was sent to VisionStory. Fix the value and run again.',
		issues,
	});
}

function runIndexOf(context: IExecuteFunctions): number {
	try {
		const proxy = context.getWorkflowDataProxy(0) as { $runIndex?: unknown };
		return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
	} catch {
		return 0;
	}
}

/**
 * Runs one operation over all input items: reads and checks every item first (a bad item sends
 * nothing), hands the good ones to the operation together (so waits and batches can span items),
 * then assembles the output with pairedItem and continue-on-fail.
 */
export async function executeOperation(context: IExecuteFunctions, operations: readonly OperationDef[]): Promise<INodeExecutionData[][]> {
	const value = context.getNodeParameter('operation', 0) as string;
	const operation = operations.find((o) => o.value === value);
	if (!operation) throw toNodeError(context.getNode(), invalid(value, [{ field: 'operation', message: `"${value}" is not supported` }]), 0);
	const items = context.getInputData();
	const label = labeler(operation);
	const client = await createN8nClient(context);
	const node = context.getNode();
	const runIndex = runIndexOf(context);
	const scope: Scope = {
		context,
		client,
		signal: context.getExecutionCancelSignal?.(),
		label,
		idempotencyContext: (itemIndex) => `${context.getExecutionId()}:${node.id ?? node.name}:${runIndex}:${itemIndex}`,
		media: (item) => mediaParts(context, item.inputs),
	};
	const continueOnFail = context.continueOnFail();
	const outcomes = new Array<ItemOutcome | undefined>(items.length);
	let prepared: Prepared[] = [];
	const reject = (index: number, error: unknown) => {
		if (!continueOnFail) throw toNodeError(node, error, index, label);
		outcomes[index] = { ok: false, error: error as VisionStoryError };
	};
	for (let index = 0; index < items.length; index++) {
		try {
			prepared.push(await prepare(scope, operation, index));
		} catch (error) {
			reject(index, error);
		}
	}
	if (operation.check && prepared.length) {
		const rejected = await operation.check(scope, prepared);
		for (const [index, error] of rejected) reject(index, error);
		prepared = prepared.filter((item) => !rejected.has(item.index));
	}
	if (prepared.length) {
		const results = await operation.run(scope, prepared);
		prepared.forEach((item, position) => (outcomes[item.index] = results[position]));
	}
	const output: INodeExecutionData[] = [];
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) continue;
		if (outcome.ok) {
			for (const item of outcome.value) output.push({ ...item, pairedItem: { item: index } });
		} else if (continueOnFail) {
			output.push(errorItem(outcome.error, index, label));
		} else {
			throw toNodeError(node, outcome.error, index, label);
		}
	}
	return [output];
}

// ---------------------------------------------------------------------------------------------
// Operation builders: what node files use to declare their operations

export type OperationMeta = Pick<OperationDef, 'value' | 'name' | 'action' | 'description' | 'properties' | 'media' | 'fields' | 'check'>;

/** Items processed at once by synchronous operations: enough to overlap slow calls, few enough to stay polite. */
export const ITEM_CONCURRENCY = 5;

async function eachItem(
	items: Prepared[],
	work: (item: Prepared) => Promise<INodeExecutionData[]>,
	concurrency = ITEM_CONCURRENCY,
): Promise<ItemOutcome[]> {
	const outcomes = await mapConcurrent(items, concurrency, async (item): Promise<ItemOutcome> => {
		try {
			return { ok: true, value: await work(item) };
		} catch (error) {
			return { ok: false, error: error as VisionStoryError };
		}
	});
	// A cancelled execution ends the node rather than yielding one error item per input.
	const aborted = outcomes.find((o) => !o.ok && o.error instanceof VisionStoryError && o.error.kind === 'aborted');
	if (aborted && !aborted.ok) throw aborted.error;
	return outcomes;
}

export function toItems(json: object | object[]): INodeExecutionData[] {
	return (Array.isArray(json) ? json : [json]).map((j) => ({ json: j as IDataObject }));
}

/** One API call per item; its `data` (or `output(data)`) is the output. */
export function callOperation<N extends OperationName>(
	meta: OperationMeta & {
		call: N;
		request: (params: Params, media: MediaRefs) => RequestOf<N>;
		output?: (result: ResponseOf<N>, params: Params) => object | object[];
		concurrency?: number;
	},
): OperationDef {
	return {
		...meta,
		validateAs: meta.call,
		request: meta.request,
		run: async (scope, items) =>
			await eachItem(
				items,
				async (item) => {
					const request = item.request as RequestOf<N>;
					const result = await scope.client.call(meta.call, request, { signal: scope.signal, media: scope.media(item) });
					return toItems(meta.output ? meta.output(result, item.params) : result);
				},
				meta.concurrency,
			),
	};
}

/** A paged list with Return All / Limit; `items` picks the entries out of each page. */
export function listOperation<N extends OperationName>(
	meta: OperationMeta & {
		call: N;
		request?: (params: Params) => RequestOf<N>;
		items: (page: ResponseOf<N>, params: Params) => object[];
		/** Largest page the endpoint serves. */
		pageSize: number;
	},
): OperationDef {
	return {
		...meta,
		validateAs: meta.call,
		request: (params) => ({ ...(meta.request?.(params) ?? {}) }),
		run: async (scope, items) =>
			await eachItem(items, async (item) => {
				const returnAll = item.params.returnAll === true;
				const limit = returnAll ? Infinity : Number(item.params.limit ?? 50);
				const found: object[] = [];
				let cursor: number | undefined;
				do {
					const request = { ...item.request, cursor, limit: Math.min(meta.pageSize, limit - found.length) } as RequestOf<N>;
					const page = (await scope.client.call(meta.call, request, { signal: scope.signal })) as ResponseOf<N> & {
						next_cursor?: number | null;
					};
					found.push(...meta.items(page, item.params));
					cursor = page.next_cursor || undefined;
				} while (cursor !== undefined && found.length < limit);
				return toItems(found.slice(0, limit));
			}),
	};
}

/** A list the endpoint returns whole (model lists): one output item per entry. */
export function catalogOperation<N extends OperationName>(
	meta: OperationMeta & { call: N; items: (result: ResponseOf<N>) => object[] },
): OperationDef {
	return {
		...meta,
		run: async (scope, items) => {
			// The same catalog for every item: fetched once.
			const result = await scope.client.call(meta.call, {} as RequestOf<N>, { signal: scope.signal });
			return items.map(() => ({ ok: true, value: toItems(meta.items(result)) }));
		},
	};
}

/** Operations whose work is more than one call (framing, speech, media lists): the runner lives in shared code. */
export function customOperation(
	meta: OperationMeta & {
		validateAs?: OperationName;
		request?: (params: Params, media: MediaRefs) => unknown;
		runItem: (scope: Scope, item: Prepared) => Promise<INodeExecutionData[]>;
		concurrency?: number;
	},
): OperationDef {
	return {
		...meta,
		run: async (scope, items) => await eachItem(items, async (item) => await meta.runItem(scope, item), meta.concurrency),
	};
}
