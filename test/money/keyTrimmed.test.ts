jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { useEngine } from '../support/engine';
import { byId, NODE } from '../support/workflow';
import { accountId } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/account';
import { moneyNode } from './support';

/**
 * Issue 38, defect 8: VisionStory trims the API key it is sent, so a key pasted with a space names
 * the same account, and must name the same balance-floor book. Before: two credentials for one account,
 * one spelling the key with a trailing space, kept two books, and both 20-credit videos went from 130
 * with a floor of 100 (balance 90). The emulator's ledger is the judge.
 */
const engine = useEngine({ clock: 'manual', renderMs: 30_000 });
beforeEach(() => engine.emu.reset());

const KEY = 'sk-vs-emulator-floor-trimmed-key';

test('the account of a key is the same with the spaces around it', () => {
	const id = accountId('https://openapi.visionstory.ai', KEY);
	for (const spelling of [`${KEY} `, ` ${KEY}`, `\t${KEY}\n`])
		expect(accountId('https://openapi.visionstory.ai', spelling)).toBe(id);
});

test('two credentials for one account, one key spelled with a trailing space, each send a 20-credit AI video at once from 130, floor 100: one is refused, balance 110', async () => {
	engine.emu.addAccount(KEY, 130);
	// Both creates are slow to be handled while balance reads are not: they are under way at once.
	engine.emu.setFaults({
		failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'slow', delayMs: 3000, count: 2 }],
	});
	const credential = (apiKey: string) => ({
		credentials: {
			visionStoryApi: { apiKey, baseUrl: engine.emu.baseUrl, keepAtLeastCredits: 100 },
		},
	});
	const aiVideo = (prompt: string) =>
		moneyNode(
			'aiVideo',
			'create',
			{
				modelId: byId('wan-2.5'),
				prompt,
				duration: 5,
				resolution: '720p',
				waitForCompletion: false,
			},
			{ onError: 'continueRegularOutput' },
		);
	const runs = await Promise.all([
		engine.run(aiVideo('A kite'), [{}], credential(KEY)),
		engine.run(aiVideo('Another kite'), [{}], credential(`${KEY} `)),
	]);
	const items = runs.map((run) => run.output(NODE)[0].json);
	expect(items.filter((item) => item.error === undefined)).toHaveLength(1);
	expect(items.find((item) => item.error !== undefined)?.error).toMatch(
		/Keep at Least 100 Credits would be passed: the account has 1[13]0 credits/,
	);
	expect(engine.emu.balance(KEY)).toBe(110);
	// Neither the key nor its spelling with a space shows in what the items say.
	expect(JSON.stringify(items)).not.toContain(KEY);
});
