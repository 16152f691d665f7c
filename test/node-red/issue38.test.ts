import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { gatewayReads as gateway, notFoundReads } from '../support/readFaults';
import { ALL_NODES, credentials, flowWith, helper, next, nodeOf, run } from './support';
import { timeLapse, type TimeLapse } from './timeLapse';

/**
 * Issue 38 in Node-RED's runtime: status reads that fail for a while (a gateway's HTML 502 for 90 s, a
 * single 404 after the task was seen) never end a paid video's wait; at Timeout the failure carries
 * the video's id and its key. Each failed on 86874c9 (and ced61cd): output 2 without the id. Minutes
 * of waiting run in seconds: the process's time runs 50 times faster (`timeLapse`).
 */
const SPEED = 50;
const RENDER_MS = 150_000;
let emulator: Emulator;
let avatarId: string;
let lapse: TimeLapse | undefined;

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: RENDER_MS });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
beforeEach(() => {
	emulator.reset();
	lapse = timeLapse(SPEED);
});
afterEach(async () => {
	lapse?.stop();
	await helper.unload();
});

const charges = () => emulator.ledger().filter((e) => e.kind === 'charge');

const talkingFlow = (extra: Record<string, unknown> = {}) =>
	flowWith(
		{
			type: 'visionstory-talking-video',
			operation: 'create',
			avatarId,
			voiceId: 'Alice',
			scriptType: 'text',
			waitForCompletion: true,
			pollIntervalSeconds: 10,
			timeoutMinutes: 30,
			downloadResult: false,
			...extra,
		},
		emulator.baseUrl,
	);

async function talkingVideo(extra: Record<string, unknown> = {}) {
	await helper.load(ALL_NODES, talkingFlow(extra), credentials(emulator.apiKey));
}

describe('defect 2: status reads failing for a while never end a paid video without its id', () => {
	it('a gateway page on the status reads for 90 s after the task was seen: the wait goes on, the video leaves by output 1', async () => {
		emulator.setFaults({ failNext: [gateway(1, 90_000)] });
		await talkingVideo();
		const { output, msg } = await run({ _msgid: 'gw', payload: 'Hello.' });
		expect(output).toBe('out1');
		expect(msg.payload).toMatchObject({
			status: 'created',
			video_id: emulator.tasks()[0].video_id,
		});
		expect(charges()).toHaveLength(1);
	});

	it('a single 404 after the task was seen: the wait goes on, the video leaves by output 1', async () => {
		emulator.setFaults({ failNext: [notFoundReads(1, 1)] });
		await talkingVideo();
		const { output, msg } = await run({ _msgid: 'nf', payload: 'Hello.' });
		expect(output).toBe('out1');
		expect(msg.payload).toMatchObject({ status: 'created' });
	});

	it('gateway pages until Timeout: output 2 carries the video id and the key, and says the video was made and may be charged', async () => {
		emulator.setFaults({ failNext: [gateway(1, 3_600_000)] });
		await talkingVideo({ timeoutMinutes: 2 });
		const { output, msg } = await run({ _msgid: 'late', payload: 'Hello.' });
		expect(output).toBe('failed');
		const [task] = emulator.tasks();
		const error = msg.error as { message: string; cause: { videoIds?: string[] } };
		expect(error.cause.videoIds).toEqual([task.video_id]);
		expect(error.message).toContain(task.client_request_id!);
		expect(error.message).toMatch(/made and may be charged/);
		expect(charges()).toHaveLength(1);
	});
});

/**
 * A full deploy of `flow`, as the editor's Deploy button makes it, waiting for the flows to start (the
 * test helper's own `setFlows` gives them 300 ms, which time lapse would cut to 6).
 */
async function deploy(flow: unknown[]): Promise<void> {
	const runtime = helper as unknown as {
		_redNodes: { setFlows(f: unknown[], c: unknown, type: 'full'): Promise<unknown> };
		_events: { once(event: 'flows:started', listener: () => void): void };
	};
	const started = new Promise<void>((resolve) => runtime._events.once('flows:started', resolve));
	await runtime._redNodes.setFlows(flow, credentials(emulator.apiKey), 'full');
	await started;
}

describe('a deploy while a paid video renders', () => {
	// A deploy keeps node context only where a context store is configured (Node-RED deletes a closed
	// node's context otherwise), as the package's README says: configured here, as in settings.js.
	beforeEach(() => helper.settings({ contextStorage: { default: { module: 'memory' } } }));
	afterEach(() => helper.settings({}));

	it('the node that starts next picks it up and waits on it as a create does: gateway pages meanwhile, then the video by output 1 with its file', async () => {
		await talkingVideo({ downloadResult: true });
		await (
			helper as unknown as { _redNodes: { loadContextsPlugin(): Promise<void> } }
		)._redNodes.loadContextsPlugin();
		const node = nodeOf('n1');
		const rendering = new Promise<void>((resolve) =>
			node.on('call:status', (call: { args: Array<{ text?: string }> }) => {
				if (call.args[0]?.text?.startsWith('rendering')) resolve();
			}),
		);
		node.receive({ _msgid: 'deployed', payload: 'Hello.' });
		await rendering;
		emulator.setFaults({ failNext: [gateway(0, 60_000)] });
		await deploy(talkingFlow({ downloadResult: true }));
		const { output, msg } = await Promise.race(
			(['out1', 'failed'] as const).map(async (id) => ({ output: id, msg: await next(id) })),
		);
		expect(output).toBe('out1');
		const [task] = emulator.tasks();
		expect(msg.resumed).toMatchObject({ msgid: 'deployed', index: 0 });
		expect(msg.visionstory).toMatchObject({ video_id: task.video_id, status: 'created' });
		expect(Buffer.isBuffer(msg.payload)).toBe(true);
		expect(
			emulator.requests({ method: 'GET', path: '/api/v1/video' }).some((r) => r.status === 502),
		).toBe(true);
		expect(emulator.tasks()).toHaveLength(1);
		expect(charges()).toHaveLength(1);
	});
});

describe("a paid video's file, fetched as in n8n", () => {
	it('a transfer that breaks off twice is fetched again: the file comes on the third try', async () => {
		emulator.setConfig({ renderMs: 20_000 });
		emulator.setFaults({
			failNext: [{ origin: 'media', method: 'GET', kind: 'truncateBody', count: 2 }],
		});
		await talkingVideo({ downloadResult: true });
		const { output, msg } = await run({ _msgid: 'cut', payload: 'Hello.' });
		expect(output).toBe('out1');
		expect(Buffer.isBuffer(msg.payload)).toBe(true);
		expect(emulator.requests({ origin: 'media' })).toHaveLength(3);
	});

	it('a file that cannot be fetched keeps the paid video: output 2 with its data and downloadError as the payload', async () => {
		emulator.setConfig({ renderMs: 20_000 });
		emulator.setFaults({ failNext: [{ origin: 'media', method: 'GET', kind: 'http403' }] });
		await talkingVideo({ downloadResult: true });
		const { output, msg } = await run({ _msgid: 'refused', payload: 'Hello.' });
		expect(output).toBe('failed');
		const [task] = emulator.tasks();
		expect(msg.payload).toMatchObject({
			video_id: task.video_id,
			status: 'created',
			downloadError: expect.stringMatching(/could not be downloaded.*msg\.videoId = "/),
		});
		expect((msg.error as { cause: { videoIds?: string[] } }).cause.videoIds).toEqual([
			task.video_id,
		]);
	});
});
