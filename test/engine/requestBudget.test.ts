jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

/**
 * The request budget of a credential, counted where it matters: by the emulator, from its request
 * log, on the manual clock the virtual sleeps drive (both sides read the same time).
 */
import type { INodeParameters } from 'n8n-workflow';

import { peakPerSecond } from '../emulator/requestLog';
import { logListeners } from '../harness/logger';
import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import { freezeWallClock } from '../support/virtualTime';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

const RENDER_MS = 20_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });
let avatarId: string;
let keys = 0;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
	freezeWallClock(engine.emu.now());
});
beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 2 });
});

/** A credential of its own per test: budgets live per credential for the whole process. */
function freshCredentials() {
	const apiKey = `sk-vs-budget-test-${++keys}-000000000000`;
	engine.emu.addAccount(apiKey, 100_000);
	return {
		credentials: { visionStoryApi: { apiKey, baseUrl: engine.emu.baseUrl } },
		account: engine.emu.accountId(apiKey)!,
	};
}

const create = (perSecond?: number, extra: INodeParameters = {}): INodeParameters => ({
	operation: 'create',
	avatarId: byId(avatarId),
	scriptType: 'text',
	text: '={{ $json.text }}',
	voiceId: byId('Alice'),
	downloadResult: false,
	pollIntervalSeconds: 5,
	...(perSecond ? { options: { requestsPerSecond: perSecond } } : {}),
	...extra,
});
const rows = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ text: `Hello number ${i + 1}` }));

async function runBatch(parameters: INodeParameters, items: number, type = 'talkingVideo') {
	const { credentials, account } = freshCredentials();
	const result = await engine.run(
		oneNode(type, parameters, ON_ERROR.continueRegularOutput),
		type === 'aiVideo' ? rows(items).map((r) => ({ prompt: r.text })) : rows(items),
		{ credentials },
	);
	expect(result.error).toBeUndefined();
	const requests = engine.emu.requests().filter((r) => r.account === account);
	const output = result.output(NODE, 0);
	return { output, requests, account };
}

function expectOneTaskAndChargePerItem(
	output: Array<{ json: Record<string, unknown> }>,
	account: string,
	items: number,
) {
	expect(output.filter((i) => i.json.status === 'created')).toHaveLength(items);
	const tasks = engine.emu.tasks().filter((t) => t.account === account);
	expect(tasks).toHaveLength(items);
	expect(
		engine.emu.ledger().filter((e) => e.account === account && e.kind === 'charge'),
	).toHaveLength(items);
}

describe('talking videos stay within the budget', () => {
	test("60 videos at 4 requests a second: never more in any second, status read from the list, progress in n8n's log", async () => {
		const lines: string[] = [];
		const listen = (level: string, message: string) =>
			void (level === 'info' && message.startsWith('VisionStory') && lines.push(message));
		logListeners.add(listen);
		const { output, requests, account } = await runBatch(create(4), 60).finally(() =>
			logListeners.delete(listen),
		);
		// Every 30 s of the run (submitting 60 at 4 a second takes 15 s, rendering 20 s more), and once at the end.
		expect(lines.length).toBeGreaterThanOrEqual(2);
		expect(lines[0]).toMatch(
			/^VisionStory VisionStory: \d+ of 60 talking videos submitted, \d+ finished, 0 failed, \d+ rendering, \d+ to send; 4 requests\/s$/,
		);
		expect(lines[lines.length - 1]).toMatch(
			/60 of 60 talking videos submitted, 60 finished, 0 failed, 0 rendering, 0 to send/,
		);
		expectOneTaskAndChargePerItem(output, account, 60);
		expect(peakPerSecond(requests)).toBe(4);
		const lists = requests.filter((r) => r.path === '/api/v1/videos');
		const singles = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/video');
		expect(lists.length).toBeGreaterThan(0);
		expect(singles.length).toBeLessThan(10);
		// 60 submissions and a few pages, not a status request per video per round.
		expect(requests.length).toBeLessThan(60 + 20);
	});

	test('the default budget is 5 a second', async () => {
		const { output, requests, account } = await runBatch(create(), 30);
		expectOneTaskAndChargePerItem(output, account, 30);
		expect(peakPerSecond(requests)).toBe(5);
	});

	test.each([
		['idsOnly', 'entries without a status', 1],
		['absent', 'no such endpoint (asked again once without limit)', 2],
	] as const)(
		'a list with %s (%s) is not used again: each video is read on its own',
		async (mode, _what, listRequests) => {
			engine.emu.setConfig({ talkingVideoList: mode });
			const { output, requests, account } = await runBatch(create(5), 30);
			expectOneTaskAndChargePerItem(output, account, 30);
			expect(requests.filter((r) => r.path === '/api/v1/videos')).toHaveLength(listRequests);
			expect(
				requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/video').length,
			).toBeGreaterThanOrEqual(30);
			expect(peakPerSecond(requests)).toBeLessThanOrEqual(5);
		},
	);

	test('a list that ignores its cursor is read one page deep; the rest on their own', async () => {
		engine.emu.setConfig({ talkingVideoList: 'ignoresCursor' });
		const { output, requests, account } = await runBatch(create(5), 50);
		expectOneTaskAndChargePerItem(output, account, 50);
		const lists = requests.filter((r) => r.path === '/api/v1/videos');
		// One follow of next_cursor shows the same page again; it is never followed after that.
		expect(lists.filter((r) => r.query.cursor !== undefined)).toHaveLength(1);
		expect(
			requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/video').length,
		).toBeGreaterThanOrEqual(30);
		expect(peakPerSecond(requests)).toBeLessThanOrEqual(5);
	});
});

test('AI videos under a cap of 2: submissions and status reads stay within 2 requests a second', async () => {
	const parameters = {
		operation: 'create',
		modelId: byId('kling-3.0-omni'),
		prompt: '={{ $json.prompt }}',
		downloadResult: false,
		pollIntervalSeconds: 5,
		options: { requestsPerSecond: 2 },
	};
	const { output, requests, account } = await runBatch(parameters, 8, 'aiVideo');
	expectOneTaskAndChargePerItem(output, account, 8);
	// The model list read once before anything is sent (to check each item) is not part of the budget.
	const budgeted = requests.filter((r) => r.path === '/api/v1/ai_video');
	expect(budgeted.some((r) => r.status === 429)).toBe(true);
	expect(peakPerSecond(budgeted)).toBe(2);
});

test('429s from a service limiting the key to 3 a second lower the rate; no item fails and none is charged twice', async () => {
	engine.emu.setConfig({ rateLimitPerSecond: 3 });
	const { output, requests, account } = await runBatch(create(10), 40);
	expectOneTaskAndChargePerItem(output, account, 40);
	const limited = requests.filter((r) => r.status === 429);
	expect(limited.length).toBeGreaterThan(0);
	// Once the first 429 is answered (and its Retry-After waited out), the node sends at most 7 a second (10 × 0.7), then fewer.
	const after = requests.filter((r) => r.at >= limited[0].at + 1000);
	expect(peakPerSecond(after)).toBeLessThanOrEqual(7);
	// Absorbed: far fewer 429s than requests.
	expect(limited.length).toBeLessThan(requests.length / 4);
});

test('Requests per Second above 20 is refused before anything is sent, naming the option and the limit', async () => {
	const { credentials, account } = freshCredentials();
	const result = await engine.run(oneNode('talkingVideo', create(50)), rows(1), {
		credentials,
	});
	expect(result.error?.message).toMatch(/Requests per Second.*at most 20/);
	expect(engine.emu.requests().filter((r) => r.account === account)).toHaveLength(0);
});
