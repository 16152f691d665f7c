import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked, Draft } from '../api/client';
import type { RequestOf } from '../api/contract';
import type { Operation, OperationContext, OperationDescription } from './action';
import { param } from './params';

/** The paged lists of Get Many: the field of each page holding its entries, and the largest page the endpoint serves. */
const LISTS = {
	listTalkingVideos: { entries: 'videos', pageSize: 100 },
	listAiVideos: { entries: 'videos', pageSize: 100 },
	listAvatars: { entries: 'avatars', pageSize: 100 },
	listVoices: { entries: 'voices', pageSize: 500 },
	listAssets: { entries: 'assets', pageSize: 100 },
} as const;

export type ListName = keyof typeof LISTS;

/**
 * A list read otherwise than page after page of its one entries field. `onePage`, when everything
 * wanted arrives whole on one page (Voices' own voices), the page size to ask for once. `fields`, for
 * pages holding entries under several fields (Voices: my_voices, public_voices), the fields wanted,
 * in order, each with the values added to its entries (the library a voice is from); only their
 * entries count towards Limit.
 */
export interface Paging {
	onePage?: number;
	fields?: Record<string, IDataObject>;
}

/** How many entries item `index` asks for: Return All, else Limit (default 50). */
function wantedOf(ctx: OperationContext, index: number): number {
	if (param.boolean(ctx.n8n, 'returnAll', index)) return Infinity;
	return param.number(ctx.n8n, 'limit', index) ?? 50;
}

/** Entries of a paged list, page after page until `wanted` are found or the list ends. */
async function listEntries<N extends ListName>(
	ctx: OperationContext,
	name: N,
	filters: Draft<RequestOf<N>>,
	wanted: number,
	paging: Paging,
): Promise<IDataObject[]> {
	const found: IDataObject[] = [];
	let cursor: number | undefined;
	do {
		const limit = paging.onePage ?? Math.min(LISTS[name].pageSize, wanted - found.length);
		const request = ctx.client.validate(name, { ...filters, cursor, limit });
		const page: { next_cursor?: number | null } & Record<string, unknown> = await ctx.client.send(
			name,
			request,
			{ signal: ctx.signal },
		);
		for (const [field, added] of Object.entries(
			paging.fields ?? { [LISTS[name].entries]: undefined },
		)) {
			const entries = page[field];
			if (Array.isArray(entries))
				found.push(
					...(added
						? (entries as IDataObject[]).map((entry) => ({ ...entry, ...added }))
						: (entries as IDataObject[])),
				);
		}
		cursor = paging.onePage === undefined ? page.next_cursor || undefined : undefined;
	} while (cursor !== undefined && found.length < wanted);
	return found.slice(0, wanted);
}

/**
 * Get Many of `list`: `filters` reads an item's filters into the list's request, checked before
 * anything is sent (paging is added per page); the entries, one output item each, are read page after
 * page until Return All or Limit is met. `paging`, for a list read otherwise (Voices).
 */
export function getManyOperation<N extends ListName>(
	stated: OperationDescription & {
		list: N;
		filters(ctx: OperationContext, index: number): Draft<RequestOf<N>>;
		paging?(ctx: OperationContext, index: number): Paging;
	},
): Operation<Checked<N>> {
	const { list } = stated;
	return {
		option: stated.option,
		properties: stated.properties,
		async prepare(ctx, index) {
			return ctx.client.validate(list, stated.filters(ctx, index));
		},
		async execute(ctx, item): Promise<INodeExecutionData[]> {
			const entries = await listEntries(
				ctx,
				list,
				item.request as Draft<RequestOf<N>>,
				wantedOf(ctx, item.index),
				stated.paging?.(ctx, item.index) ?? {},
			);
			return entries.map((json) => ({ json }));
		},
	};
}

/** The Status filter of a video list (Filters → Status), as the list takes it; none chosen, no filter. */
export function statusFilter(ctx: OperationContext, index: number): { status?: string[] } {
	const status = param.collection(ctx.n8n, 'filters', index).status;
	return Array.isArray(status) && status.length ? { status: status.map(String) } : {};
}
