import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { createUndiciClient } from '../support/undiciTransport';
import { failure } from '../support/failure';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40, maxAttempts: 5 };

function media(name: string): string {
	return readFileSync(join(__dirname, '../emulator/media', name)).toString('base64');
}

let emu: Emulator;
let client: VisionStoryClient;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 60_000 });
	client = createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl, retry: FAST_RETRY });
});
afterAll(async () => await emu.stop());
beforeEach(() => emu.reset());

describe('every operation succeeds against the emulator', () => {
	test('talking video: create, get, list, models, delete', async () => {
		const { avatars } = await client.listAvatars({ is_public: true, limit: 1 });
		const created = await client.createTalkingVideo({
			avatar_id: avatars[0].avatar_id,
			text_script: { text: 'Hello from the client test', voice_id: 'Alice', speech_rate: 'fast' },
			aspect_ratio: '16:9',
			resolution: '1080p',
			background_color: '#112233',
		});
		expect(created.video_id).toEqual(expect.any(String));
		const task = await client.getTalkingVideo({ video_id: created.video_id });
		expect(task).toMatchObject({
			video_id: created.video_id,
			status: 'queued',
			aspect_ratio: '16:9',
		});
		emu.advance(61_000);
		expect((await client.getTalkingVideo({ video_id: created.video_id })).status).toBe('created');
		const page = await client.listTalkingVideos({ limit: 10 });
		expect(page.videos.map((v) => v.video_id)).toContain(created.video_id);
		const { models } = await client.listTalkingVideoModels();
		expect(models.map((m) => m.model_id)).toContain('vs_character_v4');
		expect(await client.deleteTalkingVideo({ video_id: created.video_id })).toMatchObject({
			deleted: true,
		});
	});

	test('talking video from an inline audio script', async () => {
		const { avatars } = await client.listAvatars({ is_public: true, limit: 1 });
		const created = await client.createTalkingVideo({
			avatar_id: avatars[0].avatar_id,
			audio_script: {
				inline_data: { data: media('sample.mp3'), mime_type: 'audio/mpeg' },
				denoise: true,
			},
		});
		expect(emu.tasks().map((t) => t.video_id)).toEqual([created.video_id]);
	});

	test('AI video: models, estimate, create, get one and many, list by status, delete', async () => {
		const { models } = await client.listAiVideoModels();
		expect(models.length).toBeGreaterThan(0);
		const model = models[0];
		const duration = Number(model.params?.duration_sec?.values?.[0]);
		const estimate = await client.estimateAiVideoCost({
			model_id: model.model_id,
			duration_sec: duration,
		});
		expect(estimate.credit).toBeGreaterThan(0);
		const a = await client.createAiVideo({
			model_id: model.model_id,
			prompt: 'A red kite over the sea',
			duration_sec: duration,
		});
		const b = await client.createAiVideo({
			model_id: model.model_id,
			prompt: 'The same kite at dusk',
			first_frame: { inline_data: { data: media('sample.png'), mime_type: 'image/png' } },
		});
		expect((await client.getAiVideo({ video_id: a.video_id })).video_id).toBe(a.video_id);
		const batch = await client.getAiVideos({ video_ids: [a.video_id, b.video_id, 'missing-id'] });
		expect(batch.map((v) => v.video_id).sort()).toEqual([a.video_id, b.video_id].sort());
		const inFlight = await client.listAiVideos({ status: ['queued', 'creating'] });
		expect(inFlight.videos).toHaveLength(2);
		expect(await client.deleteAiVideo({ video_id: a.video_id })).toMatchObject({ deleted: true });
	});

	test('image: models and generate with a reference', async () => {
		const { models } = await client.listImageModels();
		const model = models.find((m) => m.model_id === 'nano-banana-2') ?? models[0];
		expect(model.credit_by_resolution).toBeDefined();
		const image = await client.generateImage({
			model_id: model.model_id,
			prompt: 'A product shot of a blue bottle',
			refs: [{ inline_data: { data: media('sample.png'), mime_type: 'image/png' } }],
		});
		expect(image.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
		expect(image.cost_credit).toBeGreaterThan(0);
	});

	test('speech: TTS returns MP3 bytes and its headers; align and transcribe give word timings', async () => {
		const audio = await client.synthesizeSpeech({
			text: 'Hello world',
			voice_id: 'Alice',
			speech_rate: 'slow',
		});
		const chunks: Buffer[] = [];
		for await (const chunk of audio.stream) chunks.push(Buffer.from(chunk as Uint8Array));
		const mp3 = Buffer.concat(chunks);
		expect(mp3.length).toBeGreaterThan(100);
		expect(mp3.subarray(0, 3).toString('latin1') === 'ID3' || mp3[0] === 0xff).toBe(true);
		expect(audio.mimeType).toBe('audio/mpeg');
		expect(audio.metadata).toMatchObject({ characters: 11, cost_credit: 2 });
		expect(audio.metadata.duration_sec).toBeGreaterThan(0);

		const aligned = await client.alignAudio({
			audio: { inline_data: { data: media('sample.mp3'), mime_type: 'audio/mpeg' } },
			text: 'Hello world',
		});
		expect(aligned.words.map((w) => w.text)).toEqual(['Hello', 'world']);
		const transcript = await client.transcribeAudio({
			audio: { inline_data: { data: media('sample.wav'), mime_type: 'audio/wav' } },
			diarize: true,
			srt: true,
		});
		expect(transcript.srt).toMatch(/^1\r?\n00:00:00,000 --> /);
		expect(transcript.words?.[0]?.speaker).toEqual(expect.any(String));
	});

	test('avatars: create, list own and public, reframe, delete', async () => {
		const avatar = await client.createAvatar({
			inline_data: { data: media('sample.png'), mime_type: 'image/png' },
		});
		expect(avatar.framing).toHaveLength(3);
		const own = await client.listAvatars({ limit: 100 });
		expect(own.avatars.map((a) => a.avatar_id)).toContain(avatar.avatar_id);
		const publicPage = await client.listAvatars({ is_public: true, limit: 5 });
		expect(publicPage.avatars).toHaveLength(5);
		expect(publicPage.next_cursor).toBeGreaterThan(0);
		const framed = await client.updateAvatarFraming({
			avatar_id: avatar.avatar_id,
			aspect_ratio: '1:1',
			zoom: 1.5,
			offset_x: 0.2,
			offset_y: -0.1,
		});
		expect(framed).toMatchObject({ avatar_id: avatar.avatar_id, aspect_ratio: '1:1', zoom: 1.5 });
		expect(await client.deleteAvatar({ avatar_id: avatar.avatar_id })).toMatchObject({
			deleted: true,
		});
	});

	test('voices: list with filters, clone, delete', async () => {
		const british = await client.listVoices({ locale: 'en-GB' });
		expect(british.public_voices.length).toBeGreaterThan(0);
		expect(british.public_voices.every((v) => v.locale?.toLowerCase() === 'en-gb')).toBe(true);
		const cloned = await client.cloneVoice({
			inline_data: { data: media('sample.mp3'), mime_type: 'audio/mpeg' },
			preview_text: 'Hi there',
		});
		expect(cloned.voice_id).toEqual(expect.any(String));
		const mine = await client.listVoices({ limit: 10 });
		expect(mine.my_voices.map((v) => v.voice_id)).toContain(cloned.voice_id);
		expect(await client.deleteVoice({ voice_id: cloned.voice_id })).toMatchObject({
			deleted: true,
		});
	});

	test('media understanding follows the schema', async () => {
		const result = await client.understandMedia({
			inputs: [
				{ inline_data: { data: media('sample.png'), mime_type: 'image/png' } },
				{ url: `${emu.mediaBaseUrl}/media/sample.mp3` },
			],
			prompt: 'Describe the mood',
			schema: {
				type: 'object',
				properties: { mood: { type: 'string', enum: ['happy', 'sad'] } },
				required: ['mood'],
			},
		});
		expect(result.output).toEqual({ mood: 'happy' });
		expect(result.cost_credit).toBeGreaterThanOrEqual(1);
	});

	test('assets: upload (deduplicated), list by kind, delete; credits', async () => {
		const first = await client.uploadAsset({
			inline_data: { data: media('sample.png'), mime_type: 'image/png' },
		});
		const again = await client.uploadAsset({
			inline_data: { data: media('sample.png'), mime_type: 'image/png' },
		});
		expect(again.asset_id).toBe(first.asset_id);
		expect(first.kind).toBe('image');
		const images = await client.listAssets({ kind: 'image' });
		expect(images.assets.map((a) => a.asset_id)).toEqual([first.asset_id]);
		expect(await client.deleteAsset({ asset_id: first.asset_id })).toMatchObject({ deleted: true });
		const credits = await client.getCredits();
		expect(credits.credits).toBe(emu.balance());
	});
});

describe('errors', () => {
	test('401 names the credential and never shows the key', async () => {
		const wrongKey = 'sk-vs-this-is-not-a-real-key-123456';
		const stranger = createUndiciClient(wrongKey, { baseUrl: emu.baseUrl, retry: FAST_RETRY });
		const error = await failure(stranger.getCredits());
		expect(error).toMatchObject({ category: 'api', status: 401 });
		expect(error.hint).toMatch(/API key/);
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain(wrongKey);
	});

	test('404 for an unknown video', async () => {
		const error = await failure(client.getTalkingVideo({ video_id: 'does-not-exist' }));
		expect(error).toMatchObject({ status: 404 });
		expect(error.hint).toMatch(/id/);
	});

	test('422 per-field details from the service are surfaced as an object', async () => {
		const { models } = await client.listAiVideoModels();
		const error = await failure(
			client.createAiVideo({ model_id: models[0].model_id, prompt: 'x', duration_sec: 999 }),
		);
		expect(error.status).toBe(422);
		expect(error.details).toEqual(expect.objectContaining({ duration_sec: expect.any(String) }));
		expect(emu.tasks()).toHaveLength(0);
	});

	test('402 insufficient credits carries the top-up hint and creates nothing', async () => {
		emu.addAccount('sk-vs-poor-account-000000000001', 0);
		const poor = createUndiciClient('sk-vs-poor-account-000000000001', {
			baseUrl: emu.baseUrl,
			retry: FAST_RETRY,
		});
		const { avatars } = await client.listAvatars({ is_public: true, limit: 1 });
		const error = await failure(
			poor.createTalkingVideo({
				avatar_id: avatars[0].avatar_id,
				text_script: { text: 'hi', voice_id: 'Alice' },
			}),
		);
		expect(error.status).toBe(402);
		expect(error.hint).toMatch(/https?:\/\//);
		expect(emu.tasks('sk-vs-poor-account-000000000001')).toHaveLength(0);
	});

	test('409 (still registering) is retried with the same key until the original task comes back', async () => {
		const { avatars } = await client.listAvatars({ is_public: true, limit: 1 });
		emu.setFaults({
			failNext: [{ method: 'POST', path: '/api/v1/video', kind: 'http409', count: 2 }],
		});
		const created = await client.createTalkingVideo({
			avatar_id: avatars[0].avatar_id,
			text_script: { text: 'hi', voice_id: 'Alice' },
		});
		expect(emu.requests({ method: 'POST', path: '/api/v1/video' }).map((r) => r.status)).toEqual([
			409, 409, 200,
		]);
		expect(emu.tasks().map((t) => t.video_id)).toEqual([created.video_id]);
	});

	test.each([false, true])(
		'429 concurrency details are read whether object or string (string: %s)',
		async (asString) => {
			emu.setConfig({ aiConcurrencyCap: 1, concurrencyDetailsAsString: asString });
			const { models } = await client.listAiVideoModels();
			await client.createAiVideo({ model_id: models[0].model_id, prompt: 'first' });
			const error = await failure(
				client.createAiVideo({ model_id: models[0].model_id, prompt: 'second' }),
			);
			expect(error.isConcurrencyLimit).toBe(true);
			expect(error.concurrency).toEqual({ limit: 1, inFlight: 1 });
			// Concurrency refusals are left to the waiting layer: the exchange sent the second create once.
			expect(emu.requests({ method: 'POST', path: '/api/v1/ai_video' })).toHaveLength(2);
		},
	);

	test('5xx and resets on reads are retried to success', async () => {
		emu.setFaults({
			failNext: [
				{ path: '/api/v1/billing/credits', kind: 'http500' },
				{ path: '/api/v1/billing/credits', kind: 'http503' },
				{ path: '/api/v1/billing/credits', kind: 'resetBefore' },
			],
		});
		const credits = await client.getCredits();
		expect(credits.credits).toEqual(expect.any(Number));
		expect(emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.outcome)).toEqual([
			'answered',
			'answered',
			'reset',
			'answered',
		]);
	});

	test('retries are bounded', async () => {
		emu.setFaults({ failNext: [{ path: '/api/v1/billing/credits', kind: 'http500', count: 50 }] });
		const error = await failure(client.getCredits());
		expect(error.status).toBe(500);
		expect(emu.requests({ path: '/api/v1/billing/credits' })).toHaveLength(FAST_RETRY.maxAttempts);
	});

	test('a charged synchronous call is not resent after a reset', async () => {
		emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/image', kind: 'resetAfter' }] });
		const error = await failure(
			client.generateImage({ model_id: 'nano-banana-2', prompt: 'A lighthouse' }),
		);
		expect(error.category).toBe('network');
		expect(error.hint).toMatch(/not sent again/);
		expect(emu.requests({ method: 'POST', path: '/api/v1/image' })).toHaveLength(1);
		expect(emu.ledger().filter((e) => e.operation.includes('image'))).toHaveLength(1);
	});

	test('a create resent after a reset creates one task and one charge', async () => {
		const { avatars } = await client.listAvatars({ is_public: true, limit: 1 });
		emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/video', kind: 'resetAfter' }] });
		const created = await client.createTalkingVideo(
			{ avatar_id: avatars[0].avatar_id, text_script: { text: 'Only once', voice_id: 'Alice' } },
			{ idempotencyContext: 'execution-1:node:0:0' },
		);
		expect(emu.requests({ method: 'POST', path: '/api/v1/video' })).toHaveLength(2);
		expect(emu.tasks().map((t) => t.video_id)).toEqual([created.video_id]);
		expect(emu.tasks()[0].client_request_id).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(1);
	});

	test('bad input is rejected before anything is sent, naming the field', async () => {
		const error = await failure(
			client.synthesizeSpeech({ text: 'x'.repeat(3001), voice_id: 'Alice' }),
		);
		expect(error.category).toBe('validation');
		expect(error.issues?.[0].field).toBe('text');
		expect(emu.requests({ path: '/api/v1/tts' })).toHaveLength(0);
	});
});

describe('downloads', () => {
	test('a 200 MiB download streams with flat memory', async () => {
		const bytes = 200 * 1024 * 1024;
		global.gc?.();
		const before = process.memoryUsage().rss;
		let peak = before;
		const download = await client.download(
			`${emu.mediaBaseUrl}/media/blob?bytes=${bytes}&type=video/mp4`,
		);
		expect(download.contentLength).toBe(bytes);
		let received = 0;
		for await (const chunk of download.stream) {
			received += (chunk as Uint8Array).length;
			if ((received & 0xfffff) < 65536) peak = Math.max(peak, process.memoryUsage().rss);
		}
		expect(received).toBe(bytes);
		expect((peak - before) / 1024 / 1024).toBeLessThan(64);
	});

	test('a failed download reads its error body with the same parser: a file host HTML page, an API envelope', async () => {
		emu.setFaults({
			failNext: [
				{
					origin: 'media',
					path: '/media/sample.png',
					kind: 'respond',
					respond: {
						status: 403,
						headers: { 'Content-Type': 'text/html' },
						body: '<html><title>Access Denied</title></html>',
					},
				},
			],
		});
		const denied = await failure(client.download(`${emu.mediaBaseUrl}/media/sample.png`));
		expect(denied).toMatchObject({
			status: 403,
			message:
				'The file could not be downloaded: the file host answered HTTP 403 with an HTML page instead of the file ("Access Denied")',
		});
		// The result was made (and maybe charged): never "nothing was charged" for a file that could not be fetched.
		expect(denied.hint).toBe(
			"The file's link may have expired or not be reachable from n8n; the result itself is not affected. For a video, Get with its ID gives a fresh link.",
		);
		emu.setFaults({
			failNext: [
				{
					path: '/files/gone.mp4',
					kind: 'respond',
					respond: {
						status: 404,
						body: {
							error: { code: 404, message: 'Video expired', hint: 'Videos are kept 7 days' },
						},
					},
				},
			],
		});
		const expired = await failure(client.download(`${emu.baseUrl}/files/gone.mp4`));
		expect(expired).toMatchObject({
			status: 404,
			message: 'The file could not be downloaded: Video expired',
			hint: 'Videos are kept 7 days',
		});
	});

	test('downloads from the media origin carry no API key; the API origin gets it', async () => {
		const download = await client.download(`${emu.mediaBaseUrl}/media/sample.png`);
		for await (const _ of download.stream) void _;
		expect(download.mimeType).toBe('image/png');
		const mediaRequests = emu.requests({ origin: 'media' });
		expect(mediaRequests).toHaveLength(1);
		expect(mediaRequests[0].apiKey).toBe('absent');
		await client.getCredits();
		expect(emu.requests({ origin: 'api', path: '/api/v1/billing/credits' })[0].apiKey).toBe(
			'valid',
		);
	});
});
