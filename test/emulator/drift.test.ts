import { request } from 'undici';

import { MODERATING_MS } from './drift';
import { startEmulator, type Emulator } from './index';
import { api, fixture, inline, TEXT_SCRIPT } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 10_000 });
});
afterAll(async () => await emu.stop());
beforeEach(() => {
	emu.reset();
	emu.setConfig({ drift: true });
});

describe('drift mode', () => {
	test('is off by default and after a reset', async () => {
		emu.reset();
		expect(emu.config()).toMatchObject({ drift: false, driftErrors: false });
		const credits = await api(emu, 'GET', '/api/v1/billing/credits');
		expect(credits.body.data).toEqual({ credits: 10_000, plan: 'pro' });
		expect(Object.keys(credits.body).sort()).toEqual(['data', 'message', 'server_time']);
	});

	test('can be turned on over /__emulator/config', async () => {
		emu.reset();
		const set = await api(emu, 'POST', '/__emulator/config', {
			body: { drift: true, driftErrors: true },
		});
		expect(set.body).toMatchObject({ drift: true, driftErrors: true });
		expect(emu.config()).toMatchObject({ drift: true, driftErrors: true });
	});

	test('adds unknown fields to the envelope and to every object of the data', async () => {
		const answer = await api(emu, 'GET', '/api/v1/avatars', {
			query: { is_public: true, limit: 2 },
		});
		expect(answer.body.request_id).toEqual(expect.any(String));
		expect(answer.body.data.beta).toEqual(expect.any(Object));
		expect(answer.body.data.x_drift_note).toEqual(expect.any(String));
		for (const avatar of answer.body.data.avatars)
			expect(avatar.x_drift_note).toEqual(expect.any(String));
	});

	test('guessed answers carry numbers as numeric strings, in turn', async () => {
		const credits = (await api(emu, 'GET', '/api/v1/billing/credits')).body.data;
		const models = (await api(emu, 'GET', '/api/v1/image/models')).body.data.models;
		const numbers = [
			credits.credits,
			...models.map((m: { credit_per_image: unknown }) => m.credit_per_image),
		];
		expect(numbers.some((n) => typeof n === 'string' && /^\d+$/.test(n))).toBe(true);
	});

	test('model lists have odd entries: booleans among values, null defaults and prices, unknown kinds, no params', async () => {
		const image = (await api(emu, 'GET', '/api/v1/image/models')).body.data.models;
		expect(image[0].params.resolution.values).toContain(true);
		expect(image[0].params.resolution.default).toBeNull();
		expect(Object.values(image[0].credit_by_resolution)).toContain(null);
		expect(image[0].params.seed).toMatchObject({ kind: 'integer_range' });
		expect(image[1].params).toBeUndefined();
		const ai = (await api(emu, 'GET', '/api/v1/ai_video/models')).body.data.models;
		expect(ai[1].params).toBeUndefined();
		expect(ai[3].params).toBe('see the documentation');
		expect(ai[2].params.resolution.values).toEqual(expect.arrayContaining([false, null]));
		const talking = (await api(emu, 'GET', '/api/v1/models')).body.data.models;
		expect(typeof talking[1].resolutions).toBe('string');
		expect(typeof talking[0].is_default).toBe('string');
	});

	test('a finished task shows the unknown status "moderating" before its real one, with links without an extension', async () => {
		const created = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'wan-2.5', prompt: 'A calm lake' },
		});
		const id = created.body.data.video_id;
		emu.advance(10_000);
		const moderating = (await api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: id } })).body
			.data;
		expect(moderating.status).toBe('moderating');
		expect(moderating.video_url ?? null).toBeNull();
		emu.advance(MODERATING_MS);
		const batch = (await api(emu, 'GET', '/api/v1/ai_video', { query: { video_ids: id } })).body
			.data.videos;
		expect(batch[0].status).toBe('created');
		expect(batch[0].video_url).toMatch(/\/media\/videos\/[^/.]+$/);
		const file = await request(batch[0].video_url);
		expect(file.statusCode).toBe(200);
		expect(file.headers['content-type']).toBe('application/octet-stream');
		expect(Buffer.from(await file.body.arrayBuffer()).equals(fixture('sample.mp4'))).toBe(true);
	});

	test('"not shown" parts come as null, absent or empty string', async () => {
		const shapes = new Set<string>();
		for (let i = 0; i < 4; i++) {
			const created = await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			});
			const task = (
				await api(emu, 'GET', '/api/v1/video', { query: { video_id: created.body.data.video_id } })
			).body.data;
			shapes.add(
				!('video_url' in task)
					? 'absent'
					: task.video_url === null
						? 'null'
						: JSON.stringify(task.video_url),
			);
		}
		expect([...shapes].sort()).toEqual(['absent', 'null']);
	});

	test('a 402 with a top-up hint on every charged endpoint when credits run out', async () => {
		const key = 'sk-vs-drift-poor-4444';
		emu.addAccount(key, 0);
		const calls: Array<[string, unknown]> = [
			['/api/v1/video', { avatar_id: 'public_anna', text_script: TEXT_SCRIPT }],
			['/api/v1/ai_video', { model_id: 'wan-2.5', prompt: 'x' }],
			['/api/v1/image', { model_id: 'nano-banana-2', prompt: 'x' }],
			['/api/v1/tts', { text: 'Hello', voice_id: 'Echo' }],
			[
				'/api/v1/audio/align',
				{ audio: { inline_data: inline('sample.wav', 'audio/wav') }, text: 'Hello' },
			],
			['/api/v1/audio/transcribe', { audio: { inline_data: inline('sample.wav', 'audio/wav') } }],
			[
				'/api/v1/media/understand',
				{
					inputs: [{ inline_data: inline('sample.png', 'image/png') }],
					prompt: 'What is it?',
					schema: { type: 'object' },
				},
			],
		];
		for (const [path, body] of calls) {
			const answer = await api(emu, 'POST', path, { key, body });
			expect([path, answer.status]).toEqual([path, 402]);
			expect(answer.body.error.hint).toMatch(/^Top up credits at https:\/\//);
		}
		expect(emu.ledger(key)).toEqual([]);
	});

	describe('with driftErrors', () => {
		beforeEach(() => emu.setConfig({ driftErrors: true }));

		test('the first GET of a path gets a proxy HTML 502, the second an empty 503, then answers come', async () => {
			const first = await api(emu, 'GET', '/api/v1/billing/credits');
			expect(first.status).toBe(502);
			expect(first.headers['content-type']).toMatch(/^text\/html/);
			expect(first.raw.toString()).toMatch(/<h1>502 Bad Gateway<\/h1>/);
			const second = await api(emu, 'GET', '/api/v1/billing/credits');
			expect(second.status).toBe(503);
			expect(second.raw.length).toBe(0);
			expect((await api(emu, 'GET', '/api/v1/billing/credits')).status).toBe(200);
			expect(emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.status)).toEqual([
				502, 503, 200,
			]);
		});

		test('422 details come as an array, then as a JSON string of an array, with a null hint', async () => {
			const bad = { avatar_id: 'public_anna', text_script: TEXT_SCRIPT, background_color: 'green' };
			const first = await api(emu, 'POST', '/api/v1/video', { body: bad });
			expect(first.status).toBe(422);
			expect(first.body.error.hint).toBeNull();
			expect(first.body.error.details).toEqual([
				{ loc: ['body', 'background_color'], msg: expect.any(String), type: 'value_error' },
			]);
			const second = await api(emu, 'POST', '/api/v1/video', { body: bad });
			expect(JSON.parse(second.body.error.details)).toEqual(first.body.error.details);
		});

		test('a 401 is plain text', async () => {
			const answer = await api(emu, 'POST', '/api/v1/video', { key: 'sk-vs-nobody', body: {} });
			expect(answer.status).toBe(401);
			expect(answer.headers['content-type']).toMatch(/^text\/plain/);
			expect(answer.raw.toString()).toMatch(/Unauthorized/);
		});
	});
});
