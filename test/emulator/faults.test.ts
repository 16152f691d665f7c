import { request } from 'undici';
import { startEmulator, type Emulator } from './index';
import { api, TEXT_SCRIPT } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', seed: 7 });
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const credits = () => api(emu, 'GET', '/api/v1/billing/credits');

describe('scripted faults (failNext)', () => {
	test('http500, http503, http429 with Retry-After and http409, each for `count` matching requests', async () => {
		emu.setFaults({
			failNext: [
				{ path: '/api/v1/billing/credits', kind: 'http500', count: 2 },
				{ method: 'GET', path: '/api/v1/voices', kind: 'http429', retryAfter: 7 },
				{ method: 'POST', kind: 'http409' },
				{ path: '/api/v1/models', kind: 'http503' },
			],
		});
		const voices = await api(emu, 'GET', '/api/v1/voices');
		expect([voices.status, voices.headers['retry-after'], voices.body.error.code]).toEqual([
			429,
			'7',
			429,
		]);
		expect(voices.body.error).not.toHaveProperty('details');
		expect((await credits()).status).toBe(500);
		expect((await credits()).status).toBe(500);
		expect((await credits()).status).toBe(200);
		expect((await api(emu, 'GET', '/api/v1/models')).status).toBe(503);
		const conflict = await api(emu, 'POST', '/api/v1/video', {
			body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
		});
		expect([conflict.status, conflict.body.error.code]).toEqual([409, 409]);
		expect(emu.tasks()).toEqual([]);
		expect(emu.faults().failNext).toEqual([]);
		expect((await api(emu, 'GET', '/api/v1/voices')).status).toBe(200);
	});

	test('http429 with retryAfterAs date sends Retry-After as an HTTP date that many seconds ahead', async () => {
		emu.setFaults({
			failNext: [
				{ path: '/api/v1/billing/credits', kind: 'http429', retryAfter: 30, retryAfterAs: 'date' },
			],
		});
		const before = Date.now();
		const limited = await credits();
		expect(limited.status).toBe(429);
		const after = Date.now();
		const header = String(limited.headers['retry-after']);
		expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		// Whole seconds: the date is at most a second short of 30 s after the request arrived.
		expect(Date.parse(header)).toBeGreaterThan(before + 29_000);
		expect(Date.parse(header)).toBeLessThanOrEqual(after + 30_000);
	});

	test('hangAfter creates and charges, then never answers; the connection stays open until the client gives up', async () => {
		emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'hangAfter' }] });
		const gaveUp = request(`${emu.baseUrl}/api/v1/ai_video`, {
			method: 'POST',
			headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ model_id: 'wan-2.5', prompt: 'x' }),
			headersTimeout: 200,
		});
		await expect(gaveUp).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
		expect(emu.tasks()).toHaveLength(1);
		expect(emu.ledger()).toEqual([expect.objectContaining({ kind: 'charge' })]);
		expect(emu.requests({ path: '/api/v1/ai_video' })).toEqual([
			expect.objectContaining({ outcome: 'unanswered', status: 200 }),
		]);
	});

	test('resetBefore drops the connection before anything happens', async () => {
		emu.setFaults({
			failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'resetBefore' }],
		});
		await expect(
			api(emu, 'POST', '/api/v1/ai_video', { body: { model_id: 'wan-2.5', prompt: 'x' } }),
		).rejects.toThrow();
		expect(emu.tasks()).toEqual([]);
		expect(emu.ledger()).toEqual([]);
		expect(emu.requests({ path: '/api/v1/ai_video' })).toEqual([
			expect.objectContaining({ outcome: 'reset', status: 0, bodyBytes: expect.any(Number) }),
		]);
		expect(emu.requests()[0].bodyBytes).toBeGreaterThan(0);
	});

	test('resetAfter creates and charges, then drops the connection without answering', async () => {
		emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'resetAfter' }] });
		await expect(
			api(emu, 'POST', '/api/v1/ai_video', {
				body: { model_id: 'wan-2.5', prompt: 'x', client_request_id: 'lost-answer' },
			}),
		).rejects.toThrow();
		const tasks = emu.tasks();
		expect(tasks).toEqual([
			expect.objectContaining({
				kind: 'aiVideo',
				client_request_id: 'lost-answer',
				status: 'queued',
			}),
		]);
		expect(emu.ledger()).toEqual([
			expect.objectContaining({ kind: 'charge', refId: tasks[0].video_id }),
		]);
		expect(emu.requests({ path: '/api/v1/ai_video' })).toEqual([
			expect.objectContaining({ outcome: 'reset', status: 200 }),
		]);
		// The client's retry with the same key finds the task the lost answer named.
		const retry = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'wan-2.5', prompt: 'x', client_request_id: 'lost-answer' },
		});
		expect(retry.body.data.video_id).toBe(tasks[0].video_id);
		expect(emu.ledger()).toHaveLength(1);
	});

	test('respond answers with any status, headers and body, without processing the request', async () => {
		const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
		emu.setFaults({
			failNext: [
				{
					method: 'POST',
					path: '/api/v1/ai_video',
					kind: 'respond',
					respond: { status: 502, headers: { 'Content-Type': 'text/html' }, body: html },
				},
				{
					path: '/api/v1/billing/credits',
					kind: 'respond',
					respond: {
						status: 422,
						body: {
							error: { code: 422, message: null, details: [{ loc: ['body', 'x'], msg: 'bad' }] },
						},
					},
				},
				{ path: '/api/v1/billing/credits', kind: 'respond', respond: { status: 503 } },
				{
					path: '/api/v1/billing/credits',
					kind: 'respond',
					respond: { status: 500, bodyBase64: Buffer.from([0, 255, 1]).toString('base64') },
				},
				{
					path: '/media/sample.png',
					origin: 'media',
					kind: 'respond',
					respond: { status: 403, body: 'Access denied' },
				},
			],
		});
		const proxied = await api(emu, 'POST', '/api/v1/ai_video', {
			body: { model_id: 'wan-2.5', prompt: 'x' },
		});
		expect([proxied.status, proxied.headers['content-type'], proxied.raw.toString()]).toEqual([
			502,
			'text/html',
			html,
		]);
		expect(emu.tasks()).toEqual([]);
		expect(emu.ledger()).toEqual([]);
		const json = await credits();
		expect([json.status, json.body]).toEqual([
			422,
			{ error: { code: 422, message: null, details: [{ loc: ['body', 'x'], msg: 'bad' }] } },
		]);
		const empty = await credits();
		expect([empty.status, empty.raw.length]).toEqual([503, 0]);
		expect([...(await credits()).raw]).toEqual([0, 255, 1]);
		expect((await credits()).status).toBe(200);
		const media = await request(`${emu.mediaBaseUrl}/media/sample.png`);
		expect([media.statusCode, await media.body.text()]).toEqual([403, 'Access denied']);
		expect(emu.requests({ path: '/api/v1/ai_video' })).toEqual([
			expect.objectContaining({ status: 502, outcome: 'answered' }),
		]);
	});

	test('spendElsewhere: another program spends on the account when the entry hits, then the entry acts', async () => {
		const before = emu.balance();
		emu.setFaults({
			failNext: [
				{ path: '/api/v1/billing/credits', kind: 'http429', spendElsewhere: 20 },
				{
					path: '/api/v1/billing/credits',
					kind: 'respond',
					respond: { status: 200, body: { data: {} } },
					spendElsewhere: 1e9,
				},
			],
		});
		expect((await credits()).status).toBe(429);
		expect(emu.balance()).toBe(before - 20);
		expect(emu.ledger()).toEqual([
			expect.objectContaining({ kind: 'charge', operation: 'elsewhere', credits: 20 }),
		]);
		// Never more than the balance.
		await credits();
		expect(emu.balance()).toBe(0);
	});

	test('slow waits delayMs, then handles the request as usual: a fast request sent after it answers first', async () => {
		emu.setFaults({ failNext: [{ path: '/api/v1/billing/credits', kind: 'slow', delayMs: 300 }] });
		const answered: string[] = [];
		const slow = credits().then((answer) => answered.push(`credits ${answer.status}`));
		const fast = api(emu, 'GET', '/api/v1/voices').then((answer) =>
			answered.push(`voices ${answer.status}`),
		);
		await Promise.all([slow, fast]);
		expect(answered).toEqual(['voices 200', 'credits 200']);
		expect(emu.faults().failNext).toEqual([]);
	});

	test('after lets the first n matching requests through, then the entry hits for its count', async () => {
		emu.setFaults({
			failNext: [{ path: '/api/v1/billing/credits', kind: 'http503', after: 2, count: 2 }],
		});
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await credits()).status);
		expect(statuses).toEqual([200, 200, 503, 503, 200]);
		expect(emu.faults().failNext).toEqual([]);
	});

	test('forMs hits every matching request within a window of emulator time from its first hit, then is gone', async () => {
		const gateway = '<html><body><h1>502 Bad Gateway</h1></body></html>';
		emu.setFaults({
			failNext: [
				{
					path: '/api/v1/billing/credits',
					kind: 'respond',
					respond: { status: 502, headers: { 'Content-Type': 'text/html' }, body: gateway },
					after: 1,
					forMs: 60_000,
				},
			],
		});
		expect((await credits()).status).toBe(200);
		emu.advance(120_000);
		const statuses = [];
		for (let i = 0; i < 4; i++) {
			statuses.push((await credits()).status);
			emu.advance(20_000);
		}
		expect(statuses).toEqual([502, 502, 502, 200]);
		expect(emu.faults().failNext).toEqual([]);
	});

	test('bad fault scripts are refused', () => {
		expect(() => emu.setFaults({ failNext: [{ kind: 'http418' as never }] })).toThrow(
			/unknown fault kind/,
		);
		expect(() => emu.setFaults({ rate5xx: 2 })).toThrow(/0 to 1/);
		expect(() => emu.setFaults({ failNext: [{ kind: 'respond' }] })).toThrow(/respond\.status/);
		expect(() => emu.setFaults({ readLag: 1.5 })).toThrow(/readLag/);
		expect(() => emu.setFaults({ failNext: [{ kind: 'http500', spendElsewhere: -1 }] })).toThrow(
			/spendElsewhere/,
		);
		expect(() => emu.setFaults({ failNext: [{ kind: 'http500', after: -1 }] })).toThrow(/after/);
		expect(() => emu.setFaults({ failNext: [{ kind: 'http500', forMs: 0 }] })).toThrow(/forMs/);
	});
});

describe('read lag: a read replica behind the primary', () => {
	test('a task created with readLag 2 is missing from its first 2 reads of every kind, then shows; older tasks show at once', async () => {
		const ai = async () =>
			(
				await api(emu, 'POST', '/api/v1/ai_video', {
					body: { model_id: 'wan-2.5', prompt: 'x', client_request_id: 'lag-1' },
				})
			).body.data.video_id as string;
		const old = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id as string;
		emu.setFaults({ readLag: 2 });
		const id = await ai();
		const talking = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id as string;
		const single = () => api(emu, 'GET', '/api/v1/ai_video', { query: { video_id: id } });
		const batch = async () =>
			(
				(await api(emu, 'GET', '/api/v1/ai_video', { query: { video_ids: id } })).body.data
					.videos as Array<{ video_id: string }>
			).map((v) => v.video_id);
		const missing = await single();
		expect([missing.status, missing.body.error.code]).toEqual([404, 404]);
		expect(await batch()).toEqual([]);
		expect(await batch()).toEqual([id]);
		expect((await single()).status).toBe(200);
		// The same key again returns the same task: no new lag.
		expect(await ai()).toBe(id);
		expect(await batch()).toEqual([id]);
		// The talking video's list and single read count alike; a task made before the lag shows at once.
		const listed = async () =>
			(
				(await api(emu, 'GET', '/api/v1/videos')).body.data.videos as Array<{ video_id: string }>
			).map((v) => v.video_id);
		expect(await listed()).toEqual([old]);
		expect((await api(emu, 'GET', '/api/v1/video', { query: { video_id: talking } })).status).toBe(
			404,
		);
		expect(await listed()).toEqual([talking, old]);
		expect(emu.tasks()).toHaveLength(3);
		expect(emu.faults().readLag).toBe(2);
	});
});

describe('random faults', () => {
	async function statuses(target: Emulator, n: number): Promise<string[]> {
		const out: string[] = [];
		for (let i = 0; i < n; i++) {
			try {
				out.push(String((await api(target, 'GET', '/api/v1/billing/credits')).status));
			} catch {
				out.push('reset');
			}
		}
		return out;
	}

	test('the same seed fails the same requests; reset rewinds the sequence', async () => {
		const twin = await startEmulator({ clock: 'manual', seed: 7 });
		try {
			const faults = { rate5xx: 0.3, rate429: 0.3, resetRate: 0.2 };
			emu.setFaults(faults);
			twin.setFaults(faults);
			const a = await statuses(emu, 30);
			const b = await statuses(twin, 30);
			expect(a).toEqual(b);
			expect(new Set(a)).toEqual(new Set(['200', '500', '503', '429', 'reset']));
			emu.reset();
			emu.setFaults(faults);
			expect(await statuses(emu, 30)).toEqual(a);
		} finally {
			await twin.stop();
		}
	});

	test('a general 429 has Retry-After: 1 and no details; clearFaults stops everything', async () => {
		emu.setFaults({ rate429: 1 });
		const r = await credits();
		expect([r.status, r.headers['retry-after']]).toEqual([429, '1']);
		expect(r.body.error).not.toHaveProperty('details');
		emu.clearFaults();
		expect((await credits()).status).toBe(200);
	});

	test('latencyMs delays every API request', async () => {
		emu.setFaults({ latencyMs: 150 });
		const started = Date.now();
		expect((await credits()).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	test('faults never touch /__emulator or the media origin unless a script aims at the media origin', async () => {
		emu.setFaults({ rate5xx: 1, failNext: [{ kind: 'resetBefore' }] });
		const admin = await request(`${emu.baseUrl}/__emulator/config`);
		expect(admin.statusCode).toBe(200);
		await admin.body.dump();
		const media = await request(`${emu.mediaBaseUrl}/media/sample.png`);
		expect(media.statusCode).toBe(200);
		await media.body.dump();
		expect(emu.faults().failNext).toHaveLength(1);

		emu.setFaults({
			rate5xx: 0,
			failNext: [{ origin: 'media', path: '/media/sample.mp4', kind: 'http503' }],
		});
		const api200 = await api(emu, 'GET', '/api/v1/models');
		expect(api200.status).toBe(200);
		const media503 = await request(`${emu.mediaBaseUrl}/media/sample.mp4`);
		expect(media503.statusCode).toBe(503);
		await media503.body.dump();
	});

	test('media scripts: resetBefore drops, truncateBody cuts a download halfway', async () => {
		emu.setFaults({
			failNext: [
				{ origin: 'media', path: '/media/blob', kind: 'resetBefore' },
				{ origin: 'media', path: '/media/blob', kind: 'truncateBody' },
			],
		});
		await expect(request(`${emu.mediaBaseUrl}/media/blob?bytes=1000`)).rejects.toThrow();
		const cut = await request(`${emu.mediaBaseUrl}/media/blob?bytes=4000000`);
		expect(cut.headers['content-length']).toBe('4000000');
		let got = 0;
		await expect(
			(async () => {
				for await (const chunk of cut.body) got += (chunk as Buffer).length;
			})(),
		).rejects.toThrow();
		expect(got).toBeLessThan(4_000_000);
		expect(emu.requests({ origin: 'media' }).map((e) => e.outcome)).toEqual(['reset', 'reset']);
	});

	test('media scripts: http403 and http404 refuse a file as a CDN does', async () => {
		emu.setFaults({
			failNext: [
				{ origin: 'media', path: '/media/sample.png', kind: 'http403' },
				{ origin: 'media', path: '/media/sample.png', kind: 'http404' },
			],
		});
		const statuses: number[] = [];
		for (let n = 0; n < 3; n++) {
			const res = await request(`${emu.mediaBaseUrl}/media/sample.png`);
			statuses.push(res.statusCode);
			await res.body.dump();
		}
		expect(statuses).toEqual([403, 404, 200]);
	});
});

describe('introspection over HTTP', () => {
	async function admin(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<any> {
		const res = await request(`${emu.baseUrl}${path}`, {
			method: method as 'GET',
			headers: { 'content-type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: res.statusCode, body: await res.body.json() };
	}

	test('config, faults, clock, accounts, ledger, tasks, requests and reset', async () => {
		expect(
			(
				await admin('POST', '/__emulator/config', {
					renderMs: 2000,
					aiConcurrencyCap: 1,
					concurrencyDetailsAsString: true,
				})
			).body,
		).toMatchObject({
			renderMs: 2000,
			queueMs: 500,
			aiConcurrencyCap: 1,
			concurrencyDetailsAsString: true,
		});
		expect((await admin('POST', '/__emulator/config', { renderMs: 'fast' })).status).toBe(400);
		expect(
			(
				await admin('POST', '/__emulator/accounts', {
					apiKey: 'sk-vs-admin-made-6666',
					credits: 50,
				})
			).body,
		).toEqual({ account: 'acct_2' });

		const first = await api(emu, 'POST', '/api/v1/ai_video', {
			key: 'sk-vs-admin-made-6666',
			body: { model_id: 'wan-2.5', prompt: 'x', duration_sec: 2, resolution: '480p' },
		});
		const capped = await api(emu, 'POST', '/api/v1/ai_video', {
			key: 'sk-vs-admin-made-6666',
			body: { model_id: 'wan-2.5', prompt: 'y' },
		});
		expect(JSON.parse(capped.body.error.details)).toEqual({ limit: 1, in_flight: 1 });

		const tasks = (await admin('GET', '/__emulator/tasks?account=acct_2')).body.tasks;
		expect(tasks).toEqual([
			expect.objectContaining({ video_id: first.body.data.video_id, status: 'queued' }),
		]);
		const t0 = (await admin('GET', '/__emulator/clock')).body;
		expect(t0.mode).toBe('manual');
		expect((await admin('POST', '/__emulator/clock/advance', { ms: 2000 })).body.now).toBe(
			t0.now + 2000,
		);
		expect(
			(await admin('GET', '/__emulator/tasks', undefined, { 'x-api-key': 'sk-vs-admin-made-6666' }))
				.body.tasks[0].status,
		).toBe('created');

		expect((await admin('GET', '/__emulator/ledger?account=acct_2')).body.entries).toEqual([
			expect.objectContaining({ credits: 4, balance: 46, account: 'acct_2' }),
		]);
		expect((await admin('GET', '/__emulator/balance?account=acct_2')).body).toEqual({
			account: 'acct_2',
			balance: 46,
		});

		expect(
			(await admin('POST', '/__emulator/faults', { failNext: [{ kind: 'http500' }] })).body
				.failNext,
		).toEqual([{ kind: 'http500' }]);
		expect((await credits()).status).toBe(500);
		await admin('POST', '/__emulator/faults', { rate5xx: 1 });
		expect((await admin('DELETE', '/__emulator/faults')).body).toEqual({
			rate5xx: 0,
			rate429: 0,
			resetRate: 0,
			latencyMs: 0,
			readLag: 0,
			failNext: [],
		});

		const log = (await admin('GET', '/__emulator/requests?origin=api&method=POST')).body.entries;
		expect(log.map((e: any) => [e.path, e.status, e.account])).toEqual([
			['/api/v1/ai_video', 200, 'acct_2'],
			['/api/v1/ai_video', 429, 'acct_2'],
		]);
		expect(JSON.stringify((await admin('GET', '/__emulator/requests')).body)).not.toContain(
			'sk-vs-admin-made-6666',
		);
		expect((await admin('DELETE', '/__emulator/requests')).body).toEqual({ cleared: true });
		expect(emu.requests()).toEqual([]);

		expect((await admin('POST', '/__emulator/reset')).body).toEqual({ reset: true });
		expect(emu.config().aiConcurrencyCap).toBe(3);
		expect(emu.balance('sk-vs-admin-made-6666')).toBe(50);
		expect(emu.tasks()).toEqual([]);
		expect((await admin('GET', '/__emulator/nothing')).status).toBe(404);
	});
});
