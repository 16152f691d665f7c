jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { speechAudio } from '../emulator/speechAudio';
import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';

/**
 * The main workflows of every node with the emulator in drift mode: unknown fields everywhere, other
 * shapes for the parts the contract leaves open, odd model entries, the unknown status `moderating`
 * before the real one, result links without an extension served as application/octet-stream.
 */
const RENDER_MS = 60_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS }, { binaryMode: 'filesystem' });
const fixture = (name: string) => readFileSync(join(__dirname, '../emulator/media', name));
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});
beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS, drift: true });
});

test('Talking Video: create waits through "moderating", downloads the MP4 from a link without an extension; get, get many, models', async () => {
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
	expect(created.json.video_url).toMatch(/\/media\/videos\/[^/.]+$/);
	expect(created.json.x_drift_note).toEqual(expect.any(String));
	expect(created.binary?.data).toMatchObject({
		mimeType: 'video/mp4',
		fileExtension: 'mp4',
		fileName: `${created.json.video_id as string}.mp4`,
	});
	expect((await result.binary('Create Talking Video')).equals(fixture('sample.mp4'))).toBe(true);
	expect(result.output('Get Talking Video')[0].json).toMatchObject({
		video_id: created.json.video_id,
		status: 'created',
	});
	expect(result.output('Get Many Talking Videos').map((i) => i.json.video_id)).toEqual([
		created.json.video_id,
	]);
	const models = result.output('List Talking Video Models');
	expect(models.map((i) => i.json.model_id)).toEqual(['vs_character_v4', 'vs_character_v3']);
	expect(models[1].json.resolutions).toEqual(['720p', '1080p']);
	// The unknown status was seen and waited through.
	const polls = engine.emu.requests({ method: 'GET', path: '/api/v1/video' });
	expect(polls.length).toBeGreaterThan(1);
});

test('AI Video: create with frames and references, get, get several, get many, estimate, models with odd entries all listed', async () => {
	const result = await engine.run('test/workflows/ai-video.json', [
		{
			modelId: 'seedance-1.0-pro',
			duration: 10,
			resolution: '1080p',
			prompt: 'The sneaker turns slowly on a marble plinth',
		},
	]);
	expect(result.error).toBeUndefined();
	const [created] = result.output('Create AI Video');
	expect(created.json).toMatchObject({
		status: 'created',
		model_id: 'seedance-1.0-pro',
		resolution: '1080p',
		duration_sec: 10,
	});
	expect((await result.binary('Create AI Video')).equals(fixture('sample.mp4'))).toBe(true);
	expect(result.output('Get Several AI Videos').map((i) => i.json.video_id)).toEqual([
		created.json.video_id,
	]);
	expect(result.output('Estimate Cost')[0].json.credit).toBe(created.json.cost_credit);
	expect(result.output('List AI Video Models').map((i) => i.json.model_id)).toEqual([
		'seedance-1.0-pro',
		'wan-2.5',
		'kling-3.0',
		'kling-3.0-omni',
	]);
});

test("AI Video: models whose params are absent or unreadable are still usable, with the service's defaults", async () => {
	const items = ['seedance-1.0-pro', 'wan-2.5', 'kling-3.0', 'kling-3.0-omni'].map((modelId) => ({
		modelId,
		prompt: `A short clip with ${modelId}`,
	}));
	const result = await engine.run('test/workflows/ai-video-batch.json', items);
	expect(result.error).toBeUndefined();
	const output = result.output('Create AI Videos');
	expect(output.map((i) => [i.json.model_id, i.json.status])).toEqual(
		items.map((i) => [i.modelId, 'created']),
	);
	expect(engine.emu.tasks().map((t) => t.status)).toEqual(Array(4).fill('created'));
});

test('Image: a model with a boolean among its values, null defaults and a null price generates; the PNG is labelled from an octet-stream download', async () => {
	const result = await engine.run('test/workflows/image.json', [
		{ prompt: 'The bottle on a beach at sunset' },
	]);
	expect(result.error).toBeUndefined();
	const [image] = result.output('Generate Image');
	expect(image.json).toMatchObject({ model_id: 'nano-banana-2', cost_credit: 6 });
	expect(image.binary?.image).toMatchObject({ mimeType: 'image/png', fileExtension: 'png' });
	expect((await result.binary('Generate Image', 0, 'image')).equals(fixture('sample.png'))).toBe(
		true,
	);
	const models = result.output('List Image Models');
	expect(models).toHaveLength(7);
	const banana = models.find((m) => m.json.model_id === 'nano-banana-2')!.json;
	expect(banana.credit_by_resolution).toEqual({ '1K': 4, '2K': 6 });
	expect((banana.params as { resolution: { values: unknown[] } }).resolution.values).toEqual([
		'1K',
		'2K',
	]);
});

test('Text to Speech, Align and Transcribe (answers of a guessed shape, numbers as strings)', async () => {
	const text = 'Hello there. Thanks for watching.';
	const result = await engine.run('test/workflows/align.json', [{ text }]);
	expect(result.error).toBeUndefined();
	expect((await result.binary('Synthesize Speech')).equals(speechAudio(text.length).mp3)).toBe(
		true,
	);
	const words = result.output('Align Words')[0].json.words as Array<{ text: string }>;
	expect(words.map((w) => w.text).join(' ')).toBe(text);
	const [transcript] = result.output('Transcribe');
	expect(typeof transcript.json.duration_sec).toBe('number');
	expect(typeof transcript.json.cost_credit).toBe('number');
	expect((await result.binary('Transcribe')).toString('utf8')).toBe(transcript.json.srt);
});

test('Understand: the output follows the schema; usage and cost are read', async () => {
	const result = await engine.run('test/workflows/understand.json');
	expect(result.error).toBeUndefined();
	const [fields] = result.output('Analyze With Fields');
	expect(['happy', 'calm', 'sad']).toContain((fields.json.output as { mood: string }).mood);
	expect(fields.json.cost_credit).toBeGreaterThanOrEqual(1);
	expect(result.output('Analyze With JSON Schema')[0].json.output).toEqual({
		category: 'product',
		confidence: 0,
	});
});

test('Avatar, Voice, Asset and Account', async () => {
	const avatar = await engine.run('test/workflows/avatar.json');
	expect(avatar.error).toBeUndefined();
	expect(avatar.output('Update Framing')[0].json).toMatchObject({
		aspect_ratio: '1:1',
		zoom: 1.5,
		offset_x: 0,
		offset_y: 0,
	});
	expect(avatar.output('Delete Avatar')[0].json).toMatchObject({ deleted: true });
	expect(avatar.output('Get Public Avatars')).toHaveLength(3);

	const voice = await engine.run('test/workflows/voice.json');
	expect(voice.error).toBeUndefined();
	expect(voice.output('Get British Voices').every((v) => v.json.locale === 'en-GB')).toBe(true);
	expect(voice.output('Delete Voice')[0].json).toMatchObject({ deleted: true });

	const asset = await engine.run('test/workflows/asset.json');
	expect(asset.error).toBeUndefined();
	expect(asset.output('Upload Asset')[0].json).toMatchObject({
		kind: 'image',
		mime: 'image/png',
		width: 512,
		height: 512,
	});
	expect(asset.output('Get Image Assets').map((a) => a.json.asset_id)).toEqual([
		asset.output('Upload Asset')[0].json.asset_id,
	]);

	const account = await engine.run('test/workflows/account.json');
	expect(account.error).toBeUndefined();
	// Unknown fields reach the output; a number sent as text is read as the number.
	expect(account.output('Get Credits')[0].json).toMatchObject({
		credits: engine.emu.balance(),
		plan: 'pro',
		x_drift_note: expect.any(String),
	});
});

test("with driftErrors, reads survive a proxy's HTML 502 and an empty 503 before the answer", async () => {
	engine.emu.setConfig({ driftErrors: true });
	const result = await engine.run('test/workflows/account.json');
	expect(result.error).toBeUndefined();
	expect(result.output('Get Credits')[0].json.credits).toBe(engine.emu.balance());
	expect(engine.emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.status)).toEqual([
		502, 503, 200,
	]);
});
