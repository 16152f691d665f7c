/**
 * Keep at Least N Credits on the config node: the account's balance is read before every charged call
 * of every node using it, a call that could take it below the floor goes to Catch nodes with nothing
 * charged, and calls in flight in this Node-RED are reserved against it.
 */
import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { editorDefinitions, editorTexts } from './editor';
import {
	ALL_NODES,
	catchNodes,
	configNode,
	flowWith,
	helper,
	next,
	nodeOf,
	run,
	type FlowNode,
} from './support';

let emulator: Emulator;
let avatarId: string;
const KEY = 'sk-vs-emulator-nr-floor-0000000000';

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
	avatarId,
	voiceId: 'Alice',
	scriptType: 'text',
	waitForCompletion: false,
});
const credentialsOf = (apiKey: string) => ({ cfg: { apiKey } });
const charges = () => emulator.ledger(KEY).filter((e) => e.kind === 'charge');
const balanceReads = () => emulator.requests({ method: 'GET', path: '/api/v1/billing/credits' });

interface CaughtError {
	message: string;
	source: { id: string; type: string };
	cause: { message: string; hint?: string; details?: Record<string, unknown> };
}

describe('Keep at Least N Credits', () => {
	it('refuses the talking video that would take the balance below it: by the failure output, nothing charged', async () => {
		emulator.addAccount(KEY, 20);
		await helper.load(
			ALL_NODES,
			flowWith(talking(), emulator.baseUrl, { keepAtLeastCredits: '10' }),
			credentialsOf(KEY),
		);
		const first = await run({ _msgid: 'f1', payload: 'One.' });
		expect(first.output).toBe('out1');
		expect(emulator.balance(KEY)).toBe(10);

		const second = await run({ _msgid: 'f2', payload: 'Two.' });
		expect(second.output).toBe('failed');
		const error = second.msg.error as CaughtError;
		expect(error.source).toMatchObject({ id: 'n1', type: 'visionstory-talking-video' });
		expect(error.message).toContain(
			'Creating a talking video was refused: Keep at Least 10 Credits would be passed: the account has 10 credits',
		);
		expect(error.message).toContain('Nothing was sent or charged');
		expect(error.message).toContain(
			'Top up the VisionStory account, or lower Keep at Least N Credits (in the VisionStory config "emulator")',
		);
		expect(error.cause.details).toEqual({
			keepAtLeastCredits: 10,
			balance: 10,
			reservedCredits: 0,
		});
		// The refused video was never sent: one create, one charge, the balance at the floor.
		expect(emulator.requests({ method: 'POST', path: '/api/v1/video' })).toHaveLength(1);
		expect(charges()).toHaveLength(1);
		expect(emulator.balance(KEY)).toBe(10);
		// Read before each charged call: once for each message.
		expect(balanceReads()).toHaveLength(2);
	});

	it('splits a batch: the good item by output 1, the refused one by output 2 naming its item, nothing to Catch', async () => {
		emulator.addAccount(KEY, 20);
		await helper.load(
			ALL_NODES,
			flowWith(talking(), emulator.baseUrl, { keepAtLeastCredits: '10' }),
			credentialsOf(KEY),
		);
		const good = next('out1');
		const bad = next('failed');
		const caught: unknown[] = [];
		nodeOf('caught').on('input', (m: unknown) => caught.push(m));
		nodeOf('n1').receive({ _msgid: 'b1', payload: ['One.', 'Two.'] });
		const [ok, failed] = await Promise.all([good, bad]);
		const payload = ok.payload as Array<{ video_id: string }>;
		expect(payload).toHaveLength(1);
		expect(payload[0].video_id).toEqual(expect.any(String));
		expect(ok.items).toEqual([{ index: 0, input: 'One.' }]);
		expect(ok.errors).toBeUndefined();
		expect(failed.payload).toEqual(['Two.']);
		expect(failed.items).toEqual([{ index: 1, input: 'Two.' }]);
		const errors = failed.errors as Array<{ index: number; message: string; details?: unknown }>;
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({
			index: 1,
			input: 'Two.',
			details: { keepAtLeastCredits: 10, balance: 10 },
		});
		expect(errors[0].message).toContain('Keep at Least 10 Credits would be passed');
		const error = failed.error as CaughtError;
		expect(error.message).toContain('1 of 2 failed; the first (#2): Creating a talking video');
		expect(error.cause.details).toMatchObject({ keepAtLeastCredits: 10, balance: 10 });
		expect(charges()).toHaveLength(1);
		// A Catch node would have been handed the message in the turn done() was called in.
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(caught).toEqual([]);
	});

	it('reserves calls in flight: two messages at once cannot pass the floor together', async () => {
		// 13 credits, a floor of 10, two speeches of 2 credits from two nodes of one config: one fits.
		emulator.addAccount(KEY, 13);
		// The first speech sent is answered 429 and resent a second later: it is under way, uncharged,
		// while the other message reads the balance, which then still shows 13.
		emulator.setFaults({
			failNext: [{ method: 'POST', path: '/api/v1/tts', kind: 'http429', retryAfter: 1 }],
		});
		const speech = (id: string) => ({
			id,
			z: 'f1',
			x: 100,
			y: 100,
			type: 'visionstory-text-to-speech',
			operation: 'synthesize',
			config: 'cfg',
			voiceId: 'Alice',
			downloadResult: false,
			wires: [['out1'], ['failed']],
		});
		const flow: FlowNode[] = [
			{ id: 'f1', type: 'tab', label: 'test' },
			configNode(emulator.baseUrl, { keepAtLeastCredits: '10', requestsPerSecond: '20' }),
			speech('s1'),
			speech('s2'),
			// Nodes with x and y: Node-RED takes nodes without a position for config nodes.
			{ id: 'out1', z: 'f1', x: 300, y: 100, type: 'helper' },
			{ id: 'failed', z: 'f1', x: 300, y: 200, type: 'helper' },
			...catchNodes(),
		];
		await helper.load(ALL_NODES, flow, credentialsOf(KEY));
		const outcomes: Array<{ output: string; msg: Record<string, unknown> }> = [];
		const both = new Promise<void>((resolve) => {
			for (const id of ['out1', 'failed', 'caught'])
				nodeOf(id).on('input', (msg: Record<string, unknown>) => {
					outcomes.push({ output: id, msg });
					if (outcomes.length === 2) resolve();
				});
		});
		nodeOf('s1').receive({ _msgid: 'a', payload: 'Hello there.' });
		nodeOf('s2').receive({ _msgid: 'b', payload: 'Hello again.' });
		await both;

		expect(outcomes.map((o) => o.output).sort()).toEqual(['failed', 'out1']);
		const refused = outcomes.find((o) => o.output === 'failed')!.msg.error as CaughtError;
		expect(refused.message).toContain(
			'Text to speech was refused: Keep at Least 10 Credits would be passed',
		);
		expect(refused.cause.details).toMatchObject({ keepAtLeastCredits: 10, reservedCredits: 2 });
		expect(charges().map((c) => c.credits)).toEqual([2]);
		expect(emulator.balance(KEY)).toBe(11);
	});

	it('is off by default: no balance read, the account may be spent to 0', async () => {
		emulator.addAccount(KEY, 10);
		await helper.load(ALL_NODES, flowWith(talking(), emulator.baseUrl), credentialsOf(KEY));
		const { output } = await run({ _msgid: 'o1', payload: 'One.' });
		expect(output).toBe('out1');
		expect(emulator.balance(KEY)).toBe(0);
		expect(balanceReads()).toHaveLength(0);
	});

	it('0 means off too', async () => {
		emulator.addAccount(KEY, 10);
		await helper.load(
			ALL_NODES,
			flowWith(talking(), emulator.baseUrl, { keepAtLeastCredits: '0' }),
			credentialsOf(KEY),
		);
		expect((await run({ _msgid: 'z1', payload: 'One.' })).output).toBe('out1');
		expect(balanceReads()).toHaveLength(0);
	});

	it.each(['-5', '2.5', 'ten'])(
		'refuses every message while it is not a whole number (%s), naming the field, sending nothing',
		async (value) => {
			await helper.load(
				ALL_NODES,
				flowWith(talking(), emulator.baseUrl, { keepAtLeastCredits: value }),
				credentialsOf(emulator.apiKey),
			);
			const { output, msg } = await run({ _msgid: 'v1', payload: 'One.' });
			expect(output).toBe('failed');
			expect((msg.error as CaughtError).message).toContain(
				`Keep at Least N Credits (keepAtLeastCredits) in the VisionStory config "emulator" must be a whole number of credits, empty or 0 for none (got ${JSON.stringify(value)})`,
			);
			expect(emulator.requests({ origin: 'api' })).toHaveLength(0);
		},
	);

	it('is checked in the editor, naming the field', () => {
		const validate = editorDefinitions(['config'])['visionstory-config'].defaults.keepAtLeastCredits
			.validate!;
		const node = { _: editorTexts('config') };
		// Node-RED shows a returned string as the reason only when the validator takes two parameters.
		expect(validate.length).toBe(2);
		for (const ok of ['', '0', '10', ' 25 ', 10]) expect(validate.call(node, ok, {})).toBe(true);
		for (const bad of ['-1', '1.5', 'ten'])
			expect(validate.call(node, bad, {})).toBe(
				'Keep at Least N Credits: a whole number of credits, empty or 0 for none',
			);
	});
});
