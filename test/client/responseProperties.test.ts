/**
 * Property tests of the response parsers: whatever extra fields an answer carries, and whatever shape
 * the parts the contract leaves open take (null, absent, empty, another type), parsing never throws
 * and what the contract states is still read as sent.
 */
import fc from 'fast-check';

import { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { EndpointName } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/contract';
import { endpoints } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/contract';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type { Exchange } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';

type Json = Record<string, unknown>;

/** One answer per operation as the contract states it, which fields must come back as sent, and which lists hold entries. */
interface Case {
	base: Json;
	/** Keys the contract states (required): never varied, read back equal. */
	stated: string[];
	/** A list of entries in the answer: its key, and the keys each entry must keep. */
	entries?: { key: string; stated: string[] };
}

const task = {
	video_id: 'aiv_1',
	model_id: 'wan-2.5',
	status: 'created',
	video_url: 'https://cdn.example.com/v.mp4',
	cover_url: null,
	duration_sec: 5,
	resolution: '720p',
	aspect_ratio: '16:9',
	cost_credit: 20,
	created_at: 1764000000,
};
const talking = {
	video_id: 'vid_1',
	model_id: 'vs_character_v4',
	status: 'queued',
	created_at: 1764000000,
	aspect_ratio: '9:16',
	resolution: '720p',
	cost_credit: 10,
	video_url: null,
};
const avatar = {
	avatar_id: 'avt_1',
	thumbnail_url: 'https://cdn.example.com/t.png',
	aspect_ratios: ['9:16'],
	created_at: 0,
	default_voice_id: '',
	framing: null,
};
const voice = {
	voice_id: 'Alice',
	language: 'english',
	locale: 'en-US',
	preview_audio_url: 'https://cdn.example.com/a.mp3',
	is_free: true,
	provider: '',
	gender: 'female',
	age: '',
	accent: '',
	tags: null,
	use_cases: [],
};
const asset = {
	asset_id: 'asset_1',
	kind: 'image',
	mime: 'image/png',
	width: 512,
	height: 512,
	duration_sec: 0,
	created_at: 1764000000,
};
const word = { text: 'Hello', start_sec: 0, end_sec: 0.4, speaker: null };

const CASES: Partial<Record<EndpointName, Case>> = {
	createTalkingVideo: { base: { video_id: 'vid_1' }, stated: ['video_id'] },
	getTalkingVideo: { base: talking, stated: ['video_id', 'status'] },
	listTalkingVideos: {
		base: { videos: [talking, { ...talking, video_id: 'vid_2' }], next_cursor: 0 },
		stated: [],
		entries: { key: 'videos', stated: ['video_id', 'status'] },
	},
	listTalkingVideoModels: {
		base: {
			models: [
				{
					model_id: 'vs_character_v4',
					name: 'Character v4',
					resolutions: ['720p'],
					default_resolution: '720p',
					is_default: true,
				},
			],
		},
		stated: [],
		entries: { key: 'models', stated: ['model_id'] },
	},
	createAiVideo: { base: { video_id: 'aiv_1' }, stated: ['video_id'] },
	getAiVideo: { base: task, stated: ['video_id', 'status'] },
	listAiVideos: {
		base: { videos: [task], next_cursor: 0 },
		stated: [],
		entries: { key: 'videos', stated: ['video_id', 'status'] },
	},
	estimateAiVideoCost: { base: { credit: 40 }, stated: ['credit'] },
	listAiVideoModels: {
		base: {
			models: [
				{
					model_id: 'wan-2.5',
					name: 'Wan',
					family: 'wan',
					params: { duration_sec: { values: [5, 10], default: 5 } },
					media: { refs: { max: 0 } },
				},
			],
		},
		stated: [],
		entries: { key: 'models', stated: ['model_id'] },
	},
	generateImage: {
		base: {
			url: 'https://cdn.example.com/i.png',
			width: 1024,
			height: 1024,
			model_id: 'nano-banana-2',
			cost_credit: 4,
		},
		stated: ['url'],
	},
	listImageModels: {
		base: {
			models: [
				{
					model_id: 'nano-banana-2',
					name: 'Nano Banana 2',
					params: { resolution: { values: ['1K'], default: '1K' }, refs: { max: 4 } },
					credit_per_image: 4,
					credit_by_resolution: { '1K': 4 },
				},
			],
		},
		stated: [],
		entries: { key: 'models', stated: ['model_id'] },
	},
	alignAudio: { base: { cost_credit: 1, duration_sec: 1.2, words: [word] }, stated: ['words'] },
	transcribeAudio: {
		base: {
			text: 'Hello',
			duration_sec: 1.2,
			cost_credit: 1,
			words: [word],
			srt: '1\n00:00:00,000 --> 00:00:00,400\nHello\n',
		},
		stated: [],
	},
	createAvatar: { base: avatar, stated: ['avatar_id'] },
	listAvatars: {
		base: { avatars: [avatar], next_cursor: 0 },
		stated: [],
		entries: { key: 'avatars', stated: ['avatar_id'] },
	},
	updateAvatarFraming: {
		base: {
			aspect_ratio: '1:1',
			avatar_id: 'avt_1',
			image_url: null,
			zoom: 1.5,
			offset_x: 0,
			offset_y: 0,
		},
		stated: ['aspect_ratio', 'avatar_id'],
	},
	deleteAvatar: { base: { deleted: true }, stated: [] },
	listVoices: {
		base: { my_voices: [], public_voices: [voice], next_cursor: 0 },
		stated: ['my_voices'],
		entries: { key: 'public_voices', stated: ['voice_id'] },
	},
	cloneVoice: {
		base: { voice_id: 'vc_1', locale: '', language: '', gender: '', preview_audio_url: '' },
		stated: ['voice_id'],
	},
	understandMedia: {
		base: {
			output: { mood: 'calm' },
			usage: { input_tokens: 10, output_tokens: 5 },
			cost_credit: 1,
		},
		stated: ['output'],
	},
	uploadAsset: { base: asset, stated: ['asset_id'] },
	listAssets: {
		base: { assets: [asset], next_cursor: 0 },
		stated: [],
		entries: { key: 'assets', stated: ['asset_id'] },
	},
	getCredits: { base: { credits: 100 }, stated: [] },
};

/** Keys a real service might add; never one the contract names. */
const extraKey = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`);
const extraFields = fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
/** What a part the contract leaves open may be instead: null, absent, empty, or any JSON value. */
const openValue = fc.oneof(
	fc.constant(null),
	fc.constant(undefined),
	fc.constant(''),
	fc.jsonValue({ maxDepth: 2 }),
);

/** The object with extra fields, and each of its keys outside `stated` either kept or replaced by an open value. */
function drifted(base: Json, stated: string[]): fc.Arbitrary<Json> {
	const open = Object.keys(base).filter((k) => !stated.includes(k));
	const variants = Object.fromEntries(
		open.map((k) => [k, fc.oneof(fc.constant(base[k]), openValue)]),
	);
	return fc.record({ extra: extraFields, values: fc.record(variants) }).map(({ extra, values }) => {
		const out: Json = { ...extra };
		for (const k of stated) out[k] = base[k];
		for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
		return out;
	});
}

function answer(c: Case): fc.Arbitrary<Json> {
	if (!c.entries) return drifted(c.base, c.stated);
	const { key, stated } = c.entries;
	const entries = (c.base[key] as Json[]).map((entry) => drifted(entry, stated));
	return fc
		.tuple(drifted(c.base, [...c.stated, key]), fc.tuple(...entries))
		.map(([top, list]) => ({ ...top, [key]: list }));
}

describe('response parsers', () => {
	test.each(Object.keys(CASES) as EndpointName[])(
		'%s: extra fields and open parts in any shape never fail; what the contract states is read as sent',
		(name) => {
			const c = CASES[name]!;
			fc.assert(
				fc.property(answer(c), (data) => {
					const parsed = endpoints[name].response.safeParse(data);
					expect(parsed.success).toBe(true);
					const out = (parsed as { data: Json }).data;
					for (const key of c.stated) expect(out[key]).toEqual(c.base[key]);
					if (c.entries) {
						const { key, stated } = c.entries;
						const read = out[key] as Json[];
						expect(read).toHaveLength((c.base[key] as Json[]).length);
						read.forEach((entry, i) => {
							for (const k of stated) expect(entry[k]).toEqual((c.base[key] as Json[])[i][k]);
						});
					}
					// Unknown fields are kept for the user.
					for (const key of Object.keys(data).filter((k) => k.startsWith('x_')))
						expect(out[key]).toEqual(data[key]);
				}),
				{ numRuns: 150 },
			);
		},
	);

	test('numbers the contract states, sent as numeric strings, read as the same numbers', () => {
		fc.assert(
			fc.property(
				fc.nat({ max: 1_000_000 }),
				fc.nat({ max: 600 }),
				fc.boolean(),
				(cost, duration, asText) => {
					const sent = asText
						? { ...task, cost_credit: String(cost), duration_sec: `${duration}.5` }
						: { ...task, cost_credit: cost, duration_sec: duration + 0.5 };
					const parsed = endpoints.getAiVideo.response.safeParse(sent);
					expect(parsed.success).toBe(true);
					expect((parsed as { data: Json }).data).toMatchObject({
						cost_credit: cost,
						duration_sec: duration + 0.5,
					});
				},
			),
		);
	});

	test('a stated field present with another type is named as such, never as missing', async () => {
		const wrong = fc.oneof(
			fc.boolean(),
			fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
			fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
		);
		await fc.assert(
			fc.asyncProperty(wrong, async (value) => {
				const client = new VisionStoryClient({
					send: async () => ({ ...talking, video_id: value }),
				} as unknown as Exchange);
				const error = await client.getTalkingVideo({ video_id: 'vid_1' }).then(
					() => undefined,
					(e: unknown) => e,
				);
				expect(error).toBeInstanceOf(VisionStoryError);
				expect((error as Error).message).toMatch(
					/video_id has an unexpected type: got (boolean|array|object)$/,
				);
				expect((error as Error).message).not.toMatch(/is missing/);
			}),
			{ numRuns: 50 },
		);
	});

	test('a 20-id status answer with any entries broken keeps every readable one and names each broken one', async () => {
		const broken = fc.oneof(
			fc.constant(null),
			fc.boolean(),
			fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
			fc.jsonValue({ maxDepth: 1 }).filter((v) => typeof v !== 'string'),
		);
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.option(broken, { nil: undefined }), { minLength: 20, maxLength: 20 }),
				async (statuses) => {
					const ids = statuses.map((_, i) => `aiv_${i}`);
					const videos = ids.map((id, i) =>
						statuses[i] === undefined
							? { ...task, video_id: id }
							: { ...task, video_id: id, status: statuses[i] },
					);
					const client = new VisionStoryClient({
						send: async () => ({ videos }),
					} as unknown as Exchange);
					const read = await client.readAiVideos(ids);
					ids.forEach((id, i) => {
						const entry = read.get(id);
						if (statuses[i] === undefined)
							expect(entry).toMatchObject({ video_id: id, status: 'created' });
						else {
							expect(entry).toBeInstanceOf(VisionStoryError);
							expect((entry as VisionStoryError).videoIds).toEqual([id]);
						}
					});
				},
			),
			{ numRuns: 100 },
		);
	});
});
