// The switches the trigger's tests use: a talking-video list of ids only (paged), and created_at
// reported up to a few seconds before submission.
import type { Emulator } from './index';
import { startEmulator } from './index';
import { api, TEXT_SCRIPT } from './testkit';

let emu: Emulator;
let avatarId: string;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
	avatarId = (await api(emu, 'GET', '/api/v1/avatars', { query: { is_public: true, limit: 1 } }))
		.body.data.avatars[0].avatar_id;
});
afterAll(async () => await emu.stop());
beforeEach(() => emu.reset());

async function talkingVideo(): Promise<string> {
	const created = await api(emu, 'POST', '/api/v1/video', {
		body: { avatar_id: avatarId, text_script: TEXT_SCRIPT },
	});
	return created.body.data.video_id;
}

test('idsOnly: entries of video_id and created_at only, paged by cursor and limit like the full list', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 5; i++) ids.push(await talkingVideo());
	emu.setConfig({ talkingVideoList: 'idsOnly' });
	const first = await api(emu, 'GET', '/api/v1/videos', { query: { limit: 3 } });
	const second = await api(emu, 'GET', '/api/v1/videos', {
		query: { limit: 3, cursor: first.body.data.next_cursor },
	});
	const listed = [...first.body.data.videos, ...second.body.data.videos];
	expect(listed.map((v: { video_id: string }) => v.video_id)).toEqual([...ids].reverse());
	expect(listed.every((v: object) => Object.keys(v).sort().join() === 'created_at,video_id')).toBe(
		true,
	);
	expect(second.body.data.next_cursor).toBe(0);
});

test('createdAtSkewSeconds: off by default; on, created_at is up to that many seconds early, the same in every answer', async () => {
	const plain = await talkingVideo();
	const second = Math.floor(emu.now() / 1000);
	expect(
		(await api(emu, 'GET', '/api/v1/video', { query: { video_id: plain } })).body.data.created_at,
	).toBe(second);

	emu.setConfig({ createdAtSkewSeconds: 5 });
	const skewed: string[] = [];
	for (let i = 0; i < 20; i++) skewed.push(await talkingVideo());
	const single = await Promise.all(
		skewed.map(
			async (id) =>
				(await api(emu, 'GET', '/api/v1/video', { query: { video_id: id } })).body.data.created_at,
		),
	);
	expect(single.every((at: number) => at <= second && at >= second - 5)).toBe(true);
	expect(new Set(single).size).toBeGreaterThan(1);
	const listed = (await api(emu, 'GET', '/api/v1/videos', { query: { limit: 100 } })).body.data
		.videos as Array<{ video_id: string; created_at: number }>;
	for (const [i, id] of skewed.entries())
		expect(listed.find((v) => v.video_id === id)?.created_at).toBe(single[i]);
	// Still listed in the order they were added.
	expect(listed.slice(0, 20).map((v) => v.video_id)).toEqual([...skewed].reverse());
	// The switch applies to tasks submitted afterwards; reset turns it off.
	emu.reset();
	expect(emu.config().createdAtSkewSeconds).toBe(0);
});
