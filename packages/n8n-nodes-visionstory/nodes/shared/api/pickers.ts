/**
 * The editor's pickers, for every host: each list fetched from the account a page at a time, filtered
 * locally (the service has no text search) and named the way a user tells entries apart. n8n's
 * searchable lists and Node-RED's admin endpoint both answer from here.
 */
import type { VisionStoryClient } from './client';
import type { AssetDto, AvatarDto, VoiceDto } from './contract';

export interface PickerEntry {
	name: string;
	value: string;
	/** A preview (an avatar's thumbnail, a voice's sample) where the list has one. */
	url?: string;
}

export interface PickerPage {
	entries: PickerEntry[];
	/** Where the next page starts; absent at the end of the list. */
	next?: string;
}

export type PickerList =
	| 'avatars'
	| 'ownAvatars'
	| 'voices'
	| 'ownVoices'
	| 'assets'
	| 'talkingVideoModels'
	| 'aiVideoModels'
	| 'imageModels';

/** Whether any of the texts holds the filter, ignoring case; no filter matches everything. */
export function matches(filter: string | undefined, ...texts: Array<string | null | undefined>) {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((t) => t?.toLowerCase().includes(needle));
}

/** A date in seconds as YYYY-MM-DD; none as empty. */
export function pickerDate(seconds: number | null | undefined): string {
	return seconds ? new Date(seconds * 1000).toISOString().slice(0, 10) : '';
}

function avatarEntry(avatar: AvatarDto, own: boolean): PickerEntry {
	const created = pickerDate(avatar.created_at);
	const voice = avatar.default_voice_id ? `, voice ${avatar.default_voice_id}` : '';
	return {
		name: `${own ? 'My avatar' : 'Public'} · ${avatar.avatar_id}${created ? ` (${created}${voice})` : voice ? ` (${voice.slice(2)})` : ''}`,
		value: avatar.avatar_id,
		url: avatar.thumbnail_url ?? undefined,
	};
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

function voiceEntries(voices: VoiceDto[], own: boolean, filter?: string): PickerEntry[] {
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

function assetEntry(asset: AssetDto): PickerEntry {
	const size = asset.width && asset.height ? ` ${asset.width}×${asset.height}` : '';
	const length = asset.duration_sec ? ` ${Math.round(asset.duration_sec)} s` : '';
	return {
		name: `${asset.kind ?? 'file'}${size}${length} · ${asset.asset_id}${asset.created_at ? ` (${pickerDate(asset.created_at)})` : ''}`,
		value: asset.asset_id,
	};
}

/** A model's name with its traits, e.g. "Wan 2.5 · 5/10 s · 480p/720p". */
function modelEntry(
	model: { model_id: string; name?: string | null },
	...traits: Array<string | false | undefined>
): PickerEntry {
	const shown = traits.filter(Boolean).join(' · ');
	return {
		name: `${model.name ?? model.model_id}${shown ? ` · ${shown}` : ''}`,
		value: model.model_id,
	};
}

const joined = (values: unknown[] | null | undefined, separator: string, unit = '') =>
	values?.length ? `${values.join(separator)}${unit}` : undefined;

/** One page of the own or the public avatars; `next` is the service's cursor. */
async function avatarPage(
	client: VisionStoryClient,
	isPublic: boolean,
	cursor: string | undefined,
	filter?: string,
): Promise<PickerPage> {
	const page = await client.listAvatars({
		is_public: isPublic,
		cursor: Number(cursor) || undefined,
		limit: 100,
	});
	return {
		entries: page.avatars
			.filter((a) => matches(filter, a.avatar_id, a.default_voice_id))
			.map((a) => avatarEntry(a, !isPublic)),
		next: page.next_cursor ? String(page.next_cursor) : undefined,
	};
}

type Reader = (
	client: VisionStoryClient,
	token: string | undefined,
	filter?: string,
) => Promise<PickerPage>;

/** One page of each list, from the token the previous page gave. */
export const pickerPages: Record<PickerList, Reader> = {
	/** Own avatars first, then the public library; the token says which list and where in it. */
	async avatars(client, token, filter) {
		const [list, cursor] = (token ?? 'own:0').split(':');
		const isPublic = list === 'public';
		const page = await avatarPage(client, isPublic, cursor, filter);
		return {
			entries: page.entries,
			next: page.next ? `${list}:${page.next}` : isPublic ? undefined : 'public:0',
		};
	},
	/** Own avatars only, for operations that cannot act on public ones (delete, reframe). */
	async ownAvatars(client, token, filter) {
		return await avatarPage(client, false, token, filter);
	},
	async voices(client, token, filter) {
		const page = await client.listVoices({ cursor: Number(token) || undefined, limit: 200 });
		return {
			entries: [
				...voiceEntries(page.my_voices, true, filter),
				...voiceEntries(page.public_voices, false, filter),
			],
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	},
	/** Cloned voices only, for deleting: public voices cannot be deleted. The service sends them whole on the first page. */
	async ownVoices(client, _token, filter) {
		const page = await client.listVoices({ limit: 1 });
		return { entries: voiceEntries(page.my_voices, true, filter) };
	},
	async assets(client, token, filter) {
		const page = await client.listAssets({ cursor: Number(token) || undefined, limit: 100 });
		return {
			entries: page.assets
				.filter((a) => matches(filter, a.asset_id, a.kind, a.mime))
				.map(assetEntry),
			next: page.next_cursor ? String(page.next_cursor) : undefined,
		};
	},
	async talkingVideoModels(client, _token, filter) {
		const { models } = await client.listTalkingVideoModels();
		return {
			entries: models
				.filter((m) => matches(filter, m.model_id, m.name))
				.map((m) => ({
					name: `${m.name ?? m.model_id}${m.is_default ? ' (default)' : ''}${m.resolutions?.length ? ` · ${m.resolutions.join(', ')}` : ''}`,
					value: m.model_id,
				})),
		};
	},
	async aiVideoModels(client, _token, filter) {
		const { models } = await client.listAiVideoModels();
		return {
			entries: models
				.filter((m) => matches(filter, m.model_id, m.name, m.family))
				.map((m) =>
					modelEntry(
						m,
						joined(m.params?.duration_sec?.values, '/', ' s'),
						joined(m.params?.resolution?.values, '/'),
					),
				),
		};
	},
	async imageModels(client, _token, filter) {
		const { models } = await client.listImageModels();
		return {
			entries: models
				.filter((m) => matches(filter, m.model_id, m.name))
				.map((m) =>
					modelEntry(
						m,
						joined(m.params?.resolution?.values, '/'),
						!!m.params?.refs?.max && `up to ${m.params.refs.max} references`,
					),
				),
		};
	},
};

/**
 * An editor asks for a list's next page only when the user scrolls to its end, and a dropdown of a
 * few rows cannot scroll: an answer that short with more behind it (a filter that matched little on
 * this page, or a short first list) would leave the rest out of reach. So one answer reads pages
 * until it has `rows` entries or the list ends, within `pages` pages, which keeps the picker quick.
 */
export async function pickerAnswer(
	read: (token: string | undefined) => Promise<PickerPage>,
	start?: string,
	{ rows = 20, pages = 10 } = {},
): Promise<PickerPage> {
	const entries: PickerEntry[] = [];
	let token = start;
	for (let page = 0; page < pages; page++) {
		const answer = await read(token);
		entries.push(...answer.entries);
		token = answer.next;
		if (token === undefined || entries.length >= rows) break;
	}
	return { entries, next: token };
}
