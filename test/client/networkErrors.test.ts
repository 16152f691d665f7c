jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { LateService } from '../support/lateService';
import { createUndiciClient } from '../support/undiciTransport';
import { virtualClock } from '../support/virtualTime';
import { failure } from '../support/failure';

/**
 * The same decision through the undici channel (scripts, benchmarks): after a reset or a timeout a
 * charged call is not resent and says it may have been charged; a refused connection is resent;
 * reads are resent after all of them. Asserted on the emulator's request log and ledger.
 */

let emu: Emulator;
let client: VisionStoryClient;
const png = readFileSync(join(__dirname, '../emulator/media/sample.png')).toString('base64');
const mp3 = readFileSync(join(__dirname, '../emulator/media/sample.mp3')).toString('base64');

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
	virtualClock.target = emu;
	client = createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl });
});
afterAll(async () => {
	virtualClock.onSleep = undefined;
	await emu.stop();
});
beforeEach(() => {
	emu.reset();
	virtualClock.onSleep = undefined;
});

const calls: Array<{
	name: string;
	path: string;
	send: (c: VisionStoryClient, timeoutMs?: number) => Promise<unknown>;
}> = [
	{
		name: 'image',
		path: '/api/v1/image',
		send: (c, timeoutMs) =>
			c.generateImage({ model_id: 'nano-banana-2', prompt: 'A kite' }, { timeoutMs }),
	},
	{
		name: 'speech',
		path: '/api/v1/tts',
		send: (c, timeoutMs) => c.synthesizeSpeech({ text: 'Hello', voice_id: 'Alice' }, { timeoutMs }),
	},
	{
		name: 'understand',
		path: '/api/v1/media/understand',
		send: (c, timeoutMs) =>
			c.understandMedia(
				{
					inputs: [{ inline_data: { data: png, mime_type: 'image/png' } }],
					prompt: 'What is it?',
					schema: { type: 'object', properties: { what: { type: 'string' } } },
				},
				{ timeoutMs },
			),
	},
	{
		name: 'voice clone',
		path: '/api/v1/voice',
		send: (c, timeoutMs) =>
			c.cloneVoice({ inline_data: { data: mp3, mime_type: 'audio/mpeg' } }, { timeoutMs }),
	},
];

describe.each(calls)('$name (charged)', (call) => {
	test('reset after the work was done: sent once, and the error says it may have been charged', async () => {
		emu.setFaults({ failNext: [{ method: 'POST', path: call.path, kind: 'resetAfter' }] });
		const error = await failure(call.send(client));
		expect(error).toMatchObject({ category: 'network', code: 'ECONNRESET' });
		expect(error.hint).toMatch(
			/not sent again because VisionStory may have received it and charged it/,
		);
		expect(emu.requests({ method: 'POST', path: call.path })).toHaveLength(1);
	});

	test('no answer before the timeout: sent once, and the error says it may have been charged', async () => {
		emu.setFaults({ failNext: [{ method: 'POST', path: call.path, kind: 'hangAfter' }] });
		const error = await failure(call.send(client, 300));
		expect(error.category).toBe('network');
		expect(error.hint).toMatch(/may have received it and charged it/);
		expect(emu.requests({ method: 'POST', path: call.path })).toEqual([
			expect.objectContaining({ outcome: 'unanswered' }),
		]);
	});
});

test('the charge of a call lost to a reset is on the ledger once: nothing was charged twice', async () => {
	emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/image', kind: 'resetAfter' }] });
	await failure(client.generateImage({ model_id: 'nano-banana-2', prompt: 'A kite' }));
	expect(emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(1);
});

test('a refused connection is sent again once the service is up: one request arrives, one charge', async () => {
	const late = await LateService.reserve(emu.baseUrl);
	virtualClock.onSleep = async () => await late.open();
	try {
		const viaLate = createUndiciClient(emu.apiKey, { baseUrl: late.url });
		const image = await viaLate.generateImage({ model_id: 'nano-banana-2', prompt: 'A kite' });
		expect(late.isOpen).toBe(true);
		expect(emu.requests({ method: 'POST', path: '/api/v1/image' })).toHaveLength(1);
		expect(emu.ledger()).toEqual([
			expect.objectContaining({ kind: 'charge', credits: image.cost_credit }),
		]);
	} finally {
		await late.close();
	}
});

test('a refused connection that never comes up: the attempts run out and the error says to check the network', async () => {
	const late = await LateService.reserve(emu.baseUrl);
	const never = createUndiciClient(emu.apiKey, { baseUrl: late.url, retry: { maxAttempts: 3 } });
	const error = await failure(never.generateImage({ model_id: 'nano-banana-2', prompt: 'A kite' }));
	expect(error).toMatchObject({ category: 'network', code: 'ECONNREFUSED' });
	expect(error.hint).toMatch(/Check your network and the Base URL/);
	expect(emu.ledger()).toHaveLength(0);
});

describe('a read is resent after each of them', () => {
	test.each([
		['resetBefore', ['reset', 'answered']],
		['resetAfter', ['reset', 'answered']],
		['hangAfter', ['unanswered', 'answered']],
	] as const)('%s', async (kind, outcomes) => {
		emu.setFaults({ failNext: [{ path: '/api/v1/billing/credits', kind }] });
		const credits = await client.call('getCredits', {}, { timeoutMs: 300 });
		expect(credits).toMatchObject({ credits: emu.balance() });
		expect(emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.outcome)).toEqual(
			outcomes,
		);
	});

	test('a refused connection', async () => {
		const late = await LateService.reserve(emu.baseUrl);
		virtualClock.onSleep = async () => await late.open();
		try {
			const viaLate = createUndiciClient(emu.apiKey, { baseUrl: late.url });
			expect(await viaLate.getCredits()).toMatchObject({ credits: emu.balance() });
			expect(late.isOpen).toBe(true);
		} finally {
			await late.close();
		}
	});
});
