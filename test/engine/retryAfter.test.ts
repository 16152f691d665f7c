jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { useEngine } from '../support/engine';
import { freezeWallClock } from '../support/virtualTime';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * `Retry-After` through n8n's request helpers (the nodes' channel), with virtual time: the node
 * waits what the service asked, in seconds or as an HTTP date, then succeeds; nothing is charged twice.
 */

const engine = useEngine({ clock: 'manual' });

beforeEach(() => {
	engine.emu.reset();
	// Half past a whole second: an HTTP date has whole seconds, so "20 s ahead" is 19.5 s ahead.
	freezeWallClock(Date.parse('2030-01-01T00:00:00.500Z'));
});

function gaps(path: string): number[] {
	const at = engine.emu.requests({ path }).map((r) => r.at);
	return at.slice(1).map((t, i) => t - at[i]);
}

test.each([
	['seconds', 'seconds' as const, 20_000],
	['an HTTP date', 'date' as const, 19_500],
])(
	'Account: a 429 with Retry-After as %s is waited out, then the balance comes',
	async (_, retryAfterAs, waited) => {
		engine.emu.setFaults({
			failNext: [
				{ path: '/api/v1/billing/credits', kind: 'http429', retryAfter: 20, retryAfterAs },
			],
		});
		const result = await engine.run('test/workflows/account.json');
		expect(result.error).toBeUndefined();
		expect(result.output('Get Credits')[0].json).toMatchObject({ credits: engine.emu.balance() });
		expect(engine.emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.status)).toEqual([
			429, 200,
		]);
		expect(gaps('/api/v1/billing/credits')).toEqual([waited]);
	},
);

test('Image: a 429 with an HTTP-date Retry-After delays the charged call; it is sent again once and charged once', async () => {
	engine.emu.setFaults({
		failNext: [
			{
				method: 'POST',
				path: '/api/v1/image',
				kind: 'http429',
				retryAfter: 30,
				retryAfterAs: 'date',
			},
		],
	});
	const workflow = oneNode('image', {
		operation: 'generate',
		modelId: byId('nano-banana-2'),
		prompt: 'A lighthouse',
	});
	const result = await engine.run(workflow);
	expect(result.error).toBeUndefined();
	expect(gaps('/api/v1/image')).toEqual([29_500]);
	expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(1);
	expect(result.output(NODE)[0].json.cost_credit).toBe(engine.emu.ledger()[0].credits);
});
