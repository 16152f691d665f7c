import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked, Draft } from '../api/client';
import { mapConcurrent } from '../api/concurrency';
import type { OperationName, RequestOf, ResponseOf } from '../api/contract';
import { isAborted } from '../api/errors';
import type { VisionStoryError } from '../api/errors';
import type { ItemOutcome, MediaRefs, OperationDef, OperationMeta, Params, Prepared, Scope } from './operation';

/** Operation builders: what node files use to declare their operations. */

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
	// A canceled execution ends the node rather than yielding one error item per input.
	const aborted = outcomes.find((o) => !o.ok && isAborted(o.error));
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
					const result = await scope.client.send(meta.call, item.request as Checked<N>, { signal: scope.signal, media: scope.media(item) });
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
		/**
		 * When everything wanted arrives whole on the first page (Voices' own voices), the page size to
		 * ask for: one call, and no paging through entries that are not wanted.
		 */
		firstPageOnly?: (params: Params) => number | undefined;
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
				const onePage = meta.firstPageOnly?.(item.params);
				const found: object[] = [];
				let cursor: number | undefined;
				do {
					const size = onePage ?? Math.min(meta.pageSize, limit - found.length);
					const request = { ...item.request, cursor, limit: size } as RequestOf<N>;
					const page = (await scope.client.send(meta.call, request as Checked<N>, { signal: scope.signal })) as ResponseOf<N> & {
						next_cursor?: number | null;
					};
					found.push(...meta.items(page, item.params));
					cursor = onePage === undefined ? page.next_cursor || undefined : undefined;
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
			const result = await scope.client.call(meta.call, {} as Draft<RequestOf<N>>, { signal: scope.signal });
			return items.map(() => ({ ok: true, value: toItems(meta.items(result)) }));
		},
	};
}

/** Operations whose work is more than one call: the node's own folder holds the runner. */
export function customOperation(
	meta: OperationMeta & {
		validateAs?: OperationName;
		schema?: OperationDef['schema'];
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
