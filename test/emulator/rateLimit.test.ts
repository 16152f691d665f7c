import type { Emulator } from './index';
import { startEmulator } from './index';
import { api } from './testkit';

let emu: Emulator;
const OTHER_KEY = 'sk-vs-emulator-other-rate-000000000';

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
});
afterAll(async () => await emu.stop());
beforeEach(() => {
	emu.reset();
	emu.addAccount(OTHER_KEY, 100);
});

test('without a rate limit, a burst is answered in full', async () => {
	const answers = await Promise.all(
		Array.from({ length: 30 }, () => api(emu, 'GET', '/api/v1/billing/credits')),
	);
	expect(answers.every((a) => a.status === 200)).toBe(true);
});

test('above the per-key rate, 429 with Retry-After and a hint; another key and the next second are not affected', async () => {
	emu.setConfig({ rateLimitPerSecond: 3 });
	const first = await Promise.all(
		Array.from({ length: 5 }, () => api(emu, 'GET', '/api/v1/billing/credits')),
	);
	expect(first.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429]);
	const refused = first.find((a) => a.status === 429)!;
	expect(refused.headers['retry-after']).toBe('1');
	expect(refused.body.error).toMatchObject({
		code: 429,
		message: expect.stringMatching(/at most 3 requests per second/),
		hint: expect.stringMatching(/Retry-After/),
	});
	expect(refused.body.error.details).toBeUndefined();
	expect((await api(emu, 'GET', '/api/v1/billing/credits', { key: OTHER_KEY })).status).toBe(200);
	// Refused requests are not counted: a second later the key has its full rate again.
	emu.advance(999);
	expect((await api(emu, 'GET', '/api/v1/billing/credits')).status).toBe(429);
	emu.advance(1);
	const next = await Promise.all(
		Array.from({ length: 3 }, () => api(emu, 'GET', '/api/v1/billing/credits')),
	);
	expect(next.every((a) => a.status === 200)).toBe(true);
	expect(
		emu.requests({ path: '/api/v1/billing/credits' }).filter((r) => r.status === 429),
	).toHaveLength(3);
});

test('the list of talking videos can be made to ignore its cursor, carry no statuses, or be missing', async () => {
	for (let i = 0; i < 25; i++) {
		const created = await api(emu, 'POST', '/api/v1/video', {
			body: {
				avatar_id: (
					await api(emu, 'GET', '/api/v1/avatars', { query: { is_public: true, limit: 1 } })
				).body.data.avatars[0].avatar_id,
				text_script: { text: `Line ${i}`, voice_id: 'Alice' },
			},
		});
		expect(created.status).toBe(200);
	}
	const paged = await api(emu, 'GET', '/api/v1/videos', { query: { limit: 10, cursor: 0 } });
	const second = await api(emu, 'GET', '/api/v1/videos', {
		query: { limit: 10, cursor: paged.body.data.next_cursor },
	});
	expect(second.body.data.videos[0].video_id).not.toBe(paged.body.data.videos[0].video_id);

	emu.setConfig({ talkingVideoList: 'ignoresCursor' });
	const a = await api(emu, 'GET', '/api/v1/videos', { query: { limit: 100 } });
	const b = await api(emu, 'GET', '/api/v1/videos', {
		query: { limit: 100, cursor: a.body.data.next_cursor },
	});
	expect(a.body.data.videos).toHaveLength(20);
	expect(a.body.data.next_cursor).not.toBe(0);
	expect(b.body.data.videos).toEqual(a.body.data.videos);

	emu.setConfig({ talkingVideoList: 'idsOnly' });
	const ids = await api(emu, 'GET', '/api/v1/videos');
	expect(Object.keys(ids.body.data.videos[0]).sort()).toEqual(['created_at', 'video_id']);

	emu.setConfig({ talkingVideoList: 'absent' });
	expect((await api(emu, 'GET', '/api/v1/videos')).status).toBe(404);
	expect(() => emu.setConfig({ talkingVideoList: 'sometimes' as never })).toThrow(
		/one of paged, ignoresCursor, idsOnly, absent/,
	);
});
