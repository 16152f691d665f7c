jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INodeParameters } from 'n8n-workflow';

import type { EndpointName } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/contract';
import { endpoints } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/contract';
import type { RunResult } from '../harness';
import { useEngine } from '../support/engine';
import { LateService } from '../support/lateService';
import { virtualClock } from '../support/virtualTime';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * A connection that fails without an answer, through n8n's request helpers (the nodes' channel).
 * Whether the request is sent again depends on whether it may have reached VisionStory: after a
 * reset or a timeout it may have been processed and charged, so a charged synchronous call is not
 * resent and the error says so; a refused connection never left the machine, so it is resent. A
 * read is resent after either.
 */

const engine = useEngine({ clock: 'manual' });

beforeEach(() => {
	engine.emu.reset();
	virtualClock.onSleep = undefined;
});
afterAll(() => {
	virtualClock.onSleep = undefined;
});

interface ChargedCall {
	node: string;
	type: string;
	parameters: INodeParameters;
	operation: EndpointName;
	path: string;
	/** What the call leaves behind at the service when it was processed. */
	made(): Promise<number>;
}

const charges = async () => engine.emu.ledger().filter((e) => e.kind === 'charge').length;
const clonedVoices = async () => {
	const response = await fetch(`${engine.emu.baseUrl}/api/v1/voices?limit=1`, {
		headers: { 'x-api-key': engine.emu.apiKey },
	});
	return ((await response.json()) as { data: { my_voices: unknown[] } }).data.my_voices.length;
};

const CHARGED: ChargedCall[] = [
	{
		node: 'Generate Image',
		type: 'image',
		parameters: {
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: 'A lighthouse at dusk',
		},
		operation: 'generateImage',
		path: '/api/v1/image',
		made: charges,
	},
	{
		node: 'Synthesize Speech',
		type: 'textToSpeech',
		parameters: { operation: 'synthesize', text: 'Hello there', voiceId: byId('Alice') },
		operation: 'synthesizeSpeech',
		path: '/api/v1/tts',
		made: charges,
	},
	{
		node: 'Analyze',
		type: 'understand',
		parameters: {
			operation: 'analyze',
			inputs: { input: [{ source: 'url', url: '={{ $json.mediaBase }}/media/sample.png' }] },
			prompt: 'Classify the image',
			schemaMode: 'json',
			jsonSchema:
				'{"type":"object","properties":{"category":{"type":"string"}},"required":["category"]}',
		},
		operation: 'understandMedia',
		path: '/api/v1/media/understand',
		made: charges,
	},
	{
		node: 'Clone Voice',
		type: 'voice',
		parameters: {
			operation: 'clone',
			sampleSource: 'url',
			sampleUrl: '={{ $json.mediaBase }}/media/sample.mp3',
		},
		operation: 'cloneVoice',
		path: '/api/v1/voice',
		made: clonedVoices,
	},
];

/** Runs with the operation's client timeout shortened, so a request the service never answers times out at once. */
async function withTimeout<T>(
	operation: EndpointName,
	ms: number,
	run: () => Promise<T>,
): Promise<T> {
	const spec = endpoints[operation];
	const saved = spec.timeoutMs;
	spec.timeoutMs = ms;
	try {
		return await run();
	} finally {
		spec.timeoutMs = saved;
	}
}

/**
 * n8n's own wording for these error codes invites a retry ("You can retry the request immediately",
 * "consider setting the 'Retry on Fail' option"): wrong advice for a call that may have been charged.
 */
const NO_RETRY_ADVICE = /retry the request|Retry on Fail/i;

/** What the user reads in n8n: the error's message and its description. */
function shownError(result: RunResult): string {
	expect(result.error).toBeDefined();
	const error = result.error as { message: string; description?: string | null };
	return `${error.message} ${error.description ?? ''}`;
}

describe.each(CHARGED)('$node, a charged call', (call) => {
	const workflow = () => oneNode(call.type, call.parameters);

	test('connection reset after the service did the work (ECONNRESET): not sent again; the error says it may have been charged', async () => {
		engine.emu.setFaults({ failNext: [{ method: 'POST', path: call.path, kind: 'resetAfter' }] });
		const result = await engine.run(workflow());
		const shown = shownError(result);
		expect(shown).toContain('ECONNRESET');
		expect(shown).toMatch(/not sent again because VisionStory may have received it and charged it/);
		expect(shown).not.toMatch(NO_RETRY_ADVICE);
		expect(engine.emu.requests({ method: 'POST', path: call.path })).toHaveLength(1);
		expect(await call.made()).toBe(1);
	});

	test('no answer in time (ETIMEDOUT): not sent again; the error says it may have been charged', async () => {
		engine.emu.setFaults({ failNext: [{ method: 'POST', path: call.path, kind: 'hangAfter' }] });
		const result = await withTimeout(call.operation, 300, async () => await engine.run(workflow()));
		const shown = shownError(result);
		expect(shown).toContain('ETIMEDOUT');
		expect(shown).toMatch(/not sent again because VisionStory may have received it and charged it/);
		expect(shown).not.toMatch(NO_RETRY_ADVICE);
		expect(engine.emu.requests({ method: 'POST', path: call.path })).toEqual([
			expect.objectContaining({ outcome: 'unanswered' }),
		]);
		expect(await call.made()).toBe(1);
	});
});

describe('a refused connection (ECONNREFUSED) never reached the service: sent again', () => {
	async function runAgainstLateService(
		file: string | ReturnType<typeof oneNode>,
	): Promise<{ result: RunResult; opened: number }> {
		const late = await LateService.reserve(engine.emu.baseUrl);
		let opened = 0;
		// The service comes up while the client waits to retry.
		virtualClock.onSleep = async () => {
			if (!late.isOpen) {
				opened++;
				await late.open();
			}
		};
		try {
			const result = await engine.run(file, undefined, {
				credentials: { visionStoryApi: { apiKey: engine.emu.apiKey, baseUrl: late.url } },
			});
			return { result, opened };
		} finally {
			await late.close();
		}
	}

	test('Text to Speech (charged): sent again once the service is up, and charged once', async () => {
		const call = CHARGED[1];
		const { result, opened } = await runAgainstLateService(oneNode(call.type, call.parameters));
		expect(result.error).toBeUndefined();
		expect(opened).toBe(1);
		expect(result.output(NODE)[0].binary?.data).toMatchObject({ mimeType: 'audio/mpeg' });
		expect(engine.emu.requests({ method: 'POST', path: call.path })).toHaveLength(1);
		expect(await charges()).toBe(1);
	});

	test('Account (a read): sent again once the service is up', async () => {
		const { result, opened } = await runAgainstLateService('test/workflows/account.json');
		expect(result.error).toBeUndefined();
		expect(opened).toBe(1);
		expect(result.output('Get Credits')[0].json).toMatchObject({ credits: engine.emu.balance() });
	});
});

describe('a read is sent again after any of them', () => {
	test('connection reset (ECONNRESET)', async () => {
		engine.emu.setFaults({ failNext: [{ path: '/api/v1/billing/credits', kind: 'resetAfter' }] });
		const result = await engine.run('test/workflows/account.json');
		expect(result.error).toBeUndefined();
		expect(engine.emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.outcome)).toEqual([
			'reset',
			'answered',
		]);
	});

	test('no answer in time (ETIMEDOUT)', async () => {
		engine.emu.setFaults({ failNext: [{ path: '/api/v1/billing/credits', kind: 'hangAfter' }] });
		const result = await withTimeout(
			'getCredits',
			300,
			async () => await engine.run('test/workflows/account.json'),
		);
		expect(result.error).toBeUndefined();
		expect(engine.emu.requests({ path: '/api/v1/billing/credits' }).map((r) => r.outcome)).toEqual([
			'unanswered',
			'answered',
		]);
	});
});
