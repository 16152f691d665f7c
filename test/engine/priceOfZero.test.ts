jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { IMAGE_MODELS } from '../emulator/models';
import { useEngine } from '../support/engine';
import { AI_VIDEO_PRICE, COST_OF_ZERO } from '../support/priceOfZero';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * Issue 38, defect 3: a price of 0 before the call (the AI video cost endpoint answering
 * `credit: 0`, a model listed at 0 credits) is an unknown price, as a reported `cost_credit` of 0
 * is. Max Credits per Execution then passes by at most one call: the cap admits calls while the
 * known spend is under it, so the call that crosses it is the last. With the cap at 30 and AI videos
 * at 20 credits, at most 40 charged (before the fix: 100 with Wait on), on every path. The emulator's
 * ledger is the judge.
 */
const engine = useEngine({ clock: 'manual', renderMs: 20_000 });

beforeEach(() => engine.emu.reset());

const CAP = 30;
const PRICE = AI_VIDEO_PRICE;
/** One call the cap allows (20 ≤ 30), and one more that crosses it. */
const AT_MOST = 2 * PRICE;

const charged = () =>
	engine.emu.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);

const aiVideos = (waitForCompletion: boolean) =>
	oneNode(
		'aiVideo',
		{
			operation: 'create',
			modelId: byId('wan-2.5'),
			prompt: '={{ $json.prompt }}',
			duration: 5,
			resolution: '720p',
			waitForCompletion,
			pollIntervalSeconds: 5,
			downloadResult: false,
			options: { maxCreditsPerExecution: CAP },
		},
		{ onError: 'continueRegularOutput' },
	);
const fivePrompts = Array.from({ length: 5 }, (_, i) => ({ prompt: `A kite, take ${i + 1}` }));

describe.each([
	['on', true],
	['off', false],
])('Wait for Completion %s', (_, wait) => {
	test.each([
		['tasks report their cost from submission on', false],
		['tasks report cost_credit 0 until they finish', true],
	])(
		'five 20-credit AI videos under a cap of 30, the cost endpoint answering credit 0 (%s): at most one call past the cap',
		async (__, lateCost) => {
			engine.emu.setConfig({ lateCost });
			engine.emu.setFaults({ failNext: [COST_OF_ZERO] });
			const result = await engine.run(aiVideos(wait), fivePrompts);
			const out = result.output(NODE);
			expect(out).toHaveLength(5);
			expect(charged()).toBeLessThanOrEqual(AT_MOST);
			// The cap still lets the first calls through: the price of 0 did not become a refusal.
			expect(charged()).toBeGreaterThanOrEqual(PRICE);
			const refused = out.filter((i) => i.json.error !== undefined);
			expect(refused.length).toBeGreaterThanOrEqual(3);
			for (const item of refused)
				expect(item.json.error).toMatch(/Max Credits per Execution \(30\)/);
		},
	);
});

test('a batch held for the concurrency cap, the cost endpoint answering credit 0: at most one call past the cap', async () => {
	engine.emu.setConfig({ aiConcurrencyCap: 2 });
	engine.emu.setFaults({ failNext: [COST_OF_ZERO] });
	const result = await engine.run(aiVideos(true), fivePrompts);
	expect(result.output(NODE)).toHaveLength(5);
	expect(charged()).toBeLessThanOrEqual(AT_MOST);
});

test("n8n's Retry On Fail re-runs the creates under the same keys: still at most one call past the cap", async () => {
	const workflow = aiVideos(true);
	workflow.nodes[1] = {
		...workflow.nodes[1],
		retryOnFail: true,
		maxTries: 2,
		waitBetweenTries: 0,
		onError: undefined,
	};
	engine.emu.setFaults({
		failNext: [
			COST_OF_ZERO,
			// Every status read of the first try fails: the node fails, and n8n runs it again.
			{ method: 'GET', path: '/api/v1/ai_video', kind: 'http503', count: 40 },
		],
	});
	await engine.run(workflow, fivePrompts);
	expect(charged()).toBeLessThanOrEqual(AT_MOST);
});

test('an image model listed at 0 credits is of unknown price: calls run one at a time and stop once the cap is reached', async () => {
	// Every model listed at 0 credits; nano-banana-2 is charged 4 at its default tier.
	const zeroPriced = IMAGE_MODELS.map((m) => ({
		...m,
		credit_per_image: 0,
		credit_by_resolution: Object.fromEntries(
			Object.keys(m.credit_by_resolution).map((tier) => [tier, 0]),
		),
	}));
	engine.emu.setFaults({
		failNext: [
			{
				method: 'GET',
				path: '/api/v1/image/models',
				kind: 'rewriteAnswer',
				rewrite: { set: { models: zeroPriced } },
				count: 10,
			},
		],
	});
	const workflow = oneNode(
		'image',
		{
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: '={{ $json.prompt }}',
			options: { maxCreditsPerExecution: 1 },
		},
		{ onError: 'continueRegularOutput' },
	);
	const result = await engine.run(workflow, [
		{ prompt: 'One' },
		{ prompt: 'Two' },
		{ prompt: 'Three' },
	]);
	const out = result.output(NODE);
	// The first image goes (the cap is not reached yet); its reported cost reaches the cap.
	expect(out.map((i) => i.json.error === undefined)).toEqual([true, false, false]);
	expect(
		engine.emu.requests({ origin: 'api', method: 'POST', path: '/api/v1/image' }),
	).toHaveLength(1);
});

test('Keep at Least N Credits: two AI videos priced 0 sent at once from 120 with a floor of 100 go one at a time, and the second is refused (balance 100)', async () => {
	const key = 'sk-vs-emulator-floor-price-of-zero';
	engine.emu.addAccount(key, 120);
	engine.emu.setFaults({
		failNext: [
			COST_OF_ZERO,
			// Both creates are slow to be handled while balance reads are not: they would be under way at once.
			{ method: 'POST', path: '/api/v1/ai_video', kind: 'slow', delayMs: 3000, count: 2 },
		],
	});
	const credentials = {
		visionStoryApi: { apiKey: key, baseUrl: engine.emu.baseUrl, keepAtLeastCredits: 100 },
	};
	const runs = await Promise.all(
		['A kite', 'Another kite'].map(
			async (prompt) => await engine.run(aiVideos(false), [{ prompt }], { credentials }),
		),
	);
	const items = runs.map((run) => run.output(NODE)[0].json);
	expect(items.filter((item) => item.error === undefined)).toHaveLength(1);
	expect(items.find((item) => item.error !== undefined)?.error).toMatch(
		/Keep at Least 100 Credits would be passed: the account has 100 credits, and this call costs a price known only after the call/,
	);
	expect(engine.emu.balance(key)).toBe(100);
});
