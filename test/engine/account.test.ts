import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import type { Harness } from '../harness';
import { createHarness } from '../harness';
import {
	baseUrlOf,
	DEFAULT_BASE_URL,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/n8n/client';

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
	expect(await harness.testCredential('visionStoryApi', credentials.visionStoryApi)).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const wrong = await harness.testCredential('visionStoryApi', {
		...credentials.visionStoryApi,
		apiKey: 'sk-vs-wrong-key-000000',
	});
	expect(wrong.status).toBe('Error');
	const [good, ...bad] = emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.apiKey);
	expect(good).toBe('valid');
	// n8n itself sends a 401'd credential test once more after re-authenticating.
	expect(bad.length).toBeGreaterThan(0);
	expect(bad.every((k) => k === 'invalid')).toBe(true);
	expect(emu.ledger()).toHaveLength(0);
});

test('a key pasted with spaces around it is sent trimmed, as VisionStory reads it, by the credential test too', async () => {
	let sent: unknown;
	const result = await harness.testCredential(
		'visionStoryApi',
		{ ...credentials.visionStoryApi, apiKey: ` ${emu.apiKey}  ` },
		{ beforeSend: (request) => (sent = request.headers?.['X-API-Key']) },
	);
	expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect(sent).toBe(emu.apiKey);
});

test.each([[''], ['   '], ['https://openapi.visionstory.ai//']])(
	'Base URL %j: the credential test goes where the nodes go, the production address',
	async (baseUrl) => {
		let sentTo: string | undefined;
		const result = await harness.testCredential(
			'visionStoryApi',
			{ apiKey: emu.apiKey, baseUrl },
			{
				beforeSend: (request) => {
					sentTo = `${request.baseURL ?? ''}${request.url}`;
					// Tests never reach the internet.
					throw new Error('stopped before sending');
				},
			},
		);
		expect(result.status).toBe('Error');
		expect(sentTo).toBe(`${DEFAULT_BASE_URL}/api/v1/billing/credits`);
		expect(baseUrlOf({ baseUrl })).toBe(DEFAULT_BASE_URL);
	},
);

test('Get Credits outputs the balance with a paired item', async () => {
	const result = await harness.run('test/workflows/account.json', { credentials });
	expect(result.error).toBeUndefined();
	const [item] = result.output('Get Credits');
	expect(item.json.credits).toBe(emu.balance());
	expect(item.pairedItem).toEqual({ item: 0 });
});
