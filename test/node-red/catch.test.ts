/**
 * Issue 40 item 4: a failure reaches Catch nodes (done(error)) unless the node's Failure output is on,
 * then it leaves by output 2 and never reaches Catch; one outcome per message either way, a partly
 * failed batch's good items by output 1 and its failed ones reported once, each naming its item. The
 * flows here set `failureOutput` as the editor saves it; flows without it (saved by 1.0.0) are the
 * other suites' (support.ts's flowWith).
 */
import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import {
	ALL_NODES,
	catchNodes,
	configNode,
	credentials,
	helper,
	nodeOf,
	type FlowNode,
} from './support';

let emulator: Emulator;
let avatarId: string;

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
beforeEach(() => emulator.reset());
afterEach(async () => await helper.unload());

interface Caught {
	message: string;
	source: { id: string; type: string };
	cause: { message: string; hint?: string; status?: number; videoIds?: string[] };
}

/** The talking-video node `n1` with its outputs wired to helper nodes `port1`, `port2`, `port3`, and a Catch node. */
async function deploy(props: Record<string, unknown>): Promise<void> {
	await deployNode({
		type: 'visionstory-talking-video',
		operation: 'create',
		avatarId,
		voiceId: 'Alice',
		scriptType: 'text',
		waitForCompletion: true,
		pollIntervalSeconds: 5,
		downloadResult: false,
		...props,
	});
}

/** The node `n1` of `props` (its wires as given, else to `port1`…`port3`), with a Catch and a Complete node. */
async function deployNode(props: Record<string, unknown>, apiKey = emulator.apiKey): Promise<void> {
	const flow: FlowNode[] = [
		{ id: 'f1', type: 'tab', label: 'test' },
		configNode(emulator.baseUrl),
		{
			id: 'n1',
			z: 'f1',
			type: String(props.type),
			config: 'cfg',
			wires: [['port1'], ['port2'], ['port3']],
			...props,
		},
		...['port1', 'port2', 'port3'].map((id) => ({ id, z: 'f1', type: 'helper' })),
		...catchNodes(),
		...completeNodes(),
	];
	await helper.load(ALL_NODES, flow, credentials(apiKey));
}

/** A Complete node for n1: what Node-RED reports when the node says done() without an error. */
const completeNodes = (): FlowNode[] => [
	{
		id: 'on-done',
		z: 'f1',
		type: 'complete',
		scope: ['n1'],
		uncaught: false,
		wires: [['completed']],
	},
	{ id: 'completed', z: 'f1', type: 'helper' },
];

/** Every message each helper got while `msg` was handled: until Node-RED reports it done (Complete) or failed (Catch). */
async function handled(msg: Record<string, unknown>): Promise<Record<string, unknown[]>> {
	const got: Record<string, unknown[]> = { port1: [], port2: [], port3: [], caught: [] };
	for (const id of Object.keys(got)) nodeOf(id).on('input', (m) => got[id].push(m));
	const finished = new Promise<void>((resolve) => {
		nodeOf('completed').on('input', () => resolve());
		nodeOf('caught').on('input', () => resolve());
	});
	nodeOf('n1').receive(msg);
	await finished;
	// Messages sent before done() are handed on in turns of the event loop of their own.
	for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
	return got;
}

describe('by default (Failure output off)', () => {
	it('a failing render reaches a Catch node once, with the service message, hint and video id', async () => {
		await deploy({ failureOutput: false });
		const got = await handled({ _msgid: 'c1', payload: 'This one will [fail].' });
		expect({ port1: got.port1, port2: got.port2 }).toEqual({ port1: [], port2: [] });
		expect(got.caught).toHaveLength(1);
		const caught = got.caught[0] as { payload: unknown; error: Caught };
		expect(caught.payload).toBe('This one will [fail].');
		expect(caught.error.source).toMatchObject({ id: 'n1', type: 'visionstory-talking-video' });
		expect(caught.error.cause.hint).toEqual(expect.any(String));
		expect(caught.error.message).toContain(caught.error.cause.hint);
		expect(caught.error.cause.videoIds).toEqual([expect.stringMatching(/^vid_/)]);
	});

	it('a bad input reaches a Catch node once, naming the field, with nothing sent', async () => {
		await deploy({ failureOutput: false, voiceId: '' });
		const got = await handled({ _msgid: 'c2', payload: 'No voice.' });
		expect(got.caught).toHaveLength(1);
		expect((got.caught[0] as { error: Caught }).error.message).toContain(
			'"Voice" (voiceId) is required',
		);
		expect(got.port1).toEqual([]);
		expect(emulator.requests({ origin: 'api' })).toHaveLength(0);
	});

	it("a service error (402, too few credits) reaches a Catch node with the service's message and hint", async () => {
		emulator.addAccount('sk-vs-emulator-nr-catch-poor-000000', 1);
		await deployNode(
			{
				type: 'visionstory-image',
				operation: 'generate',
				modelId: 'gpt-image-2',
				prompt: 'A lighthouse.',
				downloadResult: false,
				failureOutput: false,
				wires: [['port1']],
			},
			'sk-vs-emulator-nr-catch-poor-000000',
		);
		const got = await handled({ _msgid: 'c3', payload: 'go' });
		expect(got.port1).toEqual([]);
		expect(got.caught).toHaveLength(1);
		const { error } = got.caught[0] as { error: Caught };
		expect(error.cause.status).toBe(402);
		expect(error.cause.hint).toMatch(/top up/i);
		expect(error.message).toContain(error.cause.hint);
	});

	it('a partly failed batch: the finished videos by output 1, the failed item once to Catch, each naming its item', async () => {
		await deploy({ failureOutput: false });
		const texts = ['One.', 'This one will [fail].', 'Three.'];
		const got = await handled({ _msgid: 'c4', payload: texts });
		expect(got.port1).toHaveLength(1);
		expect((got.port1[0] as { items: unknown }).items).toEqual([
			{ index: 0, input: 'One.' },
			{ index: 2, input: 'Three.' },
		]);
		expect(got.port2).toEqual([]);
		expect(got.caught).toHaveLength(1);
		const caught = got.caught[0] as {
			payload: unknown;
			items: unknown;
			errors: Array<{ index: number; videoIds?: string[] }>;
			error: Caught;
		};
		expect(caught.payload).toEqual([texts[1]]);
		expect(caught.items).toEqual([{ index: 1, input: texts[1] }]);
		expect(caught.errors).toEqual([
			expect.objectContaining({ index: 1, input: texts[1], videoIds: [expect.any(String)] }),
		]);
		expect(caught.error.message).toContain('1 of 3 failed; the first (#2)');
	});

	it('Check Status: a video still rendering leaves by output 2, the last one', async () => {
		emulator.setConfig({ renderMs: 600_000 });
		await deploy({ failureOutput: false, waitForCompletion: false });
		const created = await handled({ _msgid: 'c5', payload: 'Slow.' });
		const task = (created.port1[0] as { payload: { video_id: string } }).payload;
		await helper.unload();
		await deploy({ failureOutput: false, operation: 'check' });
		const got = await handled({ payload: task });
		expect(got.port2).toEqual([
			expect.objectContaining({ payload: expect.objectContaining({ video_id: task.video_id }) }),
		]);
		expect({ port1: got.port1, port3: got.port3, caught: got.caught }).toEqual({
			port1: [],
			port3: [],
			caught: [],
		});
	});
});

describe('with Failure output on', () => {
	it('a failing render leaves by output 2 with msg.error, and never reaches Catch', async () => {
		await deploy({ failureOutput: true });
		const got = await handled({ _msgid: 'o1', payload: 'This one will [fail].' });
		expect(got.caught).toEqual([]);
		expect(got.port1).toEqual([]);
		expect(got.port2).toHaveLength(1);
		const { error } = got.port2[0] as { error: Caught };
		expect(error.cause.videoIds).toEqual([expect.stringMatching(/^vid_/)]);
		expect(error.message).toContain(error.cause.hint);
	});

	it('a partly failed batch: output 1 and output 2 once each, nothing to Catch', async () => {
		await deploy({ failureOutput: true });
		const got = await handled({ _msgid: 'o2', payload: ['One.', 'Two [fail].'] });
		expect(got.port1).toHaveLength(1);
		expect(got.port2).toHaveLength(1);
		expect((got.port2[0] as { items: unknown }).items).toEqual([
			{ index: 1, input: 'Two [fail].' },
		]);
		expect(got.caught).toEqual([]);
	});

	it('Check Status: still rendering by output 3, as 1.0.0 had it', async () => {
		emulator.setConfig({ renderMs: 600_000 });
		await deploy({ failureOutput: true, waitForCompletion: false });
		const created = await handled({ _msgid: 'o3', payload: 'Slow.' });
		const task = (created.port1[0] as { payload: { video_id: string } }).payload;
		await helper.unload();
		await deploy({ failureOutput: true, operation: 'check' });
		const got = await handled({ payload: task });
		expect(got.port3).toHaveLength(1);
		expect({ port1: got.port1, port2: got.port2 }).toEqual({ port1: [], port2: [] });
	});
});

describe('a node saved by 1.0.0 (no failureOutput property)', () => {
	it('with its failure output wired: failures leave there, as they did', async () => {
		await deploy({});
		const got = await handled({ _msgid: 's1', payload: 'This one will [fail].' });
		expect(got.port2).toHaveLength(1);
		expect(got.caught).toEqual([]);
	});

	it('with nothing wired to its failure output: failures reach Catch nodes (1.0.0 only logged them)', async () => {
		await deployNode(
			{ type: 'visionstory-account', operation: 'getCredits', wires: [['port1'], []] },
			'sk-vs-wrong-key-123456789',
		);
		const got = await handled({ _msgid: 's2', payload: 1 });
		expect(got.caught).toHaveLength(1);
		expect((got.caught[0] as { error: Caught }).error.cause.status).toBe(401);
	});
});
