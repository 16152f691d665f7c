jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INode, INodeParameters } from 'n8n-workflow';

import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import type { NodeSettings } from '../support/workflow';
import { byId, NODE } from '../support/workflow';
import { accountId } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/account';
import { moneyNode } from './support';

/**
 * Issue 31, the money defects: each test failed on 3da7288 and passes now. The emulator's ledger is
 * what VisionStory charged; its faults answer as a real deployment plausibly does (a read replica
 * behind the primary, a connection reset after the service took a request, another program
 * spending on the same account, an empty 503 from a proxy, a 402 with the service's words).
 */
const engine = useEngine({ clock: 'manual', renderMs: 30_000 });
beforeEach(() => engine.emu.reset());

/** Charges of our videos (another program's spending is not ours). */
const videoCharges = () =>
	engine.emu.ledger().filter((e) => e.kind === 'charge' && e.operation !== 'elsewhere');

/** One 20-credit AI video (wan-2.5, 5 s, 720p). */
function aiVideo(
	parameters: INode['parameters'] = {},
	options: INodeParameters = {},
	settings: NodeSettings = { onError: 'continueRegularOutput' },
) {
	return moneyNode(
		'aiVideo',
		'create',
		{
			modelId: byId('wan-2.5'),
			prompt: 'A kite over the dunes',
			duration: 5,
			resolution: '720p',
			pollIntervalSeconds: 5,
			downloadResult: false,
			options,
			...parameters,
		},
		settings,
	);
}

describe('1. a task the service confirmed and no read has shown yet is waited for, never made anew', () => {
	test.each([2, 6])(
		'key order-1001, waiting on, the task missing from its first %i reads: one charge, the item gets it',
		async (lag) => {
			engine.emu.setFaults({ readLag: lag });
			const [item] = (await engine.run(aiVideo({}, { idempotencyKey: 'order-1001' }))).output(NODE);
			expect(item.json.error).toBeUndefined();
			expect(item.json).toMatchObject({ status: 'created' });
			expect(item.json.existingVideo).toBeUndefined();
			expect(engine.emu.tasks().map((t) => t.client_request_id)).toEqual(['order-1001']);
			expect(videoCharges()).toHaveLength(1);
			expect(engine.emu.balance()).toBe(engine.emu.ledger()[0].balance);
		},
	);

	test('no key, waiting off, the task missing from its first 2 reads: one charge, the item has its id', async () => {
		engine.emu.setFaults({ readLag: 2 });
		const [item] = (await engine.run(aiVideo({ waitForCompletion: false }))).output(NODE);
		expect(item.json.error).toBeUndefined();
		expect(item.json.video_id).toBe(engine.emu.tasks()[0].video_id);
		expect(engine.emu.tasks()).toHaveLength(1);
		expect(videoCharges()).toHaveLength(1);
	});

	test('a task no read shows within Timeout: the item says it was made and may be charged, with its key; nothing says "nothing was charged"', async () => {
		engine.emu.setFaults({ readLag: 1000 });
		const [item] = (
			await engine.run(aiVideo({ timeoutMinutes: 1 }, { idempotencyKey: 'order-1001' }))
		).output(NODE);
		const [task] = engine.emu.tasks();
		expect(item.json.error).toBe(
			`VisionStory confirmed creating AI video ${task.video_id} (idempotency key order-1001), but no status read showed it within 1 minute`,
		);
		expect(JSON.stringify(item.json)).not.toMatch(/[Nn]othing was charged/);
		expect(engine.emu.tasks()).toHaveLength(1);
		expect(videoCharges()).toHaveLength(1);
	});
});

describe('2. Keep at Least N Credits is checked before every send that can be charged, a resend included', () => {
	// An account per test: an attempt that may have been charged stays reserved in the process's book.
	let key: string;
	let accounts = 0;
	beforeEach(() => {
		key = `sk-vs-emulator-floor-resend-${++accounts}`;
	});
	const credentials = () => ({
		visionStoryApi: { apiKey: key, baseUrl: engine.emu.baseUrl, keepAtLeastCredits: 100 },
	});
	const create = { method: 'POST', path: '/api/v1/ai_video' } as const;
	const refusal =
		/Keep at Least 100 Credits would be passed: the account has 100 credits, and this call costs about 20 credits\. It was not sent again/;

	test('balance 120, floor 100, a 20-credit AI video reset before its answer, then 429s while another program spends 20: the resend is refused, not charged', async () => {
		engine.emu.addAccount(key, 120);
		engine.emu.setFaults({
			failNext: [
				{ ...create, kind: 'resetBefore' },
				{ ...create, kind: 'http429', spendElsewhere: 20 },
				{ ...create, kind: 'http429', count: 3 },
			],
		});
		const result = await engine.run(aiVideo(), [{}], { credentials: credentials() });
		const [item] = result.output(NODE);
		expect(item.json.error).toMatch(refusal);
		expect(engine.emu.balance(key)).toBe(100);
		expect(videoCharges()).toHaveLength(0);
	});

	test("the same through n8n's Retry On Fail: the node's second try is refused, not charged", async () => {
		engine.emu.addAccount(key, 120);
		engine.emu.setFaults({
			failNext: [
				{ ...create, kind: 'resetBefore' },
				{ ...create, kind: 'http500', count: 3 },
				{ ...create, kind: 'http500', spendElsewhere: 20 },
			],
		});
		const result = await engine.run(
			aiVideo({}, {}, { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }),
			[{}],
			{ credentials: credentials() },
		);
		expect(result.nodeError(NODE)?.message).toMatch(refusal);
		expect(engine.emu.balance(key)).toBe(100);
		expect(videoCharges()).toHaveLength(0);
	});
});

describe('4. Keep at Least N Credits keeps one book per account, whatever credential names it', () => {
	test('the account is the key and the Base URL in any spelling: trailing slash, host case, default port', () => {
		const key = 'sk-vs-some-key';
		const id = accountId('https://openapi.visionstory.ai', key);
		for (const spelling of [
			'https://openapi.visionstory.ai/',
			'https://OpenAPI.VisionStory.ai//',
			'https://openapi.visionstory.ai:443',
			' https://openapi.visionstory.ai ',
		])
			expect(accountId(spelling, key)).toBe(id);
		expect(accountId('https://openapi.visionstory.ai', 'sk-vs-other-key')).not.toBe(id);
		expect(accountId('https://staging.visionstory.ai', key)).not.toBe(id);
		expect(id).not.toContain(key);
	});

	test('two credentials for one key (one with a trailing slash) each send a 20-credit AI video at once from 130, floor 100: one is refused, balance 110', async () => {
		const key = 'sk-vs-emulator-floor-two-credentials';
		engine.emu.addAccount(key, 130);
		// Both creates are slow to be handled while balance reads are not: they are under way at once.
		engine.emu.setFaults({
			failNext: [
				{ method: 'POST', path: '/api/v1/ai_video', kind: 'slow', delayMs: 3000, count: 2 },
			],
		});
		const credential = (baseUrl: string) => ({
			credentials: { visionStoryApi: { apiKey: key, baseUrl, keepAtLeastCredits: 100 } },
		});
		const runs = await Promise.all([
			engine.run(aiVideo({ waitForCompletion: false }), [{}], credential(engine.emu.baseUrl)),
			engine.run(
				aiVideo({ waitForCompletion: false, prompt: 'Another kite' }),
				[{}],
				credential(`${engine.emu.baseUrl}/`),
			),
		]);
		const items = runs.map((run) => run.output(NODE)[0].json);
		expect(items.filter((item) => item.error === undefined)).toHaveLength(1);
		expect(items.find((item) => item.error !== undefined)?.error).toMatch(
			/Keep at Least 100 Credits would be passed: the account has 1[13]0 credits/,
		);
		expect(engine.emu.balance(key)).toBe(110);
		expect(videoCharges()).toHaveLength(1);
	});
});

test("5. a resend with the same key that the service refuses outright (an empty 503, then a 402): the item leads with the service's message and hint, our note on the key after", async () => {
	const avatarId = await firstPublicAvatarId(engine.emu);
	const create = { method: 'POST', path: '/api/v1/video' } as const;
	const message = 'Insufficient credits: this talking video costs 7 credits, balance is 3';
	const hint = 'Top up credits at https://www.visionstory.ai/pricing';
	engine.emu.setFaults({
		failNext: [
			{ ...create, kind: 'respond', respond: { status: 503 } },
			{
				...create,
				kind: 'respond',
				respond: { status: 402, body: { error: { code: 402, message, hint } } },
			},
		],
	});
	const workflow = moneyNode(
		'talkingVideo',
		'create',
		{
			avatarId: byId(avatarId),
			scriptType: 'text',
			text: 'Hello',
			voiceId: byId('Alice'),
			waitForCompletion: false,
			options: { idempotencyKey: 'order-2002' },
		},
		{ onError: 'continueRegularOutput' },
	);
	const [item] = (await engine.run(workflow)).output(NODE);
	expect(item.json.error).toBe(message);
	expect(item.json.hint).toMatch(
		/^Top up credits at https:\/\/www\.visionstory\.ai\/pricing\. Idempotency key order-2002: .*made nothing under it/,
	);
	expect(JSON.stringify(item.json)).not.toMatch(/may have made this talking video/);
	expect(engine.emu.tasks()).toHaveLength(0);
	expect(videoCharges()).toHaveLength(0);
});
