import { request } from 'undici';
import { startEmulator, type Emulator } from './index';
import { api, TEXT_SCRIPT } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({
		clock: 'manual',
		renderMs: 10_000,
		queueMs: 2_000,
		aiConcurrencyCap: 3,
	});
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const HOUR = 60 * 60 * 1000;
const submitAi = (body: Record<string, unknown> = {}, key?: string) =>
	api(emu, 'POST', '/api/v1/ai_video', {
		key,
		body: { model_id: 'wan-2.5', prompt: 'waves', duration_sec: 2, resolution: '480p', ...body },
	});
const submitTalking = (body: Record<string, unknown> = {}) =>
	api(emu, 'POST', '/api/v1/video', {
		body: { avatar_id: 'public_mia', text_script: TEXT_SCRIPT, ...body },
	});

describe('timings and clock', () => {
	test('defaults: renderMs 3000, queueMs min(500, renderMs / 4), cap 3, real clock', async () => {
		const real = await startEmulator();
		try {
			expect(real.config()).toEqual({
				renderMs: 3000,
				queueMs: 500,
				aiConcurrencyCap: 3,
				registerMs: 0,
				videoBytes: 0,
				concurrencyDetailsAsString: false,
				redirectMedia: false,
				drift: false,
				driftErrors: false,
				rateLimitPerSecond: 0,
				talkingVideoList: 'paged',
				lateCost: false,
				createdAtSkewSeconds: 0,
				videoUrlDelayMs: 0,
				oddWordTimings: false,
			});
			expect(Math.abs(real.now() - Date.now())).toBeLessThan(1000);
			expect(() => real.advance(10)).toThrow(/manual/);
			expect(real.apiKey).toBe('sk-vs-emulator-default-0000000000');
			real.setConfig({ renderMs: 400 });
			expect(real.config().queueMs).toBe(100);
		} finally {
			await real.stop();
		}
		const explicit = await startEmulator({ renderMs: 8000, queueMs: 50 });
		expect(explicit.config().queueMs).toBe(50);
		explicit.setConfig({ renderMs: 4000 });
		expect(explicit.config().queueMs).toBe(50);
		await explicit.stop();
	});

	test('task records follow the clock: queued, creating, created, with start and finish times', async () => {
		const id = (await submitAi()).body.data.video_id;
		const t0 = emu.now();
		expect(emu.tasks()).toEqual([
			{
				kind: 'aiVideo',
				video_id: id,
				account: 'acct_1',
				client_request_id: null,
				submittedAt: t0,
				startedAt: null,
				finishedAt: null,
				status: 'queued',
			},
		]);
		emu.advance(1_999);
		expect(emu.tasks()[0].status).toBe('queued');
		emu.advance(1);
		expect(emu.tasks()[0]).toMatchObject({
			status: 'creating',
			startedAt: t0 + 2_000,
			finishedAt: null,
		});
		emu.advance(7_999);
		expect(emu.tasks()[0].status).toBe('creating');
		emu.advance(1);
		expect(emu.tasks()[0]).toMatchObject({ status: 'created', finishedAt: t0 + 10_000 });
	});

	test('config changes apply to later submissions only', async () => {
		const before = (await submitTalking()).body.data.video_id;
		emu.setConfig({ renderMs: 1_000, queueMs: 0 });
		const after = (await submitTalking()).body.data.video_id;
		emu.advance(1_000);
		const status = async (id: string) =>
			(await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).body.data.status;
		expect(await status(after)).toBe('created');
		expect(await status(before)).toBe('queued');
	});

	test('finished talking videos are kept 7 days', async () => {
		const id = (await submitTalking()).body.data.video_id;
		emu.advance(10_000 + 7 * 24 * HOUR - 1);
		expect((await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).status).toBe(200);
		emu.advance(1);
		const media = await request(`${emu.mediaBaseUrl}/media/videos/${id}.mp4`);
		expect(media.statusCode).toBe(404);
		await media.body.dump();
		expect((await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).status).toBe(404);
	});
});

describe('charges and refunds', () => {
	test('charge at submission, refund when it fails, both in the ledger with running balances', async () => {
		await submitAi({ prompt: 'ok' });
		const failing = (
			await submitAi({ prompt: 'nope [fail]', duration_sec: 5, resolution: '1080p' })
		).body.data.video_id;
		expect(emu.balance()).toBe(10_000 - 4 - 40);
		emu.advance(10_000);
		const ledger = emu.ledger();
		expect(
			ledger.map(({ seq, kind, credits, balance, operation }) => ({
				seq,
				kind,
				credits,
				balance,
				operation,
			})),
		).toEqual([
			{ seq: 1, kind: 'charge', credits: 4, balance: 9_996, operation: 'ai_video' },
			{ seq: 2, kind: 'charge', credits: 40, balance: 9_956, operation: 'ai_video' },
			{ seq: 3, kind: 'refund', credits: 40, balance: 9_996, operation: 'ai_video' },
		]);
		expect(ledger[2].refId).toBe(failing);
		expect(emu.balance()).toBe(9_996);
		// Observing again must not refund twice.
		await api(emu, 'GET', '/api/v1/ai_videos');
		expect(emu.ledger()).toHaveLength(3);
	});

	test('deleting a task in flight cancels and refunds it; deleting a finished one does not', async () => {
		const running = (await submitTalking()).body.data.video_id;
		const done = (await submitTalking({ resolution: '2k' })).body.data.video_id;
		emu.advance(10_000);
		const fresh = (await submitTalking({ resolution: '1080p' })).body.data.video_id;
		await api(emu, 'DELETE', '/api/v1/video', { query: { video_id: fresh } });
		await api(emu, 'DELETE', '/api/v1/video', { query: { video_id: done } });
		expect(
			emu
				.ledger()
				.filter((e) => e.kind === 'refund')
				.map((e) => e.refId),
		).toEqual([fresh]);
		expect(emu.balance()).toBe(10_000 - 10 - 40);
		expect(emu.tasks().map((t) => t.video_id)).toEqual([running]);
	});
});

describe('idempotency', () => {
	test('the same client_request_id returns the original task with one charge, for 24 h', async () => {
		const first = await submitAi({ client_request_id: 'job-42' });
		const second = await submitAi({ client_request_id: 'job-42', prompt: 'something else' });
		expect(second.body.data.video_id).toBe(first.body.data.video_id);
		expect(emu.tasks()).toHaveLength(1);
		expect(emu.tasks()[0].client_request_id).toBe('job-42');
		expect(emu.ledger()).toHaveLength(1);
		emu.advance(24 * HOUR - 1);
		expect((await submitAi({ client_request_id: 'job-42' })).body.data.video_id).toBe(
			first.body.data.video_id,
		);
		emu.advance(1);
		const later = await submitAi({ client_request_id: 'job-42' });
		expect(later.body.data.video_id).not.toBe(first.body.data.video_id);
		expect(emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	});

	test('talking videos honour it too, and keys are per account', async () => {
		emu.addAccount('sk-vs-idem-other-4444', 500);
		const a = await submitTalking({ client_request_id: 'same.key_1' });
		const b = await submitTalking({ client_request_id: 'same.key_1' });
		const other = await api(emu, 'POST', '/api/v1/video', {
			key: 'sk-vs-idem-other-4444',
			body: { avatar_id: 'public_mia', text_script: TEXT_SCRIPT, client_request_id: 'same.key_1' },
		});
		expect(b.body.data.video_id).toBe(a.body.data.video_id);
		expect(other.body.data.video_id).not.toBe(a.body.data.video_id);
		expect(emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	});

	test('while the first submission is still registering a resend gets 409, then the original', async () => {
		emu.setConfig({ registerMs: 3_000 });
		const first = await submitAi({ client_request_id: 'slow-1' });
		expect(first.status).toBe(200);
		emu.advance(2_999);
		const early = await submitAi({ client_request_id: 'slow-1' });
		expect(early.status).toBe(409);
		expect(early.body.error).toMatchObject({
			code: 409,
			hint: expect.stringContaining('same client_request_id'),
		});
		emu.advance(1);
		const resend = await submitAi({ client_request_id: 'slow-1' });
		expect(resend.body.data.video_id).toBe(first.body.data.video_id);
		expect(emu.tasks()).toHaveLength(1);
		expect(emu.ledger()).toHaveLength(1);
	});
});

describe('AI video concurrency cap', () => {
	test('a submission over the cap is a 429 with details {limit, in_flight}; nothing created or charged', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 3; i++)
			ids.push((await submitAi({ client_request_id: `slot-${i}` })).body.data.video_id);
		const over = await submitAi();
		expect(over.status).toBe(429);
		expect(over.body.error.code).toBe(429);
		expect(over.body.error.details).toEqual({ limit: 3, in_flight: 3 });
		expect(emu.tasks()).toHaveLength(3);
		expect(emu.ledger()).toHaveLength(3);

		const holding = (
			await api(emu, 'GET', '/api/v1/ai_videos', { query: { status: 'queued,creating' } })
		).body.data.videos.map((v: any) => v.video_id);
		expect(holding.sort()).toEqual([...ids].sort());

		// A resend of a task already in, even at the cap, gets its task back.
		expect((await submitAi({ client_request_id: 'slot-1' })).body.data.video_id).toBe(ids[1]);

		emu.setConfig({ concurrencyDetailsAsString: true });
		const asString = await submitAi();
		expect(asString.status).toBe(429);
		expect(typeof asString.body.error.details).toBe('string');
		expect(JSON.parse(asString.body.error.details)).toEqual({ limit: 3, in_flight: 3 });

		emu.advance(10_000);
		expect(
			(await api(emu, 'GET', '/api/v1/ai_videos', { query: { status: 'queued,creating' } })).body
				.data.videos,
		).toEqual([]);
		expect((await submitAi()).status).toBe(200);
	});

	test('the cap is per key, and failed or finished tasks free their slot', async () => {
		emu.setConfig({ aiConcurrencyCap: 1 });
		emu.addAccount('sk-vs-cap-other-5555', 1000);
		expect((await submitAi({ prompt: 'x [fail]' })).status).toBe(200);
		expect((await submitAi()).status).toBe(429);
		expect((await submitAi({}, 'sk-vs-cap-other-5555')).status).toBe(200);
		emu.advance(10_000);
		expect((await submitAi()).status).toBe(200);
		const failedOnly = (await api(emu, 'GET', '/api/v1/ai_videos', { query: { status: 'failed' } }))
			.body.data.videos;
		expect(failedOnly).toHaveLength(1);
	});
});

describe('keyset pagination', () => {
	async function drain(
		path: string,
		listKey: string,
		limit: number,
		between?: () => Promise<void>,
	): Promise<{ ids: string[]; pages: number }> {
		const ids: string[] = [];
		let cursor = 0;
		let pages = 0;
		do {
			const data = (await api(emu, 'GET', path, { query: { limit, cursor } })).body.data;
			ids.push(
				...data[listKey].map((item: any) => item.video_id ?? item.asset_id ?? item.avatar_id),
			);
			cursor = data.next_cursor;
			pages++;
			if (between && pages === 1) await between();
		} while (cursor !== 0);
		return { ids, pages };
	}

	test('AI videos: newest first; items created between pages neither shift nor repeat the rest', async () => {
		emu.setConfig({ aiConcurrencyCap: 100 });
		const made: string[] = [];
		for (let i = 0; i < 7; i++) made.push((await submitAi()).body.data.video_id);
		const { ids, pages } = await drain('/api/v1/ai_videos', 'videos', 3, async () => {
			await submitAi();
			await submitAi();
		});
		expect(ids).toEqual([...made].reverse());
		expect(pages).toBe(3);
		const first = (await api(emu, 'GET', '/api/v1/ai_videos', { query: { limit: 2 } })).body.data;
		expect(first.videos).toHaveLength(2);
		expect(first.next_cursor).toBeGreaterThan(0);
		expect(Number.isInteger(first.next_cursor)).toBe(true);
	});

	test('talking videos, assets and own avatars page the same way', async () => {
		const videos: string[] = [];
		for (let i = 0; i < 5; i++) videos.push((await submitTalking()).body.data.video_id);
		expect(
			(await drain('/api/v1/videos', 'videos', 2, async () => void (await submitTalking()))).ids,
		).toEqual([...videos].reverse());

		const assets: string[] = [];
		for (let i = 0; i < 5; i++)
			assets.push(
				(await api(emu, 'POST', '/api/v1/asset', { body: { url: `https://example.com/${i}.png` } }))
					.body.data.asset_id,
			);
		const newAsset = async () =>
			void (await api(emu, 'POST', '/api/v1/asset', {
				body: { url: 'https://example.com/new.png' },
			}));
		expect((await drain('/api/v1/assets', 'assets', 2, newAsset)).ids).toEqual(
			[...assets].reverse(),
		);

		const avatars: string[] = [];
		for (let i = 0; i < 4; i++)
			avatars.push(
				(
					await api(emu, 'POST', '/api/v1/avatar', {
						body: { img_url: `https://example.com/${i}.jpg` },
					})
				).body.data.avatar_id,
			);
		const { ids } = await drain(
			'/api/v1/avatars',
			'avatars',
			2,
			async () =>
				void (await api(emu, 'POST', '/api/v1/avatar', {
					body: { img_url: 'https://example.com/x.jpg' },
				})),
		);
		expect(ids).toEqual([...[...avatars].reverse(), 'legacy_acct_1']);
	});

	test('the public avatar library pages once through, with next_cursor 0 at the end', async () => {
		const { ids, pages } = await (async () => {
			const out: string[] = [];
			let cursor = 0;
			let n = 0;
			do {
				const data = (
					await api(emu, 'GET', '/api/v1/avatars', { query: { is_public: true, limit: 7, cursor } })
				).body.data;
				out.push(...data.avatars.map((a: any) => a.avatar_id));
				cursor = data.next_cursor;
				n++;
			} while (cursor !== 0);
			return { ids: out, pages: n };
		})();
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBeGreaterThanOrEqual(30);
		expect(pages).toBe(Math.ceil(ids.length / 7));
	});
});
