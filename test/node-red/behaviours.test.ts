import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { passes, passesUntil, useNodeClock } from './clock';
import { ALL_NODES, credentials, flowWith, helper, next, run, nodeOf } from './support';

let emulator: Emulator;
let avatarId: string;

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
beforeEach(() => emulator.reset());
afterEach(async () => await helper.unload());

const talking = () => ({
	type: 'visionstory-talking-video',
	operation: 'create',
	scriptType: 'text',
	voiceId: 'Alice',
	avatarId,
});

describe('the config node', () => {
	it('serves the editor pickers from the account, with the key kept on the server', async () => {
		await helper.load(
			ALL_NODES,
			flowWith({ type: 'visionstory-account' }, emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const voices = await helper.request().get('/visionstory/cfg/voices').expect(200);
		expect(voices.body).toEqual(
			expect.arrayContaining([expect.objectContaining({ value: 'Alice' })]),
		);
		const models = await helper.request().get('/visionstory/cfg/aiVideoModels').expect(200);
		expect(models.body.map((m: { value: string }) => m.value)).toContain('seedance-1.0-pro');
		expect(JSON.stringify(voices.body)).not.toContain(emulator.apiKey);
		await helper.request().get('/visionstory/cfg/secrets').expect(404);
		await helper.request().get('/visionstory/nope/voices').expect(400);
	});

	it('refuses a Base URL that would carry the key in clear text, sending nothing', async () => {
		await helper.load(
			ALL_NODES,
			flowWith({ type: 'visionstory-account' }, 'http://api.example.com'),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ payload: 1 });
		expect(output).toBe('failed');
		expect((msg.error as { message: string }).message).toContain(
			'would send the API key in clear text',
		);
	});

	it('keeps the key out of every error a flow sees', async () => {
		const key = 'sk-vs-wrong-key-123456789';
		await helper.load(
			ALL_NODES,
			flowWith({ type: 'visionstory-account' }, emulator.baseUrl),
			credentials(key),
		);
		const { output, msg } = await run({ payload: 1 });
		expect(output).toBe('failed');
		expect((msg.error as { cause: { status: number } }).cause.status).toBe(401);
		expect(JSON.stringify(msg.error)).not.toContain(key);
	});
});

describe('action nodes', () => {
	it('streams a large result to a file when Output File is set', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vs-nr-'));
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					...talking(),
					waitForCompletion: true,
					pollIntervalSeconds: 5,
					downloadResult: true,
					outputFile: join(dir, '{id}.{ext}'),
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const { msg } = await run({ _msgid: 'file', payload: 'Saved to disk.', filename: '/in.txt' });
		const path = msg.payload as string;
		expect(path).toBe(join(dir, `${(msg.visionstory as { video_id: string }).video_id}.mp4`));
		expect(existsSync(path) && statSync(path).size).toBeGreaterThan(1000);
		// What write file, http response and e-mail nodes read; the incoming name is not the output path.
		expect(msg.filename).toBe(path);
		expect(msg.mimetype).toBe('video/mp4');
	});

	it('puts the result where Result to says, and takes msg.outputFile only when Output file is empty', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vs-nr-'));
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					...talking(),
					waitForCompletion: true,
					pollIntervalSeconds: 5,
					downloadResult: true,
					outputFile: '',
					outputProperty: 'video.file',
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({
			_msgid: 'prop',
			payload: 'Kept in place.',
			outputFile: join(dir, 'from-msg-{id}.{ext}'),
		});
		expect(output).toBe('out1');
		expect(msg.payload).toBe('Kept in place.');
		const path = (msg.video as { file: string }).file;
		expect(path).toMatch(/from-msg-.*\.mp4$/);
		expect(existsSync(path)).toBe(true);
	});

	it("keeps the node's setting over a msg property, and warns once", async () => {
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					type: 'visionstory-text-to-speech',
					operation: 'synthesize',
					voiceId: 'Alice',
					downloadResult: false,
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const warnings: string[] = [];
		nodeOf('n1').on('call:warn', (call: { args: unknown[] }) =>
			warnings.push(String(call.args[0])),
		);
		const { output } = await run({ payload: 'Hello.', voiceId: 'Echo' });
		expect(output).toBe('out1');
		const sent = emulator.requests({ method: 'POST', path: '/api/v1/tts' });
		expect(sent.map((r) => r.settings?.voice_id)).toEqual(['Alice']);
		expect(warnings).toEqual([
			'msg.voiceId is ignored: the node\'s "Voice" (voiceId) is set, and a set value wins. Clear it in the node to take it from the message.',
		]);
	});

	it('refuses a poll interval under 5 with the check the editor runs', async () => {
		await helper.load(
			ALL_NODES,
			flowWith({ ...talking(), pollIntervalSeconds: 2 }, emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ payload: 'Too eager.' });
		expect(output).toBe('failed');
		expect((msg.error as { message: string }).message).toContain(
			'"Poll every (s)" (pollIntervalSeconds) must be at least 5 (got 2)',
		);
		expect(emulator.requests({ origin: 'api' }).filter((r) => r.method === 'POST')).toHaveLength(0);
	});

	it('checks an AI video against its model before anything charged is sent', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					type: 'visionstory-ai-video',
					operation: 'create',
					modelId: 'seedance-1.0-pro',
					duration: '7',
					waitForCompletion: false,
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const { output, msg } = await run({ payload: 'A boat.' });
		expect(output).toBe('failed');
		expect((msg.error as { message: string }).message).toMatch(
			/"Duration \(s\)" \(duration\) 7 is not offered by seedance-1\.0-pro; allowed: /,
		);
		expect(emulator.requests({ method: 'POST', path: '/api/v1/ai_video' })).toHaveLength(0);
	});

	it('ends its waits when the flow is stopped, and polls no more', async () => {
		emulator.setConfig({ renderMs: 600_000 });
		await helper.load(
			ALL_NODES,
			flowWith({ ...talking(), waitForCompletion: true, pollIntervalSeconds: 5 }, emulator.baseUrl),
			credentials(emulator.apiKey),
		);
		// From here the node's clock is jest's: its waits between polls pass only when the test moves it on.
		useNodeClock();
		try {
			const statuses: string[] = [];
			const node = nodeOf('n1');
			node.on('call:status', (call: { args: Array<{ text?: string }> }) =>
				statuses.push(call.args[0]?.text ?? ''),
			);
			node.receive({ _msgid: 'long', payload: 'A long render.' });
			await passesUntil(() => statuses.includes('rendering 1'));
			expect(statuses).toEqual(expect.arrayContaining(['submitting 0/1', 'rendering 1']));
			// It polls while the flow runs…
			const reads = () => emulator.requests({ method: 'GET', path: '/api/v1/video' }).length;
			const before = reads();
			await passes(60_000);
			expect(reads()).toBeGreaterThan(before);
			await helper.unload();
			// …and never again once it is stopped, however long the clock runs.
			const after = emulator.requests({ origin: 'api' }).length;
			await passes(600_000);
			expect(emulator.requests({ origin: 'api' })).toHaveLength(after);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('the watch node', () => {
	it('says plainly when what it has seen is not kept across restarts', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(
				{
					type: 'visionstory-watch',
					events: ['talkingVideo'],
					statuses: ['created'],
					pollIntervalSeconds: 5,
				},
				emulator.baseUrl,
			),
			credentials(emulator.apiKey),
		);
		const node = nodeOf('n1');
		const status = new Promise<string>((resolve) =>
			node.on('call:status', (call: { args: Array<{ text?: string }> }) => {
				if (call.args[0]?.text?.startsWith('watching')) resolve(call.args[0].text);
			}),
		);
		expect(await status).toContain('not kept across restarts');
		expect(node.warn.calledWithMatch(/No persistent context store/)).toBe(true);
	});

	it('sends each video that finishes after it started, once', async () => {
		emulator.setConfig({ renderMs: 1000 });
		const flow = flowWith(
			{
				type: 'visionstory-watch',
				events: ['talkingVideo'],
				statuses: ['created', 'failed'],
				pollIntervalSeconds: 5,
			},
			emulator.baseUrl,
		);
		await helper.load(ALL_NODES, flow, credentials(emulator.apiKey));
		const node = nodeOf('n1');
		await new Promise<void>((resolve) =>
			node.on(
				'call:status',
				(call: { args: Array<{ text?: string }> }) =>
					call.args[0]?.text?.startsWith('watching') && resolve(),
			),
		);
		const create = async (text: string) => {
			const response = await fetch(`${emulator.baseUrl}/api/v1/video`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': emulator.apiKey },
				body: JSON.stringify({ avatar_id: avatarId, text_script: { text, voice_id: 'Alice' } }),
			});
			return ((await response.json()) as { data: { video_id: string } }).data.video_id;
		};
		const ok = await create('Done soon.');
		const bad = await create('This will [fail].');
		const first = await next('out1');
		const second = await next('out1');
		const got = [first, second].map((m) => [
			(m.payload as { video_id: string }).video_id,
			m.status,
		]);
		expect(got).toEqual(
			expect.arrayContaining([
				[ok, 'created'],
				[bad, 'failed'],
			]),
		);
	});
});
