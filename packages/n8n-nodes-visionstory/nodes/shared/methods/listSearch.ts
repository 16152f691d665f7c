import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import type { AssetDto, AvatarDto, VoiceDto } from '../api/contract';
import { createN8nClient } from '../n8n/client';
import { statusLabel } from '../descriptions/statuses';

/** Searchable pickers for resource locators; the service has no text search, so filtering is local. */

function matches(filter: string | undefined, ...texts: Array<string | null | undefined>): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((t) => t?.toLowerCase().includes(needle));
}

function date(seconds: number | null | undefined): string {
	return seconds ? new Date(seconds * 1000).toISOString().slice(0, 10) : '';
}

function avatarItem(avatar: AvatarDto, own: boolean): INodeListSearchItems {
	const created = date(avatar.created_at);
	const voice = avatar.default_voice_id ? `, voice ${avatar.default_voice_id}` : '';
	return {
		name: `${own ? 'My avatar' : 'Public'} · ${avatar.avatar_id}${created ? ` (${created}${voice})` : voice ? ` (${voice.slice(2)})` : ''}`,
		value: avatar.avatar_id,
		url: avatar.thumbnail_url ?? undefined,
	};
}

/**
 * n8n's editor asks for a list's next page only when the user scrolls to its end, and a dropdown of
 * a few rows cannot scroll: an answer that short with more behind it (a filter that matched little
 * on this page, or a short first list) would leave the rest out of reach. So one answer reads pages
 * until it has rows enough to scroll or the list ends, within a bound that keeps the picker quick.
 */
const ROWS_PER_ANSWER = 20;
const PAGES_PER_ANSWER = 10;

interface Page {
	results: INodeListSearchItems[];
	next?: string;
}

async function answer(
	start: string | undefined,
	read: (token: string | undefined) => Promise<Page>,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	let token = start;
	for (let pages = 0; pages < PAGES_PER_ANSWER; pages++) {
		const page = await read(token);
		results.push(...page.results);
		token = page.next;
		if (token === undefined || results.length >= ROWS_PER_ANSWER) break;
	}
	return { results, paginationToken: token };
}

/** Own avatars first, then the public library; the token says which list and where in it. */
export async function searchAvatars(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	return await answer(paginationToken, async (token) => {
		const [list, cursorText] = (token ?? 'own:0').split(':');
		const isPublic = list === 'public';
		const page = await client.listAvatars({
			is_public: isPublic,
			cursor: Number(cursorText) || undefined,
			limit: 100,
		});
		const results = page.avatars
			.filter((a) => matches(filter, a.avatar_id, a.default_voice_id))
			.map((a) => avatarItem(a, !isPublic));
		return {
			results,
			next: page.next_cursor ? `${list}:${page.next_cursor}` : isPublic ? undefined : 'public:0',
		};
	});
}

/** Own avatars only, for operations that cannot act on public ones (delete, reframe). */
export async function searchOwnAvatars(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	return await answer(paginationToken, async (token) => {
		const page = await client.listAvatars({
			is_public: false,
			cursor: Number(token) || undefined,
			limit: 100,
		});
		return {
			results: page.avatars
				.filter((a) => matches(filter, a.avatar_id, a.default_voice_id))
				.map((a) => avatarItem(a, true)),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	});
}

export function voiceLabel(voice: VoiceDto, own: boolean): string {
	const traits = [
		voice.language,
		voice.locale ? `(${voice.locale})` : '',
		voice.gender,
		voice.age,
		voice.accent,
	]
		.filter(Boolean)
		.join(' ');
	return `${own ? 'My voice · ' : ''}${voice.voice_id}${traits ? ` — ${traits}` : ''}${voice.provider ? ` · ${voice.provider}` : ''}`;
}

function voiceItems(voices: VoiceDto[], own: boolean, filter?: string): INodeListSearchItems[] {
	return voices
		.filter((v) =>
			matches(filter, v.voice_id, v.language, v.locale, v.gender, v.accent, v.provider, v.tags),
		)
		.map((v) => ({
			name: voiceLabel(v, own),
			value: v.voice_id,
			url: v.preview_audio_url || undefined,
		}));
}

export async function searchVoices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	const page = await client.listVoices({
		cursor: Number(paginationToken) || undefined,
		limit: 200,
	});
	return {
		results: [
			...voiceItems(page.my_voices, true, filter),
			...voiceItems(page.public_voices, false, filter),
		],
		paginationToken: page.next_cursor ? String(page.next_cursor) : undefined,
	};
}

/** Cloned voices only, for deleting: public voices cannot be deleted. The service sends them whole on the first page. */
export async function searchOwnVoices(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const page = await (await createN8nClient(this)).listVoices({ limit: 1 });
	return { results: voiceItems(page.my_voices, true, filter) };
}

function assetItem(asset: AssetDto): INodeListSearchItems {
	const size = asset.width && asset.height ? ` ${asset.width}×${asset.height}` : '';
	const length = asset.duration_sec ? ` ${Math.round(asset.duration_sec)} s` : '';
	return {
		name: `${asset.kind ?? 'file'}${size}${length} · ${asset.asset_id}${asset.created_at ? ` (${date(asset.created_at)})` : ''}`,
		value: asset.asset_id,
	};
}

export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	return await answer(paginationToken, async (token) => {
		const page = await client.listAssets({ cursor: Number(token) || undefined, limit: 100 });
		return {
			results: page.assets
				.filter((a) => matches(filter, a.asset_id, a.kind, a.mime))
				.map(assetItem),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	});
}

export async function searchTalkingVideoModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { models } = await (await createN8nClient(this)).listTalkingVideoModels();
	return {
		results: models
			.filter((m) => matches(filter, m.model_id, m.name))
			.map((m) => ({
				name: `${m.name ?? m.model_id}${m.is_default ? ' (default)' : ''}${m.resolutions?.length ? ` · ${m.resolutions.join(', ')}` : ''}`,
				value: m.model_id,
			})),
	};
}

export async function searchAiVideoModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { models } = await (await createN8nClient(this)).listAiVideoModels();
	return {
		results: models
			.filter((m) => matches(filter, m.model_id, m.name, m.family))
			.map((m) => {
				const durations = m.params?.duration_sec?.values;
				const resolutions = m.params?.resolution?.values;
				const traits = [
					durations?.length ? `${durations.join('/')} s` : '',
					resolutions?.length ? resolutions.join('/') : '',
				]
					.filter(Boolean)
					.join(' · ');
				return {
					name: `${m.name ?? m.model_id}${traits ? ` · ${traits}` : ''}`,
					value: m.model_id,
				};
			}),
	};
}

export async function searchImageModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { models } = await (await createN8nClient(this)).listImageModels();
	return {
		results: models
			.filter((m) => matches(filter, m.model_id, m.name))
			.map((m) => {
				const tiers = m.params?.resolution?.values;
				const refs = m.params?.refs?.max;
				const traits = [
					tiers?.length ? tiers.join('/') : '',
					refs ? `up to ${refs} references` : '',
				]
					.filter(Boolean)
					.join(' · ');
				return {
					name: `${m.name ?? m.model_id}${traits ? ` · ${traits}` : ''}`,
					value: m.model_id,
				};
			}),
	};
}

function videoItem(video: {
	video_id: string;
	status: string;
	created_at?: number | null;
	model_id?: string | null;
}): INodeListSearchItems {
	const created = date(video.created_at);
	return {
		name: `${video.video_id} · ${statusLabel(video.status)}${created ? ` · ${created}` : ''}${video.model_id ? ` · ${video.model_id}` : ''}`,
		value: video.video_id,
	};
}

export async function searchTalkingVideos(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	return await answer(paginationToken, async (token) => {
		const page = await client.listTalkingVideos({ cursor: Number(token) || undefined, limit: 100 });
		return {
			results: page.videos
				.filter((v) => matches(filter, v.video_id, v.status, statusLabel(v.status), v.model_id))
				.map(videoItem),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	});
}

export async function searchAiVideos(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await createN8nClient(this);
	return await answer(paginationToken, async (token) => {
		const page = await client.listAiVideos({ cursor: Number(token) || undefined, limit: 100 });
		return {
			results: page.videos
				.filter((v) => matches(filter, v.video_id, v.status, statusLabel(v.status), v.model_id))
				.map(videoItem),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	});
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
