import { request } from 'undici';
import { startEmulator, type Emulator } from './index';
import { apiRoutes } from './routes';
import { api, fieldErrors, fixture, inline, TEXT_SCRIPT } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 1000, queueMs: 200 });
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

describe('envelopes and auth', () => {
	test('success envelope carries data, message and an ISO server_time from the emulator clock', async () => {
		const r = await api(emu, 'GET', '/api/v1/billing/credits');
		expect(r.status).toBe(200);
		expect(r.body).toEqual({
			data: { credits: 10000, plan: 'pro' },
			message: 'success',
			server_time: new Date(emu.now()).toISOString(),
		});
	});

	test('a missing or unknown key is a 401 in the error envelope, and the log keeps no key', async () => {
		const absent = await api(emu, 'GET', '/api/v1/voices', { key: null });
		const wrong = await api(emu, 'GET', '/api/v1/voices', { key: 'sk-vs-not-a-real-key-123' });
		for (const r of [absent, wrong]) {
			expect(r.status).toBe(401);
			expect(r.body.error.code).toBe(401);
			expect(typeof r.body.error.message).toBe('string');
		}
		const log = emu.requests({ origin: 'api' });
		expect(log.map((e) => e.apiKey)).toEqual(['absent', 'invalid']);
		expect(JSON.stringify(log)).not.toContain('sk-vs-not-a-real-key-123');
		expect(JSON.stringify(log)).not.toContain(emu.apiKey);
	});

	test('unknown endpoints are 404 and wrong methods 405', async () => {
		expect((await api(emu, 'GET', '/api/v1/nope')).status).toBe(404);
		const r = await api(emu, 'PUT', '/api/v1/video');
		expect(r.status).toBe(405);
		expect(r.headers.allow).toContain('POST');
	});

	test('a body that is not JSON is a 422 naming the body', async () => {
		const r = await api(emu, 'POST', '/api/v1/video', { body: '{not json' });
		expect(fieldErrors(r)).toEqual({ body: 'must be valid JSON' });
	});
});

test('the route table holds the 28 operations, each once', () => {
	const names = apiRoutes.map((r) => `${r.method} ${r.path}`);
	expect(names).toHaveLength(28);
	expect(new Set(names).size).toBe(28);
});

describe('model lists', () => {
	test('talking, AI video and image models have the README shapes', async () => {
		const talking = (await api(emu, 'GET', '/api/v1/models')).body.data.models;
		expect(talking.map((m: any) => m.model_id)).toEqual(['vs_character_v4', 'vs_character_v3']);
		expect(talking[0]).toMatchObject({
			is_default: true,
			resolutions: ['720p', '1080p', '2k'],
			default_resolution: '720p',
		});

		const ai = (await api(emu, 'GET', '/api/v1/ai_video/models')).body.data.models;
		expect(ai.map((m: any) => m.model_id)).toEqual([
			'seedance-1.0-pro',
			'wan-2.5',
			'kling-3.0',
			'kling-3.0-omni',
		]);
		const wan = ai.find((m: any) => m.model_id === 'wan-2.5');
		expect(wan.params.duration_sec.values).toEqual(Array.from({ length: 29 }, (_, i) => i + 2));
		expect(wan.params.prompt.max_length).toBe(20000);
		expect(ai.find((m: any) => m.model_id === 'kling-3.0').params.resolution.values).toContain(
			'4k',
		);
		expect(
			ai.find((m: any) => m.model_id === 'kling-3.0-omni').params.resolution.values,
		).not.toContain('4k');

		const images = (await api(emu, 'GET', '/api/v1/image/models')).body.data.models;
		expect(images).toHaveLength(7);
		expect(new Set(images.map((m: any) => m.params.refs.max))).toEqual(new Set([4, 6, 10, 14]));
		for (const m of images)
			expect(m.credit_per_image).toBe(m.credit_by_resolution[m.params.resolution.default]);
	});
});

describe('talking video', () => {
	test('create, poll through the states, download from the media origin', async () => {
		const created = await api(emu, 'POST', '/api/v1/video', {
			body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT, resolution: '1080p' },
		});
		expect(created.status).toBe(200);
		const id = created.body.data.video_id;
		const poll = async (): Promise<any> =>
			(await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).body.data;
		expect(await poll()).toMatchObject({
			video_id: id,
			status: 'queued',
			model_id: 'vs_character_v4',
			aspect_ratio: '9:16',
			resolution: '1080p',
			cost_credit: 20,
			video_url: null,
		});
		emu.advance(200);
		expect((await poll()).status).toBe('creating');
		emu.advance(800);
		const done = await poll();
		expect(done.status).toBe('created');
		expect(done.video_url).toBe(`${emu.mediaBaseUrl}/media/videos/${id}.mp4`);
		const media = await request(done.video_url);
		expect(media.statusCode).toBe(200);
		expect(Buffer.from(await media.body.arrayBuffer()).equals(fixture('sample.mp4'))).toBe(true);
		expect(emu.balance()).toBe(10000 - 20);
	});

	test('contract violations come back together as a JSON string of per-field errors', async () => {
		const r = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				text_script: { text: '  ', voice_id: 'Alice', speech_rate: 'warp' },
				aspect_ratio: '4:3',
				emotion: 'sleepy',
				background_color: '#12345',
				client_request_id: '-starts-with-dash',
			},
		});
		expect(r.body.error.code).toBe(422);
		expect(fieldErrors(r)).toEqual({
			'text_script.text': 'must not be empty',
			'text_script.speech_rate': 'must be one of slow, normal, fast',
			aspect_ratio: 'must be one of 9:16, 16:9, 1:1',
			emotion: 'must be one of cheerful, angry, marketing, news, singing',
			background_color: 'must be a 6-digit hex colour like #1A2B3C',
			client_request_id: 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
		});
		expect(emu.tasks()).toEqual([]);
	});

	test('exactly one script; audio scripts take the talking-video MIME list; voice_change needs a voice', async () => {
		const both = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				text_script: TEXT_SCRIPT,
				audio_script: { audio_url: 'https://example.com/a.mp3' },
			},
		});
		expect(fieldErrors(both).text_script).toMatch(/exactly one of text_script, audio_script/);

		const wrongMime = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { inline_data: inline('sample.mp4', 'video/mp4') },
			},
		});
		expect(fieldErrors(wrongMime)['audio_script.inline_data.mime_type']).toMatch(
			/video\/mp4 is not accepted/,
		);

		const noVoice = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { inline_data: inline('sample.wav', 'audio/wav'), voice_change: true },
			},
		});
		expect(fieldErrors(noVoice)).toEqual({ 'audio_script.voice_id': 'is required' });

		const badBase64 = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: {
					inline_data: { data: 'data:audio/wav;base64,AAAA', mime_type: 'audio/wav' },
				},
			},
		});
		expect(fieldErrors(badBase64)['audio_script.inline_data.data']).toMatch(/data: URI prefix/);

		const ok = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { inline_data: inline('sample.mp3', 'audio/mp4') },
			},
		});
		expect(ok.status).toBe(200);
	});

	test('a loopback audio_url that 404s is a 422 naming the field; other hosts are not fetched', async () => {
		const missing = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { audio_url: `${emu.mediaBaseUrl}/media/nothing-here.mp3` },
			},
		});
		expect(fieldErrors(missing)['audio_script.audio_url']).toBe('could not be fetched: HTTP 404');
		const present = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { audio_url: `${emu.mediaBaseUrl}/media/sample.mp3` },
			},
		});
		expect(present.status).toBe(200);
		const remote = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				audio_script: { audio_url: 'https://cdn.example.com/voice.mp3' },
			},
		});
		expect(remote.status).toBe(200);
	});

	test('model and resolution rules: v3 has no 2k; 480p and retired models render and bill as v4 720p', async () => {
		const v3 = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				text_script: TEXT_SCRIPT,
				model_id: 'vs_character_v3',
				resolution: '2k',
			},
		});
		expect(fieldErrors(v3)).toEqual({ resolution: 'vs_character_v3 supports 720p, 1080p' });
		const old = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: 'public_anna',
				text_script: TEXT_SCRIPT,
				model_id: 'vs_talk_v1',
				resolution: '480p',
			},
		});
		const task = (
			await api(emu, 'GET', '/api/v1/video', { query: { video_id: old.body.data.video_id } })
		).body.data;
		expect(task).toMatchObject({
			model_id: 'vs_character_v4',
			resolution: '720p',
			cost_credit: 10,
		});
	});

	test('unknown avatar, voice and video ids are 404; deletes are idempotent', async () => {
		const noAvatar = await api(emu, 'POST', '/api/v1/video', {
			body: { avatar_id: 'nobody', text_script: TEXT_SCRIPT },
		});
		expect(noAvatar.status).toBe(404);
		expect(noAvatar.body.error.code).toBe(404);
		const noVoice = await api(emu, 'POST', '/api/v1/video', {
			body: { avatar_id: 'public_anna', text_script: { text: 'hi', voice_id: 'nope' } },
		});
		expect(noVoice.status).toBe(404);
		expect(
			(await api(emu, 'GET', '/api/v1/video', { query: { video_id: 'vid_missing' } })).status,
		).toBe(404);
		expect(fieldErrors(await api(emu, 'GET', '/api/v1/video'))).toEqual({
			video_id: 'is required',
		});

		const id = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		emu.advance(1000);
		for (let i = 0; i < 2; i++) {
			const del = await api(emu, 'DELETE', '/api/v1/video', { query: { video_id: id } });
			expect(del.body.data).toEqual({ deleted: true });
		}
		expect((await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).status).toBe(404);
		expect((await request(`${emu.mediaBaseUrl}/media/videos/${id}.mp4`)).statusCode).toBe(404);
	});

	test('GET /videos lists newest first, filters by status, and rejects unknown statuses with 400', async () => {
		const first = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		emu.advance(1000);
		const second = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		const all = (await api(emu, 'GET', '/api/v1/videos')).body.data;
		expect(all.videos.map((v: any) => v.video_id)).toEqual([second, first]);
		expect(all.next_cursor).toBe(0);
		const created = (await api(emu, 'GET', '/api/v1/videos', { query: { status: 'created' } })).body
			.data;
		expect(created.videos.map((v: any) => v.video_id)).toEqual([first]);
		const bad = await api(emu, 'GET', '/api/v1/videos', { query: { status: 'created,done' } });
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toContain('"done"');
		expect(fieldErrors(await api(emu, 'GET', '/api/v1/videos', { query: { limit: 101 } }))).toEqual(
			{ limit: 'must be between 1 and 100' },
		);
	});

	test('a [fail] script ends failed with cost 0 and the charge refunded in the ledger', async () => {
		const id = (
			await api(emu, 'POST', '/api/v1/video', {
				body: {
					avatar_id: 'public_anna',
					text_script: { text: 'please [fail] now', voice_id: 'Alice' },
				},
			})
		).body.data.video_id;
		const submittedAt = emu.now();
		emu.advance(1000);
		const task = (await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).body.data;
		expect(task).toMatchObject({ status: 'failed', cost_credit: 0, video_url: null });
		expect(
			emu.ledger().map(({ kind, credits, refId, at }) => ({ kind, credits, refId, at })),
		).toEqual([
			{ kind: 'charge', credits: 10, refId: id, at: submittedAt },
			{ kind: 'refund', credits: 10, refId: id, at: submittedAt + 1000 },
		]);
		expect(emu.balance()).toBe(10000);
	});
});

describe('AI video', () => {
	test('defaults come from the model entry and the cost estimate equals the charge', async () => {
		const cost = await api(emu, 'GET', '/api/v1/ai_video/cost', {
			query: { model_id: 'kling-3.0', duration_sec: 10, generate_audio: true },
		});
		expect(cost.body.data).toEqual({ credit: 80 });
		const r = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'kling-3.0', prompt: 'a fox in the snow', duration_sec: 10 },
		});
		expect(Object.keys(r.body.data)).toEqual(['video_id']);
		const task = (
			await api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: r.body.data.video_id } })
		).body.data;
		expect(task).toMatchObject({
			status: 'queued',
			duration_sec: 10,
			resolution: '1080p',
			aspect_ratio: '16:9',
			cost_credit: 80,
			video_url: null,
			cover_url: null,
		});
		expect(task).not.toHaveProperty('error');
		expect(emu.ledger()).toEqual([
			expect.objectContaining({
				operation: 'ai_video',
				kind: 'charge',
				credits: 80,
				balance: 9920,
			}),
		]);
		emu.advance(1000);
		const done = (await api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: task.video_id } }))
			.body.data;
		expect(done.status).toBe('created');
		expect((await request(done.cover_url)).statusCode).toBe(200);
	});

	test('values outside the model entry are 422s', async () => {
		const r = await api(emu, 'POST', '/api/v1/ai_video', {
			body: {
				model_id: 'seedance-1.0-pro',
				prompt: 'x',
				duration_sec: 7,
				resolution: '4k',
				aspect_ratio: '2:1',
				generate_audio: true,
			},
		});
		expect(fieldErrors(r)).toEqual({
			duration_sec: 'must be one of 5, 10',
			resolution: 'must be one of 480p, 720p, 1080p',
			aspect_ratio: 'must be one of 16:9, 9:16, 1:1, 4:3, 3:4, 21:9',
			generate_audio: 'seedance-1.0-pro cannot generate audio',
		});
		const long = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'kling-3.0', prompt: 'a'.repeat(2501) },
		});
		expect(fieldErrors(long).prompt).toBe('must be at most 2500 characters (got 2501)');
		const wanLong = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'wan-2.5', prompt: 'a'.repeat(20000), duration_sec: 30 },
		});
		expect(wanLong.status).toBe(200);
		const unknown = await api(emu, 'POST', '/api/v1/ai_video', { body: { prompt: 'x' } });
		expect(fieldErrors(unknown)).toEqual({ model_id: 'is required' });
		const frames = await api(emu, 'POST', '/api/v1/ai_video', {
			body: {
				model_id: 'wan-2.5',
				prompt: 'x',
				end_frame: { url: 'https://example.com/a.png' },
				refs: [{ url: 'https://example.com/b.png' }],
			},
		});
		expect(fieldErrors(frames)).toEqual({
			end_frame: 'is not supported by wan-2.5',
			refs: 'must have at most 0 items (got 1)',
		});
		const mediaRefRule = await api(emu, 'POST', '/api/v1/ai_video', {
			body: {
				model_id: 'kling-3.0-omni',
				prompt: 'x',
				first_frame: { url: 'https://example.com/a.png', asset_id: 'asset_x' },
			},
		});
		expect(fieldErrors(mediaRefRule).first_frame).toMatch(
			/exactly one of url, inline_data, asset_id/,
		);
		const cost = await api(emu, 'GET', '/api/v1/ai_video/cost', {
			query: { model_id: 'wan-2.5', duration_sec: 31 },
		});
		expect(fieldErrors(cost)).toEqual({
			duration_sec:
				'must be one of 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 for wan-2.5',
		});
	});

	test('a [fail] prompt ends failed with error 5001, cost 0 and a refund', async () => {
		const id = (
			await api(emu, 'POST', '/api/v1/ai_video', {
				body: { model_id: 'wan-2.5', prompt: 'boom [fail]', duration_sec: 2, resolution: '480p' },
			})
		).body.data.video_id;
		emu.advance(1000);
		const task = (await api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: id } })).body.data;
		expect(task).toMatchObject({
			status: 'failed',
			cost_credit: 0,
			video_url: null,
			error: { code: 5001 },
		});
		expect(typeof task.error.message).toBe('string');
		expect(emu.ledger().map((e) => [e.kind, e.credits])).toEqual([
			['charge', 4],
			['refund', 4],
		]);
	});

	test('batch status omits unknown and foreign ids and takes at most 20', async () => {
		emu.addAccount('sk-vs-other-account-1111', 1000);
		const mine = (
			await api(emu, 'POST', '/api/v1/ai_video', { body: { model_id: 'wan-2.5', prompt: 'mine' } })
		).body.data.video_id;
		const theirs = (
			await api(emu, 'POST', '/api/v1/ai_video', {
				key: 'sk-vs-other-account-1111',
				body: { model_id: 'wan-2.5', prompt: 'theirs' },
			})
		).body.data.video_id;
		const batch = await api(emu, 'GET', '/api/v1/ai_video', {
			query: { video_ids: `${mine},${theirs},aiv_missing` },
		});
		expect(batch.body.data.videos.map((v: any) => v.video_id)).toEqual([mine]);
		expect(
			(await api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: theirs } })).status,
		).toBe(404);
		const tooMany = Array.from({ length: 21 }, (_, i) => `aiv_${i}`).join(',');
		expect(
			fieldErrors(await api(emu, 'GET', '/api/v1/ai_video', { query: { video_ids: tooMany } })),
		).toEqual({ video_ids: 'must list at most 20 ids (got 21)' });
		expect(fieldErrors(await api(emu, 'GET', '/api/v1/ai_video'))).toEqual({
			video_id: 'provide exactly one of video_id, video_ids',
		});
		expect(
			(await api(emu, 'DELETE', '/api/v1/ai_video', { query: { video_id: mine } })).body.data,
		).toEqual({ deleted: true });
		expect((await api(emu, 'GET', '/api/v1/ai_videos')).body.data).toEqual({
			videos: [],
			next_cursor: 0,
		});
	});

	test('unknown status filter on /ai_videos is a 400', async () => {
		const r = await api(emu, 'GET', '/api/v1/ai_videos', { query: { status: 'running' } });
		expect(r.status).toBe(400);
		expect(r.body.error.code).toBe(400);
	});
});

describe('images', () => {
	test('generates a PNG on the media origin, priced by tier', async () => {
		const r = await api(emu, 'POST', '/api/v1/image', {
			body: {
				model_id: 'seedream-5.0-lite',
				prompt: 'a lighthouse',
				aspect_ratio: '16:9',
				resolution: '4K',
			},
		});
		expect(r.body.data).toMatchObject({
			width: 4096,
			height: 2304,
			model_id: 'seedream-5.0-lite',
			cost_credit: 6,
		});
		const png = await request(r.body.data.url);
		expect(png.headers['content-type']).toBe('image/png');
		expect(
			Buffer.from(await png.body.arrayBuffer())
				.subarray(1, 4)
				.toString(),
		).toBe('PNG');
		expect(emu.ledger()).toEqual([expect.objectContaining({ operation: 'image', credits: 6 })]);
	});

	test('unsupported resolution 400, too many refs 422, moderation 403/37100, failure 403/1, none charged', async () => {
		const res = await api(emu, 'POST', '/api/v1/image', {
			body: { model_id: 'nano-banana-2', prompt: 'x', resolution: '4K' },
		});
		expect(res.status).toBe(400);
		const refs = Array.from({ length: 5 }, () => ({ url: 'https://example.com/r.png' }));
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/image', {
					body: { model_id: 'nano-banana-pro', prompt: 'x', refs },
				}),
			),
		).toEqual({ refs: 'must have at most 4 items (got 5)' });
		const moderated = await api(emu, 'POST', '/api/v1/image', {
			body: { model_id: 'gpt-image-2', prompt: 'something [moderate]' },
		});
		expect([moderated.status, moderated.body.error.code]).toEqual([403, 37100]);
		const failed = await api(emu, 'POST', '/api/v1/image', {
			body: { model_id: 'gpt-image-2', prompt: 'something [fail]' },
		});
		expect([failed.status, failed.body.error.code]).toEqual([403, 1]);
		const long = await api(emu, 'POST', '/api/v1/image', {
			body: { model_id: 'seedream-5.0-pro', prompt: 'p'.repeat(4001) },
		});
		expect(fieldErrors(long).prompt).toMatch(/at most 4000/);
		expect(emu.ledger()).toEqual([]);
	});

	test('an unreadable loopback reference is a 422 with code 37101 naming the ref', async () => {
		const r = await api(emu, 'POST', '/api/v1/image', {
			body: {
				model_id: 'nano-banana-2',
				prompt: 'x',
				refs: [
					{ url: `${emu.mediaBaseUrl}/media/sample.png` },
					{ url: `${emu.mediaBaseUrl}/gone.png` },
				],
			},
		});
		expect(r.body.error.code).toBe(37101);
		expect(fieldErrors(r)).toEqual({ 'refs[1].url': 'could not be fetched: HTTP 404' });
		const wrongKind = await api(emu, 'POST', '/api/v1/image', {
			body: {
				model_id: 'nano-banana-2',
				prompt: 'x',
				refs: [{ inline_data: inline('sample.wav', 'audio/wav') }],
			},
		});
		expect(fieldErrors(wrongKind)['refs[0].inline_data.mime_type']).toMatch(/not accepted/);
	});
});

describe('speech', () => {
	test('TTS answers MP3 bytes with the usage headers and bills 2 per started 1000 characters', async () => {
		const text = 'a'.repeat(1001);
		const r = await api(emu, 'POST', '/api/v1/tts', {
			body: { text, voice_id: 'Echo', speech_rate: 'fast' },
		});
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('audio/mpeg');
		expect(r.raw.subarray(0, 3).toString('latin1')).toBe('ID3');
		expect(r.headers['x-usage-characters']).toBe('1001');
		expect(r.headers['x-cost-credit']).toBe('4');
		// About 60 ms a character (speechAudio.test.ts checks the audio itself).
		expect(Number(r.headers['x-audio-duration-sec'])).toBeCloseTo(1001 * 0.06, 1);
		expect(r.headers['x-audio-id']).toMatch(/^aud_/);
		expect(emu.ledger()).toEqual([
			expect.objectContaining({ operation: 'tts', credits: 4, refId: r.headers['x-audio-id'] }),
		]);
	});

	test('TTS limits: 3000 characters, known voice, [fail] is a 500 without charge', async () => {
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/tts', {
					body: { text: 'a'.repeat(3001), voice_id: 'Echo' },
				}),
			),
		).toEqual({ text: 'must be at most 3000 characters (got 3001)' });
		expect(
			(
				await api(emu, 'POST', '/api/v1/tts', {
					body: { text: 'a'.repeat(3000), voice_id: 'Echo' },
				})
			).status,
		).toBe(200);
		expect(
			(await api(emu, 'POST', '/api/v1/tts', { body: { text: 'hi', voice_id: 'Nobody' } })).status,
		).toBe(404);
		const failed = await api(emu, 'POST', '/api/v1/tts', {
			body: { text: 'hi [fail]', voice_id: 'Echo' },
		});
		expect([failed.status, failed.body.error.code]).toEqual([500, 500]);
		expect(emu.ledger()).toHaveLength(1);
	});

	test('align times every word over the real audio length', async () => {
		const text = 'Hello from the VisionStory emulator. This is a sample clip.';
		const r = await api(emu, 'POST', '/api/v1/audio/align', {
			body: { audio: { inline_data: inline('sample.wav', 'audio/wav') }, text },
		});
		expect(r.status).toBe(200);
		expect(r.body.data.duration_sec).toBeCloseTo(4.17, 1);
		expect(r.body.data.cost_credit).toBe(1);
		expect(r.body.data.words.map((w: any) => w.text)).toEqual(text.split(' '));
		expect(r.body.data.words.at(-1).end_sec).toBeCloseTo(r.body.data.duration_sec, 2);
		expect(fieldErrors(await api(emu, 'POST', '/api/v1/audio/align', { body: { text } }))).toEqual({
			audio: 'is required',
		});
	});

	test('transcribe returns words, diarized speakers and SRT on request', async () => {
		const r = await api(emu, 'POST', '/api/v1/audio/transcribe', {
			body: { audio: { url: `${emu.mediaBaseUrl}/media/sample.mp3` }, diarize: true, srt: true },
		});
		expect(r.status).toBe(200);
		const { text, words, srt, cost_credit, duration_sec } = r.body.data;
		expect(text).toBe('Hello from the VisionStory emulator. This is a sample clip.');
		expect(duration_sec).toBeCloseTo(4.23, 1);
		expect(cost_credit).toBe(1);
		expect(new Set(words.map((w: any) => w.speaker))).toEqual(
			new Set(['SPEAKER_00', 'SPEAKER_01']),
		);
		expect(srt).toMatch(
			/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nHello from the VisionStory emulator\.\n\n2\n/,
		);
		const plain = await api(emu, 'POST', '/api/v1/audio/transcribe', {
			body: { audio: { inline_data: inline('sample.wav', 'audio/wav') } },
		});
		expect(plain.body.data).not.toHaveProperty('srt');
		expect(plain.body.data.words[0]).not.toHaveProperty('speaker');
	});
});

describe('avatars', () => {
	test('the public library: at least 30, no framing, created_at 0, a default voice', async () => {
		const r = await api(emu, 'GET', '/api/v1/avatars', { query: { is_public: true, limit: 100 } });
		const avatars = r.body.data.avatars;
		expect(avatars.length).toBeGreaterThanOrEqual(30);
		for (const a of avatars) {
			expect(a).toMatchObject({ framing: null, created_at: 0 });
			expect(a.default_voice_id).not.toBe('');
		}
		expect(r.body.data.next_cursor).toBe(0);
	});

	test('a new avatar gets automatic framing; framing rules: legacy 422 with hint, max zoom, public 403, unknown 404', async () => {
		const created = await api(emu, 'POST', '/api/v1/avatar', {
			body: { inline_data: inline('sample.png', 'image/png') },
		});
		const avatar = created.body.data;
		expect(avatar.framing).toHaveLength(3);
		expect(
			avatar.framing.map((f: any) => [f.aspect_ratio, f.zoom, f.offset_x, f.offset_y]),
		).toEqual([
			['9:16', 1, 0, 0],
			['16:9', 1, 0, 0],
			['1:1', 1, 0, 0],
		]);
		expect(avatar.framing[0].image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\//);

		const own = (await api(emu, 'GET', '/api/v1/avatars')).body.data.avatars;
		expect(own.map((a: any) => a.avatar_id)).toEqual([
			avatar.avatar_id,
			expect.stringMatching(/^legacy_/),
		]);
		const legacy = own[1];
		expect(
			legacy.framing.every(
				(f: any) => f.zoom === null && f.offset_x === null && f.offset_y === null,
			),
		).toBe(true);

		const frame = (body: object) =>
			api(emu, 'POST', '/api/v1/avatar/framing', {
				body: { aspect_ratio: '16:9', zoom: 1.5, offset_x: 0.2, offset_y: -0.3, ...body },
			});
		const legacyFrame = await frame({ avatar_id: legacy.avatar_id });
		expect(legacyFrame.status).toBe(422);
		expect(legacyFrame.body.error.hint).toMatch(/Re-create the avatar/);
		const tooClose = await frame({ avatar_id: avatar.avatar_id, zoom: 3.5 });
		expect(tooClose.status).toBe(422);
		expect(tooClose.body.error.message).toContain('maximum zoom of 3');
		expect(
			fieldErrors(await frame({ avatar_id: avatar.avatar_id, zoom: 0.5, offset_x: 1.5 })),
		).toEqual({ zoom: 'must be at least 1', offset_x: 'must be between -1 and 1' });
		expect((await frame({ avatar_id: 'public_anna' })).status).toBe(403);
		expect((await frame({ avatar_id: 'avt_missing' })).status).toBe(404);

		const ok = await frame({ avatar_id: avatar.avatar_id });
		expect(ok.body.data).toMatchObject({
			avatar_id: avatar.avatar_id,
			aspect_ratio: '16:9',
			zoom: 1.5,
			offset_x: 0.2,
			offset_y: -0.3,
		});
		expect(ok.body.data.image_url).not.toBe(avatar.framing[1].image_url);
		const after = (await api(emu, 'GET', '/api/v1/avatars')).body.data.avatars[0];
		expect(after.framing[1]).toMatchObject({ zoom: 1.5, offset_x: 0.2, offset_y: -0.3 });
	});

	test('portrait rules: one source, talking-video image types, 10 MB decoded cap', async () => {
		expect(fieldErrors(await api(emu, 'POST', '/api/v1/avatar', { body: {} })).img_url).toMatch(
			/exactly one of img_url, inline_data/,
		);
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/avatar', {
					body: { inline_data: inline('sample.png', 'image/gif') },
				}),
			)['inline_data.mime_type'],
		).toMatch(/not accepted/);
		expect(
			(
				await api(emu, 'POST', '/api/v1/avatar', {
					body: { inline_data: inline('sample.png', 'image/heic') },
				})
			).status,
		).toBe(200);
		const big = Buffer.alloc(10 * 1024 * 1024 + 3).toString('base64');
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/avatar', {
					body: { inline_data: { data: big, mime_type: 'image/png' } },
				}),
			)['inline_data.data'],
		).toMatch(/over the 10 MB limit/);
		const broken = await api(emu, 'POST', '/api/v1/avatar', {
			body: { inline_data: { data: 'abc$', mime_type: 'image/png' } },
		});
		expect(fieldErrors(broken)).toEqual({ 'inline_data.data': 'is not valid base64' });
		expect(
			(
				await api(emu, 'POST', '/api/v1/avatar', {
					body: { img_url: `${emu.mediaBaseUrl}/media/sample.png` },
				})
			).status,
		).toBe(200);
	});

	test('delete: own avatars go, public ones are 403, repeats are fine', async () => {
		const id = (
			await api(emu, 'POST', '/api/v1/avatar', { body: { img_url: 'https://example.com/me.jpg' } })
		).body.data.avatar_id;
		expect(
			(await api(emu, 'DELETE', '/api/v1/avatar', { query: { avatar_id: id } })).body.data,
		).toEqual({ deleted: true });
		expect(
			(await api(emu, 'DELETE', '/api/v1/avatar', { query: { avatar_id: id } })).body.data,
		).toEqual({ deleted: true });
		expect(
			(await api(emu, 'DELETE', '/api/v1/avatar', { query: { avatar_id: 'public_ben' } })).status,
		).toBe(403);
		const own = (await api(emu, 'GET', '/api/v1/avatars')).body.data.avatars;
		expect(own.map((a: any) => a.avatar_id)).not.toContain(id);
	});
});

describe('voices', () => {
	test('the whole library unpaginated: 60+, seven locales, four providers, known ids', async () => {
		const data = (await api(emu, 'GET', '/api/v1/voices')).body.data;
		expect(data.next_cursor).toBe(0);
		expect(data.my_voices).toEqual([]);
		const voices = data.public_voices;
		expect(voices.length).toBeGreaterThanOrEqual(60);
		expect(new Set(voices.map((v: any) => v.locale))).toEqual(
			new Set(['en-US', 'en-GB', 'zh-TW', 'zh-HK', 'es-ES', 'fr-FR', 'de-DE', 'en', '']),
		);
		expect(new Set(voices.map((v: any) => v.provider))).toEqual(
			new Set(['azure', 'elevenlabs', 'google', 'minimax']),
		);
		for (const id of ['Alice', 'Echo', 'Aoede'])
			expect(voices.map((v: any) => v.voice_id)).toContain(id);
	});

	test('locale filter: bare language matches every region, a region only itself, any case; provider any case', async () => {
		const locales = async (query: Record<string, string>) =>
			new Set(
				(await api(emu, 'GET', '/api/v1/voices', { query })).body.data.public_voices.map(
					(v: any) => v.locale,
				),
			);
		expect(await locales({ locale: 'en' })).toEqual(new Set(['en-US', 'en-GB', 'en']));
		expect(await locales({ locale: 'EN-gb' })).toEqual(new Set(['en-GB']));
		expect(await locales({ locale: 'zh' })).toEqual(new Set(['zh-TW', 'zh-HK']));
		expect(await locales({ locale: 'zh-hk' })).toEqual(new Set(['zh-HK']));
		const google = (await api(emu, 'GET', '/api/v1/voices', { query: { provider: 'GOOGLE' } })).body
			.data.public_voices;
		expect(google.length).toBeGreaterThan(0);
		expect(google.every((v: any) => v.provider === 'google')).toBe(true);
		expect(
			fieldErrors(await api(emu, 'GET', '/api/v1/voices', { query: { provider: 'polly' } })),
		).toEqual({ provider: 'must be one of azure, elevenlabs, google, minimax' });
	});

	test('paging covers the library once; my_voices only on the first page', async () => {
		const cloned = await api(emu, 'POST', '/api/v1/voice', {
			body: { inline_data: inline('sample.wav', 'audio/wav'), preview_text: 'Hi there' },
		});
		expect(cloned.body.data).toMatchObject({
			voice_id: expect.stringMatching(/^vc_/),
			locale: 'en-US',
			language: 'english',
		});
		const seen: string[] = [];
		let cursor = 0;
		let pages = 0;
		do {
			const data = (await api(emu, 'GET', '/api/v1/voices', { query: { limit: 10, cursor } })).body
				.data;
			expect(data.my_voices.map((v: any) => v.voice_id)).toEqual(
				pages === 0 ? [cloned.body.data.voice_id] : [],
			);
			seen.push(...data.public_voices.map((v: any) => v.voice_id));
			cursor = data.next_cursor;
			pages++;
		} while (cursor !== 0);
		const all = (await api(emu, 'GET', '/api/v1/voices')).body.data.public_voices.map(
			(v: any) => v.voice_id,
		);
		expect(seen).toEqual(all);
		expect(pages).toBe(Math.ceil(all.length / 10));
		expect(fieldErrors(await api(emu, 'GET', '/api/v1/voices', { query: { limit: 501 } }))).toEqual(
			{ limit: 'must be between 1 and 500' },
		);
	});

	test('clone rules and delete', async () => {
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/voice', {
					body: { audio_url: 'https://example.com/v.mp3', preview_text: 'x'.repeat(101) },
				}),
			),
		).toEqual({
			preview_text: 'must be at most 100 characters (got 101)',
		});
		const big = {
			data: Buffer.alloc(30 * 1024 * 1024 + 3).toString('base64'),
			mime_type: 'audio/wav',
		};
		expect(
			fieldErrors(await api(emu, 'POST', '/api/v1/voice', { body: { inline_data: big } }))[
				'inline_data.data'
			],
		).toMatch(/over the 30 MB limit/);
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/voice', {
					body: { inline_data: inline('sample.png', 'image/png') },
				}),
			)['inline_data.mime_type'],
		).toMatch(/not accepted/);
		const id = (
			await api(emu, 'POST', '/api/v1/voice', {
				body: { audio_url: `${emu.mediaBaseUrl}/media/sample.mp3` },
			})
		).body.data.voice_id;
		expect(
			(await api(emu, 'POST', '/api/v1/tts', { body: { text: 'my voice', voice_id: id } })).status,
		).toBe(200);
		expect(
			(await api(emu, 'DELETE', '/api/v1/voice', { query: { voice_id: 'Alice' } })).status,
		).toBe(403);
		expect(
			(await api(emu, 'DELETE', '/api/v1/voice', { query: { voice_id: id } })).body.data,
		).toEqual({ deleted: true });
		expect((await api(emu, 'GET', '/api/v1/voices')).body.data.my_voices).toEqual([]);
	});
});

describe('media understanding', () => {
	const schema = {
		type: 'object',
		properties: {
			label: { type: 'string', enum: ['cat', 'dog'] },
			caption: { type: 'string' },
			count: { type: 'integer', minimum: 2 },
			score: { type: 'number' },
			safe: { type: 'boolean' },
			tags: { type: 'array', items: { type: 'string' } },
			box: {
				type: 'object',
				properties: { x: { type: 'number' }, note: { type: ['string', 'null'] } },
				required: ['x', 'note'],
			},
		},
		required: ['label', 'caption', 'count', 'score', 'safe', 'tags', 'box'],
	};

	test('output conforms to the schema; usage and cost come with it', async () => {
		const r = await api(emu, 'POST', '/api/v1/media/understand', {
			body: {
				inputs: [
					{ inline_data: inline('sample.png', 'image/png') },
					{ url: `${emu.mediaBaseUrl}/media/sample.mp4` },
				],
				prompt: 'What animal?',
				schema,
			},
		});
		expect(r.status).toBe(200);
		expect(r.body.data.output).toEqual({
			label: 'cat',
			caption: expect.any(String),
			count: 2,
			score: 0,
			safe: true,
			tags: [],
			box: { x: 0, note: expect.any(String) },
		});
		expect(r.body.data.cost_credit).toBe(2);
		expect(r.body.data.usage.input_tokens).toBeGreaterThan(0);
		expect(r.body.data.usage.output_tokens).toBeGreaterThan(0);
	});

	test('1 to 8 inputs, an object schema, moderation and failure markers', async () => {
		const one = { url: 'https://example.com/a.png' };
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/media/understand', {
					body: { inputs: [], prompt: 'x', schema },
				}),
			),
		).toEqual({ inputs: 'must have at least 1 item' });
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/media/understand', {
					body: { inputs: Array(9).fill(one), prompt: 'x', schema },
				}),
			),
		).toEqual({ inputs: 'must have at most 8 items (got 9)' });
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/media/understand', {
					body: { inputs: [one], prompt: 'x', schema: { type: 'array' } },
				}),
			),
		).toEqual({
			schema: 'top level must be an object schema ("type": "object")',
		});
		const moderated = await api(emu, 'POST', '/api/v1/media/understand', {
			body: { inputs: [one], prompt: '[moderate]', schema },
		});
		expect([moderated.status, moderated.body.error.code]).toEqual([403, 37100]);
		expect(
			(
				await api(emu, 'POST', '/api/v1/media/understand', {
					body: { inputs: [one], prompt: '[fail]', schema },
				})
			).status,
		).toBe(500);
		expect(emu.ledger()).toEqual([]);
	});
});

describe('assets', () => {
	test('upload detects kind, MIME, size and duration; same bytes, same asset', async () => {
		const png = await api(emu, 'POST', '/api/v1/asset', {
			body: { inline_data: inline('sample.png', 'image/png') },
		});
		expect(png.body.data).toMatchObject({
			kind: 'image',
			mime: 'image/png',
			width: 512,
			height: 512,
			duration_sec: 0,
		});
		const again = await api(emu, 'POST', '/api/v1/asset', {
			body: { url: `${emu.mediaBaseUrl}/media/sample.png` },
		});
		expect(again.body.data.asset_id).toBe(png.body.data.asset_id);
		const mp4 = await api(emu, 'POST', '/api/v1/asset', {
			body: { inline_data: inline('sample.mp4', 'video/mp4') },
		});
		expect(mp4.body.data).toMatchObject({ kind: 'video', width: 320, height: 240 });
		expect(mp4.body.data.duration_sec).toBeCloseTo(3, 1);
		const wav = await api(emu, 'POST', '/api/v1/asset', {
			body: { inline_data: inline('sample.wav', 'audio/wav') },
		});
		expect(wav.body.data).toMatchObject({ kind: 'audio', mime: 'audio/wav' });
		expect(wav.body.data.duration_sec).toBeCloseTo(4.17, 1);
		const remote = await api(emu, 'POST', '/api/v1/asset', {
			body: { url: 'https://example.com/clip.mov' },
		});
		expect(remote.body.data).toMatchObject({ kind: 'video', mime: 'video/quicktime' });

		const audioOnly = (await api(emu, 'GET', '/api/v1/assets', { query: { kind: 'audio' } })).body
			.data;
		expect(audioOnly).toEqual({ assets: [wav.body.data], next_cursor: 0 });
		expect((await api(emu, 'GET', '/api/v1/assets')).body.data.assets).toHaveLength(4);
		expect(
			fieldErrors(await api(emu, 'GET', '/api/v1/assets', { query: { kind: 'text' } })),
		).toEqual({ kind: 'must be one of image, audio, video' });
	});

	test('assets work as MediaRefs, per kind; unknown ids and 404 URLs are 422s; per-kind caps', async () => {
		const wav = (
			await api(emu, 'POST', '/api/v1/asset', {
				body: { inline_data: inline('sample.wav', 'audio/wav') },
			})
		).body.data.asset_id;
		const aligned = await api(emu, 'POST', '/api/v1/audio/align', {
			body: { audio: { asset_id: wav }, text: 'hello world' },
		});
		expect(aligned.body.data.duration_sec).toBeCloseTo(4.17, 1);
		const asImage = await api(emu, 'POST', '/api/v1/image', {
			body: { model_id: 'nano-banana-2', prompt: 'x', refs: [{ asset_id: wav }] },
		});
		expect(fieldErrors(asImage)).toEqual({ 'refs[0].asset_id': 'is audio; expected image' });
		const unknown = await api(emu, 'POST', '/api/v1/media/understand', {
			body: { inputs: [{ asset_id: 'asset_nope' }], prompt: 'x', schema: { type: 'object' } },
		});
		expect(fieldErrors(unknown)['inputs[0].asset_id']).toMatch(/unknown asset_id/);
		expect(
			fieldErrors(
				await api(emu, 'POST', '/api/v1/asset', {
					body: { url: `${emu.mediaBaseUrl}/media/missing.png` },
				}),
			),
		).toEqual({ url: 'could not be fetched: HTTP 404' });
		const bigAudio = {
			data: Buffer.alloc(15 * 1024 * 1024 + 3).toString('base64'),
			mime_type: 'audio/mpeg',
		};
		expect(
			fieldErrors(await api(emu, 'POST', '/api/v1/asset', { body: { inline_data: bigAudio } }))[
				'inline_data.data'
			],
		).toMatch(/over the 15 MB limit/);
		const bigBlob = await api(emu, 'POST', '/api/v1/asset', {
			body: { url: `${emu.mediaBaseUrl}/media/blob?bytes=${16 * 1024 * 1024}&type=audio/mpeg` },
		});
		expect(fieldErrors(bigBlob).url).toMatch(/over the 15 MB limit/);
		expect(
			(await api(emu, 'DELETE', '/api/v1/asset', { query: { asset_id: wav } })).body.data,
		).toEqual({ deleted: true });
		expect((await api(emu, 'GET', '/api/v1/assets')).body.data.assets).toEqual([]);
	});
});

describe('accounts and credits', () => {
	test('insufficient credits: 402 with a top-up hint, nothing created or charged', async () => {
		emu.addAccount('sk-vs-poor-account-2222', 5);
		const key = 'sk-vs-poor-account-2222';
		const video = await api(emu, 'POST', '/api/v1/video', {
			key,
			body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
		});
		expect(video.status).toBe(402);
		expect(video.body.error.code).toBe(402);
		expect(video.body.error.hint).toMatch(/https:\/\//);
		const ai = await api(emu, 'POST', '/api/v1/ai_video', {
			key,
			body: { model_id: 'wan-2.5', prompt: 'x' },
		});
		expect(ai.status).toBe(402);
		const tts = await api(emu, 'POST', '/api/v1/tts', {
			key,
			body: { text: 'a'.repeat(3000), voice_id: 'Echo' },
		});
		expect(tts.status).toBe(402);
		expect(emu.tasks(key)).toEqual([]);
		expect(emu.ledger(key)).toEqual([]);
		expect(emu.balance(key)).toBe(5);
		expect((await api(emu, 'GET', '/api/v1/billing/credits', { key })).body.data.credits).toBe(5);
	});

	test('accounts are isolated: resources of one key are invisible to another', async () => {
		emu.addAccount('sk-vs-second-account-3333', 100);
		const key = 'sk-vs-second-account-3333';
		const video = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		expect(
			(await api(emu, 'GET', '/api/v1/video', { key, query: { video_id: video } })).status,
		).toBe(404);
		expect((await api(emu, 'GET', '/api/v1/videos', { key })).body.data.videos).toEqual([]);
		const avatars = (await api(emu, 'GET', '/api/v1/avatars', { key })).body.data.avatars;
		expect(avatars).toHaveLength(1);
		expect(avatars[0].avatar_id).toBe(`legacy_${emu.accountId(key)}`);
		expect(emu.balance(key)).toBe(100);
		expect(emu.tasks(key)).toEqual([]);
		expect(emu.tasks()).toHaveLength(1);
	});
});
