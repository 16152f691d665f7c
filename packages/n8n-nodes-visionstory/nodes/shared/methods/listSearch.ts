import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { PickerEntry, PickerList } from '../api/pickers';
import { matches, pickerAnswer, pickerDate, pickerPages } from '../api/pickers';
import { createN8nClient } from '../n8n/client';
import { statusLabel } from '../descriptions/statuses';

/** Searchable pickers for resource locators: the lists, their filtering and naming from the core (`api/pickers.ts`). */

/** A list read through the core's pages into n8n's answer: pages until the dropdown can scroll. */
async function search(
	context: ILoadOptionsFunctions,
	list: PickerList,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(context);
	const { entries, next } = await pickerAnswer(
		async (token) => await pickerPages[list](client, token, filter),
		paginationToken,
	);
	return { results: entries, paginationToken: next };
}

/** Own avatars first, then the public library. */
export async function searchAvatars(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'avatars', filter, paginationToken);
}

/** Own avatars only, for operations that cannot act on public ones (delete, reframe). */
export async function searchOwnAvatars(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'ownAvatars', filter, paginationToken);
}

/** Voices a page of the service's at a time: own voices, then public ones. */
export async function searchVoices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	const { entries, next } = await pickerPages.voices(client, paginationToken, filter);
	return { results: entries, paginationToken: next };
}

/** Cloned voices only, for deleting: public voices cannot be deleted. */
export async function searchOwnVoices(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'ownVoices', filter);
}

export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'assets', filter, paginationToken);
}

export async function searchTalkingVideoModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'talkingVideoModels', filter);
}

export async function searchAiVideoModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'aiVideoModels', filter);
}

export async function searchImageModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'imageModels', filter);
}

function videoItem(video: {
	video_id: string;
	status: string;
	created_at?: number | null;
	model_id?: string | null;
}): PickerEntry {
	const created = pickerDate(video.created_at);
	return {
		name: `${video.video_id} · ${statusLabel(video.status)}${created ? ` · ${created}` : ''}${video.model_id ? ` · ${video.model_id}` : ''}`,
		value: video.video_id,
	};
}

/** A video list by page, filtered on its id, status and model; statuses named as the node shows them. */
async function searchVideos(
	context: ILoadOptionsFunctions,
	endpoint: 'listTalkingVideos' | 'listAiVideos',
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(context);
	const { entries, next } = await pickerAnswer(async (token) => {
		const page = await client[endpoint]({ cursor: Number(token) || undefined, limit: 100 });
		return {
			entries: page.videos
				.filter((v) => matches(filter, v.video_id, v.status, statusLabel(v.status), v.model_id))
				.map(videoItem),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	}, paginationToken);
	return { results: entries, paginationToken: next };
}

export async function searchTalkingVideos(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchVideos(this, 'listTalkingVideos', filter, paginationToken);
}

export async function searchAiVideos(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchVideos(this, 'listAiVideos', filter, paginationToken);
}

export const listSearch = {
	searchTalkingVideos,
	searchAiVideos,
	searchAvatars,
	searchOwnAvatars,
	searchVoices,
	searchOwnVoices,
	searchAssets,
	searchTalkingVideoModels,
	searchAiVideoModels,
	searchImageModels,
};
