import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeListSearchItems, INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import type { Harness } from '../harness';
import { createHarness } from '../harness';
import { createUndiciClient } from '../support/undiciTransport';
import { VISIONSTORY } from '../support/workflow';

/**
 * The searchable lists ("From List" of a resource locator) and the options that load from the
 * service, called the way n8n's editor calls them (n8n-core's LoadOptionsContext, the node's current
 * parameters, the credential pointing at the emulator). What is asserted is what the user sees: the
 * rows' names and values, the search box narrowing them, and scrolling on to the next pages.
 */

const TALKING_VIDEO = 'talkingVideo';
const AI_VIDEO = 'aiVideo';
const IMAGE = 'image';
const SPEECH = 'textToSpeech';
const ASSET = 'asset';

/** n8n's list dropdown is 236 px high with 32 px rows: it scrolls (and so can load more) from 8 rows on. */
const ROWS_TO_SCROLL = 8;

const png = readFileSync(join(__dirname, '../emulator/media/sample.png')).toString('base64');
const mp3 = readFileSync(join(__dirname, '../emulator/media/sample.mp3')).toString('base64');

let emu: Emulator;
let harness: Harness;
let client: VisionStoryClient;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 60_000, aiConcurrencyCap: 1000 });
	harness = await createHarness();
	client = createUndiciClient(emu.apiKey, {
		baseUrl: emu.baseUrl,
		retry: { baseDelayMs: 5, maxDelayMs: 40 },
	});
});
afterAll(async () => {
	await harness?.shutdown();
	await emu?.stop();
});
beforeEach(() => {
	emu.reset();
	emu.setConfig({ aiConcurrencyCap: 1000 });
});

function credentials() {
	return { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } };
}

/** One answer of a list, as the editor asks for it. */
async function search(
	resource: string,
	parameter: string,
	parameters: INodeParameters,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await harness.searchList(VISIONSTORY, parameter, {
		credentials: credentials(),
		parameters: { resource, ...parameters },
		filter,
		paginationToken,
	});
}

/**
 * What the user sees on opening the list and then scrolling to its end again and again: n8n asks for
 * the next page only when the rows shown overflow the dropdown, so a short answer that still has more
 * behind it leaves the user stuck. Fails when that happens; returns every answer.
 */
async function scrollToEnd(
	resource: string,
	parameter: string,
	parameters: INodeParameters,
	filter?: string,
): Promise<INodeListSearchResult[]> {
	const pages: INodeListSearchResult[] = [];
	let shown = 0;
	let token: string | undefined;
	do {
		const page = await search(resource, parameter, parameters, filter, token);
		pages.push(page);
		shown += page.results.length;
		token = page.paginationToken;
		if (token !== undefined && shown < ROWS_TO_SCROLL) {
			throw new Error(
				`The list shows ${shown} row(s) and cannot scroll, so the editor never asks for the rest (next token ${token})`,
			);
		}
		if (pages.length > 50) throw new Error('The list never ends');
	} while (token !== undefined);
	return pages;
}

function rows(pages: INodeListSearchResult[]): INodeListSearchItems[] {
	return pages.flatMap((p) => p.results);
}

function values(items: INodeListSearchItems[]): string[] {
	return items.map((i) => String(i.value));
}

const talkingVideoCreate: INodeParameters = { operation: 'create' };

describe('avatar picker of Talking Video: your avatars first, then the public library', () => {
	/** Creates avatars; returns every avatar of the account (the legacy one included) as the service lists them. */
	async function createAvatars(count: number): Promise<string[]> {
		for (let i = 0; i < count; i++)
			await client.createAvatar({ inline_data: { data: png, mime_type: 'image/png' } });
		return await ownAvatarIds();
	}

	test('a new account (only its legacy avatar): opening the list shows it, then the public library', async () => {
		const first = await search(TALKING_VIDEO, 'avatarId', talkingVideoCreate);
		expect(first.results[0]).toMatchObject({
			value: 'legacy_acct_1',
			name: expect.stringMatching(/^My avatar · legacy_acct_1/),
		});
		// One row cannot be scrolled: the public library must already be in this answer.
		expect(first.results.length).toBeGreaterThanOrEqual(ROWS_TO_SCROLL);
		expect(first.results[1]).toMatchObject({
			value: 'public_anna',
			name: expect.stringMatching(/^Public · public_anna \(voice \S+\)$/),
		});
		expect(first.results[1].url).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/media\/images\/avatar-public_anna\.png$/,
		);

		const all = rows(await scrollToEnd(TALKING_VIDEO, 'avatarId', talkingVideoCreate));
		expect(values(all)).toEqual(['legacy_acct_1', ...(await publicAvatarIds())]);
		expect(all.slice(1).every((row) => String(row.name).startsWith('Public · '))).toBe(true);
	});

	test('a few avatars of your own come first, newest first, with the public library right after them', async () => {
		const own = await createAvatars(3);
		expect(own).toHaveLength(4);
		const first = await search(TALKING_VIDEO, 'avatarId', talkingVideoCreate);
		expect(values(first.results).slice(0, 4)).toEqual(own);
		expect(first.results[0].name).toMatch(
			new RegExp(`^My avatar · ${own[0]} \\(\\d{4}-\\d{2}-\\d{2}\\)$`),
		);
		expect(first.results.length).toBeGreaterThanOrEqual(ROWS_TO_SCROLL);
		expect(first.results[4].name).toMatch(/^Public · /);

		const all = rows(await scrollToEnd(TALKING_VIDEO, 'avatarId', talkingVideoCreate));
		expect(values(all)).toEqual([...own, ...(await publicAvatarIds())]);
	});

	test('more than a page of your own avatars: scrolling goes through all of them, then on into the public library', async () => {
		const own = await createAvatars(105);
		expect(own.length).toBeGreaterThan(100);
		const pages = await scrollToEnd(TALKING_VIDEO, 'avatarId', talkingVideoCreate);
		expect(pages.length).toBeGreaterThan(1);
		expect(pages[0].results.every((row) => String(row.name).startsWith('My avatar · '))).toBe(true);
		const all = values(rows(pages));
		// Every avatar exactly once: own ones in the service's order, then the public library.
		expect(all).toEqual([...own, ...(await publicAvatarIds())]);
		expect(pages[pages.length - 1].paginationToken).toBeUndefined();
	});

	test('the search box narrows both lists, ignoring case; a public match shows even when none of yours match', async () => {
		await createAvatars(3);
		const found = rows(await scrollToEnd(TALKING_VIDEO, 'avatarId', talkingVideoCreate, 'ANNA'));
		expect(values(found)).toEqual(['public_anna']);
		const none = await search(TALKING_VIDEO, 'avatarId', talkingVideoCreate, 'no-such-avatar');
		expect(none).toEqual({ results: [] });
	});

	test('a token from an earlier answer continues where it left off', async () => {
		const own = await createAvatars(101);
		const first = await search(TALKING_VIDEO, 'avatarId', talkingVideoCreate);
		expect(values(first.results)).toEqual(own.slice(0, 100));
		const second = await search(
			TALKING_VIDEO,
			'avatarId',
			talkingVideoCreate,
			undefined,
			first.paginationToken,
		);
		expect(values(second.results)).toEqual([...own.slice(100), ...(await publicAvatarIds())]);
		expect(second.paginationToken).toBeUndefined();
	});
});

describe('avatar picker of Avatar → Delete: your own avatars only', () => {
	const AVATAR = 'avatar';

	test('pages through more than a page of your avatars, and a search finds the oldest one', async () => {
		for (let i = 0; i < 104; i++)
			await client.createAvatar({ inline_data: { data: png, mime_type: 'image/png' } });
		const own = await ownAvatarIds();
		const all = rows(await scrollToEnd(AVATAR, 'avatarId', { operation: 'delete' }));
		expect(values(all)).toEqual(own);
		expect(all.every((row) => String(row.name).startsWith('My avatar · '))).toBe(true);
		const legacy = rows(await scrollToEnd(AVATAR, 'avatarId', { operation: 'delete' }, 'legacy'));
		expect(values(legacy)).toEqual(['legacy_acct_1']);
	});
});

async function ownAvatarIds(): Promise<string[]> {
	const ids: string[] = [];
	let cursor: number | undefined;
	do {
		const page = await client.listAvatars({ cursor, limit: 100 });
		ids.push(...page.avatars.map((a) => a.avatar_id));
		cursor = page.next_cursor || undefined;
	} while (cursor);
	return ids;
}

async function publicAvatarIds(): Promise<string[]> {
	return (await client.listAvatars({ is_public: true, limit: 100 })).avatars.map(
		(a) => a.avatar_id,
	);
}

describe('voice picker of Text to Speech', () => {
	test('your cloned voices first, marked as yours, then the public voices with their traits; one answer', async () => {
		const { voice_id: mine } = await client.cloneVoice({
			inline_data: { data: mp3, mime_type: 'audio/mpeg' },
		});
		const page = await search(SPEECH, 'voiceId', {});
		expect(page.paginationToken).toBeUndefined();
		expect(page.results[0]).toEqual({
			name: `My voice · ${mine} — english (en-US) · elevenlabs`,
			value: mine,
			url: expect.stringMatching(new RegExp(`/media/audio/voice-${mine}\\.mp3$`)),
		});
		const alice = page.results.find((r) => r.value === 'Alice');
		expect(alice?.name).toBe('Alice — english (en-GB) female middle-aged british · elevenlabs');
		const { public_voices } = await client.listVoices();
		expect(page.results).toHaveLength(public_voices.length + 1);
	});

	test('the search box matches locale, accent, gender, provider or tags', async () => {
		const { voice_id: mine } = await client.cloneVoice({
			inline_data: { data: mp3, mime_type: 'audio/mpeg' },
		});
		const british = (await search(SPEECH, 'voiceId', {}, 'en-gb')).results;
		expect(british.length).toBeGreaterThan(0);
		expect(british.every((r) => String(r.name).includes('(en-GB)'))).toBe(true);
		const storytelling = (await search(SPEECH, 'voiceId', {}, 'Storytelling')).results;
		expect(values(storytelling)).toEqual(['English_Storyteller']);
		const eleven = (await search(SPEECH, 'voiceId', {}, 'ElevenLabs')).results;
		expect(values(eleven)[0]).toBe(mine);
		expect(eleven.every((r) => String(r.name).endsWith('· elevenlabs'))).toBe(true);
	});
});

describe('voice picker of Voice → Delete: your cloned voices only', () => {
	test('lists the voices you cloned, newest first, and the search box narrows them', async () => {
		const first = await client.cloneVoice({ inline_data: { data: mp3, mime_type: 'audio/mpeg' } });
		const second = await client.cloneVoice({ inline_data: { data: mp3, mime_type: 'audio/mpeg' } });
		const VOICE = 'voice';
		const page = await search(VOICE, 'voiceId', { operation: 'delete' });
		expect(values(page.results)).toEqual([second.voice_id, first.voice_id]);
		expect(page.paginationToken).toBeUndefined();
		expect(page.results[0].name).toBe(
			`My voice · ${second.voice_id} — english (en-US) · elevenlabs`,
		);
		expect(
			values(
				(await search(VOICE, 'voiceId', { operation: 'delete' }, first.voice_id.toUpperCase()))
					.results,
			),
		).toEqual([first.voice_id]);
	});

	test('with no cloned voice the list is empty, with nothing more to load', async () => {
		expect(await search('voice', 'voiceId', { operation: 'delete' })).toEqual({ results: [] });
	});
});

describe('asset picker', () => {
	test('pages through a library of more than one page, newest first, each asset once', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 130; i++)
			ids.push(
				(await client.uploadAsset({ url: `https://assets.example.invalid/photo-${i}.png` }))
					.asset_id,
			);
		const pages = await scrollToEnd(ASSET, 'assetId', { operation: 'delete' });
		expect(pages.length).toBeGreaterThan(1);
		expect(values(rows(pages))).toEqual(ids.reverse());
		expect(pages[0].results[0].name).toMatch(/^image · asset_[0-9a-f]{24} \(\d{4}-\d{2}-\d{2}\)$/);
	});

	test('the search box finds the one audio file even when it is the oldest of many', async () => {
		const audio = await client.uploadAsset({ inline_data: { data: mp3, mime_type: 'audio/mpeg' } });
		for (let i = 0; i < 120; i++)
			await client.uploadAsset({ url: `https://assets.example.invalid/photo-${i}.png` });
		const found = rows(await scrollToEnd(ASSET, 'assetId', { operation: 'delete' }, 'audio'));
		expect(found).toEqual([
			{
				name: expect.stringMatching(new RegExp(`^audio \\d+ s · ${audio.asset_id} `)),
				value: audio.asset_id,
			},
		]);
	});
});

describe('video pickers', () => {
	async function talkingVideos(count: number, failing = -1): Promise<string[]> {
		const avatar_id = 'public_anna';
		const ids: string[] = [];
		for (let i = 0; i < count; i++) {
			const text = i === failing ? 'This one will [fail] to render' : `Video number ${i}`;
			ids.push(
				(await client.createTalkingVideo({ avatar_id, text_script: { text, voice_id: 'Alice' } }))
					.video_id,
			);
		}
		return ids.reverse();
	}

	test('talking videos: every one of more than a page, with status, date and model', async () => {
		const ids = await talkingVideos(105);
		const pages = await scrollToEnd(TALKING_VIDEO, 'videoId', { operation: 'get' });
		expect(pages.length).toBeGreaterThan(1);
		expect(values(rows(pages))).toEqual(ids);
		expect(pages[0].results[0].name).toMatch(
			new RegExp(`^${ids[0]} · Queued · \\d{4}-\\d{2}-\\d{2} · vs_character_v4$`),
		);
		emu.advance(61_000);
		expect(
			(await search(TALKING_VIDEO, 'videoId', { operation: 'get' })).results[0].name,
		).toContain(' · Ready · ');
	});

	test('talking videos: the search box finds a status by its label (Ready) as well as by the API word (created)', async () => {
		const ids = await talkingVideos(3);
		emu.advance(61_000);
		for (const word of ['ready', 'created']) {
			expect(
				values(
					rows(await scrollToEnd(TALKING_VIDEO, 'videoId', { operation: 'get' }, word)),
				).sort(),
			).toEqual([...ids].sort());
		}
	});

	test('talking videos: searching for "failed" finds the failed one, even on the last page', async () => {
		const ids = await talkingVideos(105, 0);
		emu.advance(61_000);
		const found = rows(await scrollToEnd(TALKING_VIDEO, 'videoId', { operation: 'get' }, 'FAILED'));
		expect(values(found)).toEqual([ids[ids.length - 1]]);
	});

	test('AI videos: every one of more than a page; the search box narrows by model', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 102; i++) {
			const model_id = i === 0 ? 'wan-2.5' : 'seedance-1.0-pro';
			ids.push(
				(await client.createAiVideo({ model_id, prompt: `Clip ${i}`, duration_sec: 5 })).video_id,
			);
		}
		ids.reverse();
		const pages = await scrollToEnd(AI_VIDEO, 'videoId', { operation: 'get' });
		expect(pages.length).toBeGreaterThan(1);
		expect(values(rows(pages))).toEqual(ids);
		expect(pages[0].results[0].name).toMatch(
			new RegExp(`^${ids[0]} · Queued · \\d{4}-\\d{2}-\\d{2} · seedance-1\\.0-pro$`),
		);
		const wan = rows(await scrollToEnd(AI_VIDEO, 'videoId', { operation: 'get' }, 'wan'));
		expect(values(wan)).toEqual([ids[ids.length - 1]]);
	});
});

describe('model pickers', () => {
	test('talking video models: name, default mark and resolutions; the search box narrows', async () => {
		const all = await search(TALKING_VIDEO, 'modelId', talkingVideoCreate);
		expect(all).toEqual({
			results: [
				{ name: 'Character v4 (default) · 720p, 1080p, 2k', value: 'vs_character_v4' },
				{ name: 'Character v3 · 720p, 1080p', value: 'vs_character_v3' },
			],
		});
		expect(
			values((await search(TALKING_VIDEO, 'modelId', talkingVideoCreate, 'V3')).results),
		).toEqual(['vs_character_v3']);
	});

	test('AI video models: durations and resolutions in the name; the search box matches name, id or family', async () => {
		const all = (await search(AI_VIDEO, 'modelId', { operation: 'create' })).results;
		expect(all[0]).toEqual({
			name: 'Seedance 1.0 Pro · 5/10 s · 480p/720p/1080p',
			value: 'seedance-1.0-pro',
		});
		expect(values(all)).toEqual(['seedance-1.0-pro', 'wan-2.5', 'kling-3.0', 'kling-3.0-omni']);
		expect(
			values((await search(AI_VIDEO, 'modelId', { operation: 'create' }, 'Kling')).results),
		).toEqual(['kling-3.0', 'kling-3.0-omni']);
		expect(
			values((await search(AI_VIDEO, 'modelId', { operation: 'create' }, 'kling-omni')).results),
		).toEqual(['kling-3.0-omni']);
	});

	test('image models: resolution tiers and how many references', async () => {
		const all = (await search(IMAGE, 'modelId', { operation: 'generate' })).results;
		expect(all[0]).toEqual({
			name: 'Nano Banana 2 · 1K/2K · up to 4 references',
			value: 'nano-banana-2',
		});
		expect(all).toHaveLength(7);
		expect(
			values((await search(IMAGE, 'modelId', { operation: 'generate' }, 'gpt')).results),
		).toEqual(['gpt-image-2', 'gpt-image-2.5-flare', 'gpt-image-2.5-sunburst']);
	});
});

describe('options that follow the chosen model', () => {
	const model = (id: string) => ({ __rl: true, mode: 'list', value: id });

	async function options(resource: string, parameter: string, parameters: INodeParameters) {
		return await harness.loadOptions(VISIONSTORY, parameter, {
			credentials: credentials(),
			parameters: { resource, ...parameters },
		});
	}

	test('AI video: durations, resolutions and aspect ratios of the chosen model, after its default', async () => {
		const create = { operation: 'create', modelId: model('wan-2.5') };
		const durations = await options(AI_VIDEO, 'duration', create);
		expect(durations[0]).toEqual({ name: 'Model Default (5 s)', value: '' });
		expect(durations.slice(1).map((o) => o.value)).toEqual(
			Array.from({ length: 29 }, (_, i) => i + 2),
		);
		expect(durations[1].name).toBe('2 s');
		expect(
			await options(AI_VIDEO, 'resolution', { operation: 'create', modelId: model('kling-3.0') }),
		).toEqual([
			{ name: 'Model Default (1080p)', value: '' },
			{ name: '720p', value: '720p' },
			{ name: '1080p', value: '1080p' },
			{ name: '4k', value: '4k' },
		]);
		expect(
			(
				await options(AI_VIDEO, 'aspectRatio', {
					operation: 'create',
					modelId: model('seedance-1.0-pro'),
				})
			).map((o) => o.value),
		).toEqual(['', '16:9', '9:16', '1:1', '4:3', '3:4', '21:9']);
	});

	test('AI video and image: before a model is chosen, the list says to pick one and asks nothing of the service', async () => {
		emu.clearLog();
		expect(await options(AI_VIDEO, 'duration', { operation: 'create' })).toEqual([
			{ name: 'Pick a Model First', value: '' },
		]);
		expect(await options(IMAGE, 'resolution', { operation: 'generate' })).toEqual([
			{ name: 'Pick a Model First', value: '' },
		]);
		expect(emu.requests()).toHaveLength(0);
	});

	test('image: resolutions carry the price per image the service quotes; aspect ratios of the model', async () => {
		expect(
			await options(IMAGE, 'resolution', {
				operation: 'generate',
				modelId: model('seedream-5.0-lite'),
			}),
		).toEqual([
			{ name: 'Model Default (2K)', value: '', description: '3 credits per image' },
			{ name: '2K', value: '2K', description: '3 credits per image' },
			{ name: '4K', value: '4K', description: '6 credits per image' },
		]);
		const ratios = await options(IMAGE, 'aspectRatio', {
			operation: 'generate',
			modelId: model('nano-banana-2'),
		});
		expect(ratios[0]).toEqual({ name: 'Model Default (1:1)', value: '' });
		expect(ratios.map((o) => o.value)).toContain('21:9');
	});

	test('talking video: the resolutions of the chosen model, or of the default model when none is chosen', async () => {
		expect(await options(TALKING_VIDEO, 'resolution', { operation: 'create' })).toEqual([
			{ name: 'Model Default (720p)', value: '' },
			{ name: '720p', value: '720p' },
			{ name: '1080p', value: '1080p' },
			{ name: '2k', value: '2k' },
		]);
		expect(
			(
				await options(TALKING_VIDEO, 'resolution', {
					operation: 'create',
					modelId: model('vs_character_v3'),
				})
			).map((o) => o.value),
		).toEqual(['', '720p', '1080p']);
	});
});

describe('model lists in other shapes (emulator drift mode)', () => {
	const model = (id: string) => ({ __rl: true, mode: 'list', value: id });
	const options = async (resource: string, parameter: string, parameters: INodeParameters) =>
		await harness.loadOptions(VISIONSTORY, parameter, {
			credentials: credentials(),
			parameters: { resource, ...parameters },
		});

	beforeEach(() => emu.setConfig({ drift: true }));

	test('every model is listed, odd entries included; options skip what is not a value, prices skip null', async () => {
		expect(
			values((await search(IMAGE, 'modelId', { operation: 'generate' })).results),
		).toHaveLength(7);
		expect(values((await search(AI_VIDEO, 'modelId', { operation: 'create' })).results)).toEqual([
			'seedance-1.0-pro',
			'wan-2.5',
			'kling-3.0',
			'kling-3.0-omni',
		]);
		// nano-banana-2: `true` among its resolutions, a null default, a null price for 8K.
		expect(
			await options(IMAGE, 'resolution', {
				operation: 'generate',
				modelId: model('nano-banana-2'),
			}),
		).toEqual([
			{ name: 'Model Default', value: '', description: '4 credits per image' },
			{ name: '1K', value: '1K', description: '4 credits per image' },
			{ name: '2K', value: '2K', description: '6 credits per image' },
		]);
		// kling-3.0: `false` and `null` among its resolutions; wan-2.5: no params at all.
		expect(
			(
				await options(AI_VIDEO, 'resolution', { operation: 'create', modelId: model('kling-3.0') })
			).map((o) => o.value),
		).toEqual(['', '720p', '1080p', '4k']);
		expect(
			await options(AI_VIDEO, 'duration', { operation: 'create', modelId: model('wan-2.5') }),
		).toEqual([{ name: 'Model Default', value: '' }]);
		// vs_character_v3's resolutions came as one comma-separated string.
		expect(
			(
				await options(TALKING_VIDEO, 'resolution', {
					operation: 'create',
					modelId: model('vs_character_v3'),
				})
			).map((o) => o.value),
		).toEqual(['', '720p', '1080p']);
	});
});

describe('a list that cannot load says why', () => {
	test('a wrong API key: the message names the key and never shows it', async () => {
		const wrongKey = 'sk-vs-not-a-real-key-000000000000';
		const failure = harness.searchList(VISIONSTORY, 'avatarId', {
			credentials: { visionStoryApi: { apiKey: wrongKey, baseUrl: emu.baseUrl } },
			parameters: { resource: TALKING_VIDEO, ...talkingVideoCreate },
		});
		await expect(failure).rejects.toThrow(/API key|X-API-Key/i);
		const error = (await failure.catch((e: unknown) => e)) as Error;
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain(wrongKey);
	});
});
