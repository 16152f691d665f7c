import type { IDataObject } from 'n8n-workflow';

import type { Draft } from '../api/client';
import type { RequestOf } from '../api/contract';
import type { OperationContext } from './action';
import { param } from './params';

/** The paged list operations, and the field of each page holding its entries. */
const ENTRIES = {
	listTalkingVideos: 'videos',
	listAiVideos: 'videos',
	listAvatars: 'avatars',
	listVoices: 'voices',
	listAssets: 'assets',
} as const;

export type ListName = keyof typeof ENTRIES;

/** How many entries item `index` asks for: Return All, else Limit (default 50). */
export function wantedOf(ctx: OperationContext, index: number): number {
	if (param.boolean(ctx.n8n, 'returnAll', index)) return Infinity;
	return param.number(ctx.n8n, 'limit', index) ?? 50;
}

/**
 * Entries of a paged list, page after page until `wanted` are found or the list ends. `pageSize` is
 * the largest page the endpoint serves; `onePage`, when everything wanted arrives whole on one page
 * (Voices' own voices), the page size to ask for once. `fields`, for pages holding entries under
 * several fields (Voices: my_voices, public_voices), the fields wanted, in order, each with the values
 * added to its entries (the library a voice is from); only their entries count towards `wanted`.
 */
export async function listEntries<N extends ListName>(
	ctx: OperationContext,
	name: N,
	filters: Draft<RequestOf<N>>,
	sizes: {
		wanted: number;
		pageSize: number;
		onePage?: number;
		fields?: Record<string, IDataObject>;
	},
): Promise<IDataObject[]> {
	const found: IDataObject[] = [];
	let cursor: number | undefined;
	do {
		const limit = sizes.onePage ?? Math.min(sizes.pageSize, sizes.wanted - found.length);
		const request = ctx.client.validate(name, { ...filters, cursor, limit });
		const page: { next_cursor?: number | null } & Record<string, unknown> = await ctx.client.send(
			name,
			request,
			{ signal: ctx.signal },
		);
		for (const [field, added] of Object.entries(sizes.fields ?? { [ENTRIES[name]]: undefined })) {
			const entries = page[field];
			if (Array.isArray(entries))
				found.push(
					...(added
						? (entries as IDataObject[]).map((entry) => ({ ...entry, ...added }))
						: (entries as IDataObject[])),
				);
		}
		cursor = sizes.onePage === undefined ? page.next_cursor || undefined : undefined;
	} while (cursor !== undefined && found.length < sizes.wanted);
	return found.slice(0, sizes.wanted);
}
