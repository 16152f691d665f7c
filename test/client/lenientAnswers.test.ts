/**
 * Answers the emulator's happy path never gives, in the shapes a real service plausibly sends where
 * the contract is silent or facts.md says "guess": the client keeps what is usable and skips what is
 * not, and stays strict where the contract states a shape.
 */
import { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import { SpendLedger } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
import { SpendingClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spendingClient';
import { runTasks } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/taskRun';
import type { Exchange } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';
import {
	allowedValue,
	findModel,
	modelList,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/framework/modelChecks';
import { failure } from '../support/failure';

/** A client whose every call answers `data` (the success envelope's `data`), as the exchange returns it. */
function answering(
	data: unknown | ((request: Record<string, unknown>) => unknown),
): VisionStoryClient {
	const exchange = {
		send: async (_name: string, _spec: unknown, request: Record<string, unknown>) =>
			typeof data === 'function'
				? (data as (r: Record<string, unknown>) => unknown)(request)
				: data,
		sleep: async () => undefined,
	};
	return new VisionStoryClient(exchange as unknown as Exchange);
}

describe('model lists (entry shape: a guess)', () => {
	test('image models: a boolean among values, a null default, a null price, an unknown param kind, an entry without params', async () => {
		const client = answering({
			models: [
				{
					model_id: 'nano-banana-2',
					params: {
						resolution: { values: ['1K', '2K', true], default: null },
						prompt: { max_length: '8000' },
						refs: { max: 4 },
						seed: { kind: 'integer_range', range: [0, 4294967295] },
						negative_prompt: true,
					},
					credit_per_image: 4,
					credit_by_resolution: { '1K': 4, '2K': null, '4K': '12' },
				},
				{ model_id: 'nano-banana-pro', name: 'Nano Banana Pro' },
				{ model_id: 'gpt-image-2', params: 'see the documentation', credit_per_image: '6' },
				{ name: 'an entry without an id cannot be used' },
			],
		});
		const { models } = await client.listImageModels();
		expect(models.map((m) => m.model_id)).toEqual([
			'nano-banana-2',
			'nano-banana-pro',
			'gpt-image-2',
		]);
		const [banana, pro, gpt] = models;
		expect(banana.params?.resolution?.values).toEqual(['1K', '2K']);
		expect(banana.params?.resolution?.default ?? null).toBeNull();
		expect(banana.params?.prompt?.max_length).toBe(8000);
		expect(banana.params?.refs?.max).toBe(4);
		expect(banana.params?.negative_prompt).toBeUndefined();
		expect(banana.credit_by_resolution).toEqual({ '1K': 4, '4K': 12 });
		expect(pro.params ?? undefined).toBeUndefined();
		expect(gpt.params ?? undefined).toBeUndefined();
		expect(gpt.credit_per_image).toBe(6);
	});

	test('AI video models: params and media in other shapes are skipped, the model stays listed', async () => {
		const client = answering({
			models: [
				{
					model_id: 'seedance-1.0-pro',
					params: {
						duration_sec: { values: [5, '10', null], default: '5' },
						generate_audio: { supported: 'false', default: null },
						camera_motion: { kind: 'preset', presets: ['pan'] },
					},
					media: {
						first_frame: true,
						refs: { max: '4', kinds: 'image' },
						end_frame: { supported: false, mime_types: ['image/png', 3] },
					},
				},
				{ model_id: 'wan-2.5', params: null, media: 'none' },
			],
		});
		const { models } = await client.listAiVideoModels();
		expect(models.map((m) => m.model_id)).toEqual(['seedance-1.0-pro', 'wan-2.5']);
		const [seedance] = models;
		expect(seedance.params?.duration_sec).toMatchObject({ values: [5, 10], default: 5 });
		expect(seedance.params?.generate_audio?.supported).toBe(false);
		expect(seedance.media?.first_frame).toBeUndefined();
		expect(seedance.media?.refs).toMatchObject({ max: 4 });
		expect(seedance.media?.end_frame).toMatchObject({
			supported: false,
			mime_types: ['image/png'],
		});
		expect(models[1].media ?? undefined).toBeUndefined();
	});

	test('talking-video models: resolutions as one string, is_default as text', async () => {
		const client = answering({
			models: [
				{ model_id: 'vs_character_v4', resolutions: '720p, 1080p,2k', is_default: 'true' },
				{ model_id: 'vs_character_v3', resolutions: null, is_default: 0 },
			],
		});
		const { models } = await client.listTalkingVideoModels();
		expect(models[0]).toMatchObject({
			model_id: 'vs_character_v4',
			resolutions: ['720p', '1080p', '2k'],
			is_default: true,
		});
		expect(models[1].model_id).toBe('vs_character_v3');
	});

	test('a list without its models array still fails, naming it', async () => {
		const error = await failure(answering({ items: [] }).listImageModels());
		expect(error.message).toBe("VisionStory's answer to listImageModels is missing models");
	});
});

describe('other answers whose shape is not shown', () => {
	test('credits as a numeric string, with unknown fields', async () => {
		const credits = await answering({ credits: '9990', plan: 'pro', renews_at: null }).getCredits();
		expect(credits).toMatchObject({ credits: 9990, plan: 'pro' });
	});

	test('credits of another type are skipped, not fatal', async () => {
		expect(
			(await answering({ credits: { monthly: 100 } }).getCredits()).credits ?? undefined,
		).toBeUndefined();
	});

	test('transcribe: numbers as strings, a word without its end kept as it came, an entry without text skipped, srt null', async () => {
		const result = await answering({
			text: 'Hello world',
			duration_sec: '1.5',
			cost_credit: '1',
			words: [
				{ text: 'Hello', start_sec: 0, end_sec: '0.5' },
				{ text: 'big', start_sec: 0.6 },
				{ start_sec: 0.6, end_sec: 1.1 },
				{ text: 'world', start_sec: 0.6, end_sec: 1.1, speaker: null },
			],
			srt: null,
		}).transcribeAudio({ audio: { url: 'https://example.com/a.wav' } });
		expect(result).toMatchObject({ duration_sec: 1.5, cost_credit: 1 });
		expect(result.words).toEqual([
			{ text: 'Hello', start_sec: 0, end_sec: 0.5 },
			{ text: 'big', start_sec: 0.6 },
			{ text: 'world', start_sec: 0.6, end_sec: 1.1, speaker: null },
		]);
	});

	test('list answers: a cursor as a string, an entry in another shape skipped, the rest kept', async () => {
		const page = await answering({
			videos: [
				{
					video_id: 'vid_1',
					status: 'created',
					cost_credit: '10',
					created_at: '1764000000',
					video_url: '',
				},
				{ status: 'created' },
				{ video_id: 'vid_2', status: 'queued', resolution: 720 },
			],
			next_cursor: '20',
		}).listTalkingVideos();
		expect(page.next_cursor).toBe(20);
		expect(page.videos.map((v) => v.video_id)).toEqual(['vid_1', 'vid_2']);
		expect(page.videos[0]).toMatchObject({ cost_credit: 10, created_at: 1764000000 });
		expect(page.videos[1].resolution).toBe('720');
		const assets = await answering({
			assets: [
				{ asset_id: 'asset_1', kind: 'image', width: '640', height: null, duration_sec: '' },
			],
			next_cursor: null,
		}).listAssets();
		expect(assets.assets[0]).toMatchObject({ asset_id: 'asset_1', width: 640 });
	});
});

describe('tasks', () => {
	const task = (id: string, extra: Record<string, unknown> = {}) => ({
		video_id: id,
		model_id: 'wan-2.5',
		status: 'creating',
		cost_credit: 10,
		...extra,
	});

	test('one malformed task in a 20-id status answer does not fail the other 19: that one gets a clear error', async () => {
		const ids = Array.from({ length: 20 }, (_, i) => `aiv_${i}`);
		const client = answering({
			videos: ids.map((id, i) =>
				i === 7 ? { video_id: id, status: { phase: 'render' } } : task(id),
			),
		});
		const read = await client.readAiVideos(ids);
		expect(read.size).toBe(20);
		for (const id of ids.filter((_, i) => i !== 7))
			expect(read.get(id)).toMatchObject({ video_id: id, status: 'creating' });
		const broken = read.get('aiv_7');
		expect(broken).toBeInstanceOf(VisionStoryError);
		expect((broken as VisionStoryError).message).toBe(
			"VisionStory's answer to getAiVideo for aiv_7: status has an unexpected type: got object",
		);
		expect((broken as VisionStoryError).videoIds).toEqual(['aiv_7']);
		// The plain batch read keeps the 19 it can read.
		expect((await client.getAiVideos({ video_ids: ids })).map((v) => v.video_id)).toEqual(
			ids.filter((_, i) => i !== 7),
		);
	});

	test('an unknown status is carried as the service wrote it; a known one in other case or spacing is read as known', async () => {
		const client = answering((request: Record<string, unknown>) => ({
			videos: String(request.video_ids)
				.split(',')
				.map((id) =>
					task(id, { status: id === 'a' ? 'moderating' : ' Created ', error: 'kept as a message' }),
				),
		}));
		const read = await client.readAiVideos(['a', 'b']);
		expect(read.get('a')).toMatchObject({ status: 'moderating' });
		expect(read.get('b')).toMatchObject({ status: 'created' });
		expect(read.get('a')).toMatchObject({ error: { message: 'kept as a message' } });
	});

	test('a required field present with another type says so, not "is missing"', async () => {
		const error = await failure(
			answering({ video_id: true, status: 'created' }).getTalkingVideo({ video_id: 'vid_1' }),
		);
		expect(error.message).toBe(
			"VisionStory's answer to getTalkingVideo: video_id has an unexpected type: got boolean",
		);
		const missing = await failure(
			answering({ status: 'created' }).getTalkingVideo({ video_id: 'vid_1' }),
		);
		expect(missing.message).toBe("VisionStory's answer to getTalkingVideo is missing video_id");
	});

	test('what the contract states is still read: a task id given as a number, cost and duration as numbers', async () => {
		const read = await answering(
			task('aiv_1', {
				duration_sec: '5',
				cost_credit: 20,
				created_at: 1764000000,
				video_url: 'https://cdn.example.com/v',
			}),
		).getAiVideo({ video_id: 'aiv_1' });
		expect(read).toMatchObject({
			video_id: 'aiv_1',
			duration_sec: 5,
			cost_credit: 20,
			created_at: 1764000000,
			video_url: 'https://cdn.example.com/v',
		});
	});
});

describe('model checks', () => {
	test('a model list that cannot be read at all skips the local checks instead of failing every item', async () => {
		const unreadable = answering({ items: [] });
		expect(await modelList(unreadable.listAiVideoModels())).toBeUndefined();
		// Other failures (the service refusing the key, the network) still end the operation.
		const refused = new VisionStoryError({ category: 'api', status: 401, message: 'Unauthorized' });
		await expect(modelList(Promise.reject(refused))).rejects.toBe(refused);
	});

	test('a model whose params could not be read is checked only for what is known: it exists', async () => {
		const models = await modelList(
			answering({
				models: [{ model_id: 'wan-2.5', params: 'see the documentation' }],
			}).listAiVideoModels(),
		);
		expect(models).toBeDefined();
		const known = findModel(models!, 'wan-2.5');
		expect(known).toHaveProperty('model');
		if ('model' in known)
			expect(
				allowedValue(known.model.params?.duration_sec, 'duration', 7, known.model.model_id),
			).toBeUndefined();
		expect(findModel(models!, 'unknown-model')).toEqual({
			issue: {
				field: 'model_id',
				message: expect.stringMatching(/"unknown-model" is not a model; available: wan-2.5/),
			},
		});
	});
});

describe('waiting on 20 AI videos', () => {
	test('one task the client cannot read holds only its own item, which ends at its Timeout naming the unreadable answer and its id; the other 19 finish', async () => {
		let submitted = 0;
		const exchange = {
			send: async (name: string, _spec: unknown, request: Record<string, unknown>) => {
				if (name === 'createAiVideo') return { video_id: `aiv_${submitted++}` };
				const ids = String(request.video_ids).split(',');
				return {
					videos: ids.map((id) =>
						id === 'aiv_7'
							? { video_id: id, status: ['created'] }
							: {
									video_id: id,
									status: 'created',
									cost_credit: 10,
									video_url: `https://cdn.example.com/${id}`,
								},
					),
				};
			},
			sleep: async () => undefined,
		};
		// The client the nodes hand `runTasks`, with no cap and no floor: it sends as the plain client does.
		const client = new SpendingClient(
			new VisionStoryClient(exchange as unknown as Exchange),
			new SpendLedger(),
			{},
		);
		// Each item with its own key, as the nodes give them: one key would be one video for all.
		// A read error proves nothing about a task (issue 38): the unreadable one is read until its Timeout.
		const jobs = Array.from({ length: 20 }, (_, i) => ({
			request: client.validate('createAiVideo', { model_id: 'wan-2.5', prompt: 'x' }),
			call: { idempotencyContext: `lenient:${i}` },
			timeoutMs: i === 7 ? 300 : 60_000,
		}));
		const outcomes = await runTasks(client, 'aiVideo', jobs, {
			waitForCompletion: true,
			pollIntervalMs: 1,
			atLimit: 'queue',
		});
		expect(outcomes.filter((o) => o.ok)).toHaveLength(19);
		const failed = outcomes[7];
		expect(failed.ok).toBe(false);
		const error = (failed as { error: VisionStoryError }).error;
		expect(error.category).toBe('timeout');
		expect(error.message).toContain(
			"the last status reads failed (VisionStory's answer to getAiVideo for aiv_7: status has an unexpected type: got array)",
		);
		expect(error.videoIds).toEqual(['aiv_7']);
		expect(error.idempotencyKey).toMatch(/^n8n-/);
	});
});
