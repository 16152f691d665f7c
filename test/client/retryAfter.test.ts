jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { createUndiciClient } from '../support/undiciTransport';
import { freezeWallClock, virtualClock } from '../support/virtualTime';

/**
 * `Retry-After` from the service, in seconds and as an HTTP date: the exchange waits that long
 * before it sends again. Time is virtual: the waits advance the emulator's clock, which stamps
 * each request in its log, so the gap between two requests is exactly what the client waited.
 */

let emu: Emulator;
let client: VisionStoryClient;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
	virtualClock.target = emu;
	client = createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl });
});
afterAll(async () => await emu.stop());
beforeEach(() => {
	emu.reset();
	// Half past a whole second: an HTTP date has whole seconds, so a date "45 s ahead" is 44.5 s ahead.
	freezeWallClock(Date.parse('2030-01-01T00:00:00.500Z'));
});

const CREDITS = '/api/v1/billing/credits';

/** Gaps, in ms of the emulator's clock, between the requests made to a path. */
function gaps(path: string): number[] {
	const at = emu.requests({ path }).map((r) => r.at);
	return at.slice(1).map((t, i) => t - at[i]);
}

test('Retry-After in seconds: the read is sent again exactly that much later', async () => {
	emu.setFaults({ failNext: [{ path: CREDITS, kind: 'http429', retryAfter: 7 }] });
	expect((await client.getCredits()).credits).toBe(emu.balance());
	expect(emu.requests({ path: CREDITS }).map((r) => r.status)).toEqual([429, 200]);
	expect(gaps(CREDITS)).toEqual([7_000]);
});

test('Retry-After as an HTTP date: the exchange waits until that moment', async () => {
	emu.setFaults({
		failNext: [{ path: CREDITS, kind: 'http429', retryAfter: 45, retryAfterAs: 'date' }],
	});
	await client.getCredits();
	expect(emu.requests({ path: CREDITS }).map((r) => r.status)).toEqual([429, 200]);
	expect(gaps(CREDITS)).toEqual([44_500]);
});

test('two dates in a row are each waited out', async () => {
	emu.setFaults({
		failNext: [{ path: CREDITS, kind: 'http429', retryAfter: 3, retryAfterAs: 'date', count: 2 }],
	});
	await client.getCredits();
	// The second date is counted from the first resend, which came at a whole second.
	expect(gaps(CREDITS)).toEqual([2_500, 3_000]);
});

test('a date already past: sent again at once', async () => {
	emu.setFaults({
		failNext: [{ path: CREDITS, kind: 'http429', retryAfter: -30, retryAfterAs: 'date' }],
	});
	await client.getCredits();
	expect(gaps(CREDITS)).toEqual([0]);
});

test('a charged call refused with 429 (nothing charged) is sent again after Retry-After and charged once', async () => {
	emu.setFaults({
		failNext: [
			{
				method: 'POST',
				path: '/api/v1/image',
				kind: 'http429',
				retryAfter: 12,
				retryAfterAs: 'date',
			},
		],
	});
	const image = await client.generateImage({ model_id: 'nano-banana-2', prompt: 'A lighthouse' });
	expect(gaps('/api/v1/image')).toEqual([11_500]);
	expect(emu.ledger()).toEqual([
		expect.objectContaining({ kind: 'charge', credits: image.cost_credit }),
	]);
});

test('a Retry-After longer than the usual backoff but within the retry budget is waited out in full, not cut short', async () => {
	emu.setFaults({ failNext: [{ path: CREDITS, kind: 'http429', retryAfter: 90 }] });
	await client.getCredits();
	expect(gaps(CREDITS)).toEqual([90_000]);
});

test('a Retry-After past the retry budget: no early resend; the 429 comes back at once', async () => {
	emu.setFaults({
		failNext: [{ path: CREDITS, kind: 'http429', retryAfter: 600, retryAfterAs: 'date' }],
	});
	const started = emu.now();
	const error = await client.getCredits().catch((e: unknown) => e);
	expect(error).toBeInstanceOf(VisionStoryError);
	expect(error).toMatchObject({ category: 'api', status: 429 });
	expect(emu.requests({ path: CREDITS })).toHaveLength(1);
	expect(emu.now() - started).toBe(0);
});
