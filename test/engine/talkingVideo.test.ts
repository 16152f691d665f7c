jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';

const RENDER_MS = 90_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS }, { binaryMode: 'filesystem' });
const sampleMp4 = readFileSync(join(__dirname, '../emulator/media/sample.mp4'));
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});
beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS });
});

test('create waits, downloads the video, then get, delete, get many and list models', async () => {
	const result = await engine.run('test/workflows/talking-video.json', [
		{ avatarId, text: 'Our spring sale starts today!' },
	]);
	expect(result.error).toBeUndefined();

	const [created] = result.output('Create Talking Video');
	expect(created.json).toMatchObject({
		status: 'created',
		aspect_ratio: '16:9',
		resolution: '1080p',
	});
	expect(created.pairedItem).toEqual({ item: 0 });
	expect(created.binary?.data).toMatchObject({ mimeType: 'video/mp4', fileExtension: 'mp4' });
	expect(created.binary?.data.fileName).toMatch(/\.mp4$/);
	expect((await result.binary('Create Talking Video')).equals(sampleMp4)).toBe(true);

	// Deleted at the end of the workflow, so the ledger tells what was made.
	const charges = engine.emu.ledger().filter((e) => e.kind === 'charge');
	expect(charges).toHaveLength(1);
	const task = { video_id: charges[0].refId };
	expect(created.json.video_id).toBe(task.video_id);
	expect(engine.emu.tasks()).toHaveLength(0);

	const [got] = result.output('Get Talking Video');
	expect(got.json).toMatchObject({ video_id: task.video_id, status: 'created' });
	expect((await result.binary('Get Talking Video')).equals(sampleMp4)).toBe(true);

	expect(result.output('Delete Talking Video')[0].json).toEqual({
		video_id: task.video_id,
		deleted: true,
	});

	const many = result.output('Get Many Talking Videos');
	expect(many.map((i) => i.json.video_id)).toEqual([task.video_id]);
	expect(many.every((i) => i.json.status === 'created')).toBe(true);

	const models = result.output('List Talking Video Models');
	expect(models.map((i) => i.json.model_id)).toContain('vs_character_v4');
	expect(models.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);

	// The request carried what the parameters said.
	const create = engine.emu.requests({ method: 'POST', path: '/api/v1/video' });
	expect(create).toHaveLength(1);
});

test('an audio script from binary with voice change returns the id at once without waiting', async () => {
	const result = await engine.run('test/workflows/talking-video-audio.json', [{ avatarId }]);
	expect(result.error).toBeUndefined();
	const [item] = result.output('Create From Recording');
	const [task] = engine.emu.tasks();
	// Not waited on, the video is read once right after its create: its state and price come with its id.
	expect(item.json).toMatchObject({
		video_id: task.video_id,
		status: 'queued',
		cost_credit: 10,
		creditsSpentInExecution: 10,
		maxCreditsPerExecution: null,
	});
	expect(item.json.priceNote).toBeUndefined();
	expect(item.json.existingVideo).toBeUndefined();
	expect(task.status).toBe('queued');
	expect(engine.emu.requests({ method: 'GET', path: '/api/v1/video' })).toHaveLength(1);
});

test('ten items render together: the batch takes about one render time, not ten', async () => {
	const items = Array.from({ length: 10 }, (_, i) => ({
		avatarId,
		text: `Personal greeting number ${i + 1}`,
	}));
	const started = engine.emu.now();
	const result = await engine.run('test/workflows/talking-video-batch.json', items);
	expect(result.error).toBeUndefined();
	const output = result.output('Create Talking Videos');
	expect(output.map((i) => i.json.status)).toEqual(Array(10).fill('created'));
	expect(output.map((i) => i.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	const tasks = engine.emu.tasks();
	expect(tasks).toHaveLength(10);
	// All were submitted before the first finished, and the last finished within one render of the first submission.
	const lastSubmitted = Math.max(...tasks.map((t) => t.submittedAt));
	const firstFinished = Math.min(...tasks.map((t) => t.finishedAt!));
	expect(lastSubmitted).toBeLessThan(firstFinished);
	expect(Math.max(...tasks.map((t) => t.finishedAt!)) - started).toBeLessThan(RENDER_MS * 1.5);
	expect(engine.emu.now() - started).toBeLessThan(RENDER_MS + 2 * 5000 + 1000);
});

test('Retry On Fail after connection resets re-runs the node without a second task or charge', async () => {
	// More resets than the client retries: the node fails once, and n8n runs it again.
	engine.emu.setFaults({
		failNext: [{ method: 'POST', path: '/api/v1/video', kind: 'resetAfter', count: 5 }],
	});
	const result = await engine.run('test/workflows/talking-video-retry.json', [
		{ avatarId, text: 'First item' },
		{ avatarId, text: 'Second item' },
	]);
	expect(result.error).toBeUndefined();
	const posts = engine.emu.requests({ method: 'POST', path: '/api/v1/video' });
	expect(posts.length).toBeGreaterThan(5);
	expect(posts.filter((p) => p.outcome === 'reset')).toHaveLength(5);
	const tasks = engine.emu.tasks();
	expect(tasks).toHaveLength(2);
	expect(new Set(tasks.map((t) => t.client_request_id)).size).toBe(2);
	expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	expect(
		result
			.output('Create Talking Video')
			.map((i) => i.json.video_id)
			.sort(),
	).toEqual(tasks.map((t) => t.video_id).sort());
});

test('a new execution of the same workflow creates new videos', async () => {
	await engine.run('test/workflows/talking-video-retry.json', [{ avatarId, text: 'Same text' }]);
	await engine.run('test/workflows/talking-video-retry.json', [{ avatarId, text: 'Same text' }]);
	expect(engine.emu.tasks()).toHaveLength(2);
});

test('a failed render fails the node and names the video; the charge is refunded', async () => {
	const result = await engine.run('test/workflows/talking-video-batch.json', [
		{ avatarId, text: 'Works fine' },
		{ avatarId, text: 'This one will [fail] to render' },
	]);
	expect(result.error?.message).toMatch(/Talking video vid_\w+ failed/);
	expect(engine.emu.ledger().filter((e) => e.kind === 'refund')).toHaveLength(1);
});

test('under continue-on-fail a failed render is an error item with its id and the refund, the rest succeed', async () => {
	const result = await engine.run('test/workflows/talking-video-continue.json', [
		{ avatarId, text: 'Works fine' },
		{ avatarId, text: 'This one will [fail] to render' },
		{ avatarId: '', text: 'No avatar given' },
	]);
	expect(result.error).toBeUndefined();
	const [ok, failed, invalid] = result.output('Create Talking Videos');
	expect(ok.json.status).toBe('created');
	expect(ok.pairedItem).toEqual({ item: 0 });
	const failedId = engine.emu.tasks().find((t) => t.status === 'failed')!.video_id;
	expect(failed.json).toMatchObject({
		video_id: failedId,
		error: expect.stringContaining(failedId),
		hint: expect.stringMatching(/refunded/),
	});
	expect(failed.pairedItem).toEqual({ item: 1 });
	expect(invalid.json.error).toMatch(/"Avatar" \(avatarId\)/);
	expect(invalid.pairedItem).toEqual({ item: 2 });
	expect(engine.emu.tasks()).toHaveLength(2);
});
