import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, next, run } from './support';

let emulator: Emulator;
let avatarId: string;

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
beforeEach(() => emulator.reset());
afterEach(async () => await helper.unload());

function talking(extra: Record<string, unknown> = {}) {
	return {
		type: 'visionstory-talking-video',
		operation: 'create',
		avatarId,
		voiceId: 'Alice',
		scriptType: 'text',
		waitForCompletion: true,
		pollIntervalSeconds: 5,
		downloadResult: true,
		...extra,
	};
}

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

const charges = () => emulator.ledger().filter((e) => e.kind === 'charge');

describe('Talking Video → Create', () => {
	it('submits a batch, waits on all of it together, and sends the files in input order', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(talking(), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const statuses: string[] = [];
		helper
			.getNode('n1')
			.on('call:status', (call: { args: Array<{ text?: string }> }) =>
				statuses.push(call.args[0]?.text ?? ''),
			);
		const { output, msg } = await run({
			_msgid: 'm1',
			payload: ['One.', 'Two.', { text: 'Three.', voiceId: 'Echo' }],
		});
		expect(output).toBe('out1');
		await new Promise((r) => setImmediate(r));
		expect(statuses).toEqual(
			expect.arrayContaining([
				'submitting 0/3',
				'submitting 2/3',
				'rendering 3',
				'done · 30 credits',
			]),
		);
		const files = msg.payload as Buffer[];
		expect(files).toHaveLength(3);
		for (const file of files)
			expect(Buffer.isBuffer(file) && file.subarray(4, 8).toString('latin1')).toBe('ftyp');
		const tasks = msg.visionstory as Array<{ video_id: string; status: string }>;
		expect(tasks.map((t) => t.status)).toEqual(['created', 'created', 'created']);
		expect(charges()).toHaveLength(3);
		expect(emulator.requests({ method: 'POST', path: '/api/v1/video' })).toHaveLength(3);
	});

	it('never creates twice for the same message sent again, and anew for a new message', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(talking({ waitForCompletion: false }), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const first = await run({ _msgid: 'same', payload: 'Hello.' });
		const again = await run({ _msgid: 'same', payload: 'Hello.' });
		expect((again.msg.payload as { video_id: string }).video_id).toBe(
			(first.msg.payload as { video_id: string }).video_id,
		);
		expect(emulator.tasks()).toHaveLength(1);
		await run({ _msgid: 'other', payload: 'Hello.' });
		expect(emulator.tasks()).toHaveLength(2);
	});

	it('sends a failed render by the failure output (output 2) with the service message and hint', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(talking(), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ _msgid: 'm2', payload: 'This one [fail]s.' });
		expect(output).toBe('failed');
		const error = msg.error as {
			message: string;
			source: { type: string };
			cause: { hint?: string; videoIds?: string[] };
		};
		expect(error.source.type).toBe('visionstory-talking-video');
		expect(error.message).toMatch(/failed/i);
		expect(error.cause.videoIds).toHaveLength(1);
		expect(error.message).toContain(error.cause.hint ?? '(no hint)');
	});

	it('refuses a bad input before anything is sent, naming the field', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(talking({ voiceId: '' }), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ _msgid: 'm3', payload: ['Fine.', 'Also fine.'] });
		expect(output).toBe('failed');
		expect((msg.error as { message: string }).message).toContain('"Voice" (voiceId) is required');
		expect(emulator.requests({ origin: 'api' })).toHaveLength(0);
		expect(charges()).toHaveLength(0);
	});

	it("keeps a message within the config node's spend cap", async () => {
		await helper.load(
			ALL_NODES,
			flowWith(talking({ waitForCompletion: false }), emulator.baseUrl, {
				maxCreditsPerMessage: '10',
			}),
			credentials(emulator.apiKey),
		);
		const failed = next('failed');
		await run({ _msgid: 'm4', payload: ['One.', 'Two.'] });
		const errors = (await failed).errors as Array<{ index: number; message: string }>;
		expect(errors).toHaveLength(1);
		expect(errors[0].message).toContain('Max credits per message (10) would be passed');
		expect(charges()).toHaveLength(1);
	});
});

describe('Talking Video → Check Status', () => {
	it('sends a video still rendering to output 3 and a finished one to output 1', async () => {
		emulator.setConfig({ renderMs: 1500 });
		await helper.load(
			ALL_NODES,
			flowWith(talking({ waitForCompletion: false }), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const created = await run({ _msgid: 'm5', payload: 'Hi.' });
		await helper.unload();
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					type: 'visionstory-talking-video',
					operation: 'check',
					downloadResult: false,
					outputs: 3,
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const rendering = await run({ payload: created.msg.payload });
		expect(rendering.output).toBe('out3');
		await new Promise((r) => setTimeout(r, 1600));
		const done = await run({ payload: created.msg.payload });
		expect(done.output).toBe('out1');
		expect((done.msg.payload as { status: string }).status).toBe('created');
	});
});

describe('output files', () => {
	it('issue 32 item 7: a fixed Output File with 3 texts: 3 files on disk, 3 distinct paths (video-1.mp4, …)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vs-nr-batch-'));
		await helper.load(
			ALL_NODES,
			flowWith(talking({ outputFile: join(dir, 'video.mp4') }), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ _msgid: 'batch', payload: ['One.', 'Two.', 'Three.'] });
		expect(output).toBe('out1');
		const paths = msg.payload as string[];
		expect(paths).toEqual([1, 2, 3].map((n) => join(dir, `video-${n}.mp4`)));
		expect(readdirSync(dir).sort()).toEqual(['video-1.mp4', 'video-2.mp4', 'video-3.mp4']);
		for (const path of paths) expect(existsSync(path) && statSync(path).size).toBeGreaterThan(1000);
	});

	it('a fixed Output File across single messages: every paid video its own file, each message naming its path', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vs-nr-fixed-'));
		await helper.load(
			ALL_NODES,
			flowWith(talking({ outputFile: join(dir, 'video.mp4') }), emulator.baseUrl),
			credentials(emulator.apiKey),
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
		expect(emulator.tasks()).toHaveLength(2);
	});

	it('a link without an extension served as application/octet-stream is saved with its kind’s extension', async () => {
		// Drift mode: media links without an extension, served as application/octet-stream.
		emulator.setConfig({ drift: true });
		const dir = mkdtempSync(join(tmpdir(), 'vs-nr-ext-'));
		await helper.load(
			ALL_NODES,
			flowWith(talking({ outputFile: join(dir, 'talking-{id}.{ext}') }), emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ payload: 'No extension.' });
		expect(output).toBe('out1');
		const videoId = (msg.visionstory as { video_id: string; video_url: string }).video_id;
		expect((msg.visionstory as { video_url: string }).video_url).toMatch(
			/\/media\/videos\/[^/.]+$/,
		);
		expect(msg.filename).toBe(join(dir, `talking-${videoId}.mp4`));
		expect(msg.mimetype).toBe('video/mp4');
		expect(existsSync(msg.filename as string)).toBe(true);
	});
});
