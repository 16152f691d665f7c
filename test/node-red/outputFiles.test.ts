import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, run, useEmulator } from './support';

/**
 * Issue 38: no two results on one path within a deploy (defect 5), and `{ext}` from what the file is
 * when its link has no extension and its type says nothing (item 7).
 */
const env = useEmulator();
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(env.emulator);
});

/** The next `count` messages a helper node receives. */
function received(id: string, count: number): Promise<Array<Record<string, unknown>>> {
	const node = helper.getNode(id) as unknown as {
		on(event: 'input', cb: (msg: Record<string, unknown>) => void): void;
	};
	const messages: Array<Record<string, unknown>> = [];
	return new Promise((resolve) =>
		node.on('input', (msg) => {
			messages.push(msg);
			if (messages.length === count) resolve(messages);
		}),
	);
}

const talking = (outputFile: string) => ({
	type: 'visionstory-talking-video',
	operation: 'create',
	avatarId,
	voiceId: 'Alice',
	scriptType: 'text',
	waitForCompletion: true,
	pollIntervalSeconds: 5,
	downloadResult: true,
	outputFile,
});

test('a fixed Output File across single messages: every paid video its own file, each message naming its path', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'vs-nr-fixed-'));
	await helper.load(
		ALL_NODES,
		flowWith(talking(join(dir, 'video.mp4')), env.emulator.baseUrl),
		credentials(env.emulator.apiKey),
	);
	// Two messages at once: both videos finish together and are written side by side.
	const sent = received('out1', 2);
	const node = helper.getNode('n1') as unknown as { receive(m: unknown): void };
	node.receive({ payload: 'First video.' });
	node.receive({ payload: 'Second video.' });
	const messages = await sent;
	const paths = messages.map((m) => m.filename as string).sort();
	expect(paths).toEqual([join(dir, 'video-2.mp4'), join(dir, 'video.mp4')]);
	for (const m of messages) expect(m.payload).toBe(m.filename);
	expect(readdirSync(dir).sort()).toEqual(['video-2.mp4', 'video.mp4']);
	for (const path of paths) expect(statSync(path).size).toBeGreaterThan(1000);
	expect(env.emulator.tasks()).toHaveLength(2);
});

test('a link without an extension served as application/octet-stream is saved with its kind’s extension', async () => {
	// Drift mode: media links without an extension, served as application/octet-stream.
	env.emulator.setConfig({ drift: true });
	const dir = mkdtempSync(join(tmpdir(), 'vs-nr-ext-'));
	await helper.load(
		ALL_NODES,
		flowWith(talking(join(dir, 'talking-{id}.{ext}')), env.emulator.baseUrl),
		credentials(env.emulator.apiKey),
	);
	const { output, msg } = await run({ payload: 'No extension.' });
	expect(output).toBe('out1');
	const videoId = (msg.visionstory as { video_id: string; video_url: string }).video_id;
	expect((msg.visionstory as { video_url: string }).video_url).toMatch(/\/media\/videos\/[^/.]+$/);
	expect(msg.filename).toBe(join(dir, `talking-${videoId}.mp4`));
	expect(msg.mimetype).toBe('video/mp4');
	expect(existsSync(msg.filename as string)).toBe(true);
});

test('an image downloaded into msg.payload is named after its kind when its link says nothing', async () => {
	env.emulator.setConfig({ drift: true });
	await helper.load(
		ALL_NODES,
		flowWith(
			{
				type: 'visionstory-image',
				operation: 'generate',
				modelId: 'nano-banana-2',
				downloadResult: true,
			},
			env.emulator.baseUrl,
		),
		credentials(env.emulator.apiKey),
	);
	const { output, msg } = await run({ payload: 'A red kite' });
	expect(output).toBe('out1');
	expect(Buffer.isBuffer(msg.payload)).toBe(true);
	expect(msg.mimetype).toBe('image/png');
	expect(msg.filename).toMatch(/\.png$/);
});
