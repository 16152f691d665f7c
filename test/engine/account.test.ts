import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import type { Harness } from '../harness';
import { createHarness } from '../harness';

let emu: Emulator;
let harness: Harness;
let credentials: { visionStoryApi: { apiKey: string; baseUrl: string } };

beforeAll(async () => {
	emu = await startEmulator();
	harness = await createHarness();
	credentials = { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } };
});
afterAll(async () => {
	await harness.shutdown();
	await emu.stop();
});

test('the credential test reads the balance for free, and a wrong key fails it', async () => {
	expect(await harness.testCredential('visionStoryApi', credentials.visionStoryApi)).toEqual({ status: 'OK', message: 'Connection successful!' });
	const wrong = await harness.testCredential('visionStoryApi', { ...credentials.visionStoryApi, apiKey: 'sk-vs-wrong-key-000000' });
	expect(wrong.status).toBe('Error');
	const [good, ...bad] = emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.apiKey);
	expect(good).toBe('valid');
	// n8n itself sends a 401'd credential test once more after re-authenticating.
	expect(bad.length).toBeGreaterThan(0);
	expect(bad.every((k) => k === 'invalid')).toBe(true);
	expect(emu.ledger()).toHaveLength(0);
});

test('Get Credits outputs the balance with a paired item', async () => {
	const result = await harness.run('test/workflows/account.json', { credentials });
	expect(result.error).toBeUndefined();
	const [item] = result.output('Get Credits');
	expect(item.json.credits).toBe(emu.balance());
	expect(item.pairedItem).toEqual({ item: 0 });
});
