jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type { TaskJob } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import { createUndiciClient } from '../support/undiciTransport';
import { byId, NODE } from '../support/workflow';
import { moneyNode, runTasks, SpendingClient, SpendLedger } from './support';

/**
 * Issue 25, defects 1–12: one test (or a few) per defect, each failing on the code before the fix
 * (0d24799) and passing after. The emulator's ledger is what VisionStory charged.
 */
const engine = useEngine({ clock: 'manual', renderMs: 20_000 });
const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40, maxAttempts: 3 };
let avatarId: string;
let base: VisionStoryClient;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
	base = createUndiciClient(engine.emu.apiKey, { baseUrl: engine.emu.baseUrl, retry: FAST_RETRY });
});
beforeEach(() => engine.emu.reset());

const charged = () =>
	engine.emu.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);
const posts = (path: string) => engine.emu.requests({ origin: 'api', method: 'POST', path });
const spending = (cap?: number) => new SpendingClient(base, new SpendLedger(), { cap });
const failReads = (path: string, count = 1000) =>
	engine.emu.setFaults({ failNext: [{ method: 'GET', path, kind: 'http503', count }] });

function talkingJobs(client: SpendingClient, count: number, extra = {}): TaskJob[] {
	return Array.from({ length: count }, (_, i) => ({
		request: client.validate('createTalkingVideo', {
			avatar_id: avatarId,
			text_script: { text: `Line ${i + 1}`, voice_id: 'Alice' },
			resolution: '720p',
		}),
		call: { idempotencyContext: `defects:${i}` },
		timeoutMs: 60_000,
		...extra,
	}));
}
/** The video id of an outcome, whatever shape its value has. */
function videoIdOf(outcome: { ok: boolean; value?: unknown }): string {
	const value = outcome.value as { task?: { video_id: string }; video_id?: string } | undefined;
	return outcome.ok ? (value?.task?.video_id ?? value?.video_id ?? '') : '';
}
const noWait = { waitForCompletion: false, pollIntervalMs: 5000, atLimit: 'refuse' as const };

describe('1. the cap holds for videos whatever later reads say', () => {
	test('reads right after each talking-video create fail: cap 15, at most cap + one unknown price charged, and the items do not understate it', async () => {
		failReads('/api/v1/video');
		const client = spending(15);
		const outcomes = await runTasks(client, 'talkingVideo', talkingJobs(client, 3), noWait);
		// Each talking video costs 10 here: the second of unknown price would pass 15 + 10.
		expect(charged()).toBeLessThanOrEqual(15 + 10);
		expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
		expect(client.ledger.spent() + 10 * client.ledger.unknown()).toBeGreaterThanOrEqual(charged());
	});

	test('a service that reports cost_credit 0 until a task finishes: the cap binds (cap 15, 10 a video)', async () => {
		engine.emu.setConfig({ lateCost: true });
		const client = spending(15);
		await runTasks(client, 'talkingVideo', talkingJobs(client, 4), noWait);
		expect(charged()).toBeLessThanOrEqual(15 + 10);
	});

	test('AI video: a Get of the queued task does not lower the price noted from the cost endpoint', async () => {
		engine.emu.setConfig({ lateCost: true });
		const client = spending(30);
		const request = { model_id: 'wan-2.5', prompt: 'A kite', duration_sec: 5, resolution: '720p' };
		const first = await client.send('createAiVideo', client.validate('createAiVideo', request), {
			idempotencyContext: 'a',
		});
		await client.getAiVideo({ video_id: first.video_id });
		await expect(
			client.send(
				'createAiVideo',
				client.validate('createAiVideo', { ...request, prompt: 'Another kite' }),
				{ idempotencyContext: 'b' },
			),
		).rejects.toMatchObject({ message: expect.stringMatching(/Max Credits per Execution \(30\)/) });
		expect(charged()).toBe(20);
	});

	test('an AI video create whose answer was lost, and whose resend the service refused (429), counts at its price', async () => {
		// Found by the cap's property test: the resend's 429 hid that the first attempt was charged.
		engine.emu.setFaults({
			failNext: [
				{ method: 'POST', path: '/api/v1/ai_video', kind: 'resetAfter' },
				{
					method: 'POST',
					path: '/api/v1/ai_video',
					kind: 'respond',
					respond: {
						status: 429,
						headers: { 'Retry-After': '1' },
						body: {
							error: { code: 429, message: 'Too many', details: { limit: 3, in_flight: 3 } },
						},
					},
				},
			],
		});
		const client = spending(30);
		const request = { model_id: 'wan-2.5', prompt: 'A kite', duration_sec: 5, resolution: '720p' };
		await expect(
			client.send('createAiVideo', client.validate('createAiVideo', request), {
				idempotencyContext: 'a',
			}),
		).rejects.toMatchObject({
			status: 429,
			mayHaveSucceeded: true,
		});
		expect(client.ledger.spent()).toBe(20);
		await expect(
			client.send(
				'createAiVideo',
				client.validate('createAiVideo', { ...request, prompt: 'Another kite' }),
				{ idempotencyContext: 'b' },
			),
		).rejects.toMatchObject({ message: expect.stringMatching(/Max Credits per Execution \(30\)/) });
		expect(charged()).toBe(20);
	});
});

describe('2. a charged call whose 2xx answer cannot be read is counted', () => {
	test('an image answer without url: counted at its price, the next image refused, the error says it was probably charged', async () => {
		engine.emu.setFaults({
			failNext: [
				{
					method: 'POST',
					path: '/api/v1/image',
					kind: 'rewriteAnswer',
					rewrite: { drop: ['url'] },
				},
			],
		});
		const client = spending(6);
		const image = { model_id: 'nano-banana-2', prompt: 'A bottle' };
		const error = (await client
			.send('generateImage', client.validate('generateImage', image))
			.catch((e: unknown) => e)) as VisionStoryError;
		expect(error.message).toMatch(/most likely processed and charged \(about 4 credits\)/);
		await expect(
			client.send('generateImage', client.validate('generateImage', image)),
		).rejects.toMatchObject({
			message: expect.stringMatching(
				/Max Credits per Execution \(6\) would be passed: this execution has spent 4/,
			),
		});
		expect(posts('/api/v1/image')).toHaveLength(1);
		expect(charged()).toBe(4);
	});

	test('an image answer reporting cost_credit 0 is counted at the model price, not 0', async () => {
		engine.emu.setFaults({
			failNext: [
				{
					method: 'POST',
					path: '/api/v1/image',
					kind: 'rewriteAnswer',
					rewrite: { set: { cost_credit: 0 } },
				},
			],
		});
		const client = spending(6);
		const image = { model_id: 'nano-banana-2', prompt: 'A bottle' };
		await client.send('generateImage', client.validate('generateImage', image));
		expect(client.ledger.spent()).toBe(4);
		await expect(
			client.send('generateImage', client.validate('generateImage', image)),
		).rejects.toMatchObject({
			message: expect.stringMatching(/would be passed/),
		});
		expect(charged()).toBe(4);
	});

	test('items of a node whose video prices could not be read say so instead of reporting 0', async () => {
		failReads('/api/v1/video');
		const workflow = moneyNode(
			'talkingVideo',
			'create',
			{
				avatarId: byId(avatarId),
				scriptType: 'text',
				text: '={{ $json.text }}',
				voiceId: byId('Alice'),
				resolution: '720p',
				waitForCompletion: false,
				options: { maxCreditsPerExecution: 15 },
			},
			{ onError: 'continueRegularOutput' },
		);
		const result = await engine.run(workflow, [{ text: 'One' }, { text: 'Two' }]);
		const made = result.output(NODE).filter((i) => i.json.video_id !== undefined);
		expect(made.length).toBeGreaterThan(0);
		for (const item of made) {
			expect(item.json.creditsSpentInExecution).toBe(0);
			expect(item.json.chargesOfUnknownPrice).toBe(made.length);
			expect(item.json.priceNote).toMatch(/Price known after rendering/);
		}
	});
});

test.each([
	['sent as a bare array', async () => (await base.listImageModels()).models],
	['that cannot be read (models is not a list)', async () => ({ models: 'none' })],
])(
	'3. with a cap, an image model list %s makes the price unknown, not a failure',
	async (_, data) => {
		engine.emu.setFaults({
			failNext: [
				{
					method: 'GET',
					path: '/api/v1/image/models',
					kind: 'respond',
					respond: {
						status: 200,
						body: { data: await data(), message: 'success', server_time: new Date().toISOString() },
					},
				},
			],
		});
		const client = spending(100);
		const image = await client.send(
			'generateImage',
			client.validate('generateImage', {
				model_id: 'nano-banana-2',
				prompt: 'A bottle',
			}),
		);
		expect(image.url).toEqual(expect.any(String));
		expect(charged()).toBe(4);
	},
);

describe('4. Keep at Least N Credits holds across executions (and MCP calls)', () => {
	const key = 'sk-vs-emulator-floor-000000000000';
	const speech = moneyNode(
		'textToSpeech',
		'synthesize',
		{ text: 'Hello there', voiceId: byId('Alice'), options: { maxCreditsPerExecution: 2 } },
		{ onError: 'continueRegularOutput' },
	);
	test('three executions under a cap of 2 each: the balance floor stops the third', async () => {
		engine.emu.addAccount(key, 8);
		const credentials = {
			visionStoryApi: { apiKey: key, baseUrl: engine.emu.baseUrl, keepAtLeastCredits: 4 },
		};
		const runs = [];
		for (let i = 0; i < 3; i++) runs.push(await engine.run(speech, [{}], { credentials }));
		expect(runs.map((r) => r.output(NODE)[0].json.error === undefined)).toEqual([
			true,
			true,
			false,
		]);
		expect(runs[2].output(NODE)[0].json.error).toMatch(
			/Keep at Least 4 Credits would be passed: the account has 4 credits/,
		);
		expect(engine.emu.balance(key)).toBe(4);
	});
});

describe('5. a new attempt is a new video', () => {
	test('Create, Delete, the same Create again (no execution id, as over MCP): a new video, not the deleted one', async () => {
		const client = spending();
		const jobs = () => talkingJobs(client, 1, { keyMayRepeat: true, call: {} });
		const [first] = await runTasks(client, 'talkingVideo', jobs(), noWait);
		const id = videoIdOf(first);
		await client.send(
			'deleteTalkingVideo',
			client.validate('deleteTalkingVideo', { video_id: id }),
		);
		const [again] = await runTasks(client, 'talkingVideo', jobs(), noWait);
		expect(again.ok).toBe(true);
		const second = videoIdOf(again);
		expect(second).not.toBe(id);
		expect(
			(
				await client.send(
					'getTalkingVideo',
					client.validate('getTalkingVideo', { video_id: second }),
				)
			).status,
		).not.toBe('failed');
		// Sent a third time, the live new video comes back, marked as not made by this call.
		const [third] = await runTasks(client, 'talkingVideo', jobs(), noWait);
		expect(third).toMatchObject({
			ok: true,
			value: { existing: true, task: { video_id: second } },
		});
		expect(engine.emu.tasks()).toHaveLength(1);
	});

	test('Retry On Fail after a failed, refunded render makes a new attempt each try (bounded), never charging', async () => {
		const workflow = moneyNode(
			'talkingVideo',
			'create',
			{
				avatarId: byId(avatarId),
				scriptType: 'text',
				text: 'Broken [fail]',
				voiceId: byId('Alice'),
				pollIntervalSeconds: 5,
				downloadResult: false,
			},
			{ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		);
		const result = await engine.run(workflow);
		const tasks = engine.emu.tasks();
		expect(tasks).toHaveLength(3);
		expect(new Set(tasks.map((t) => t.client_request_id)).size).toBe(3);
		expect(result.nodeError(NODE)?.message).toBe(`Talking video ${tasks[2].video_id} failed`);
		expect(charged()).toBe(0);
	});
});

test('6. a create the service processed before the connection dropped, then only 429s: the error says it may exist, with its key', async () => {
	engine.emu.setFaults({
		failNext: [
			{ method: 'POST', path: '/api/v1/video', kind: 'resetAfter' },
			{ method: 'POST', path: '/api/v1/video', kind: 'http429', count: 1000 },
		],
	});
	const client = spending();
	const [outcome] = await runTasks(
		client,
		'talkingVideo',
		talkingJobs(client, 1, { timeoutMs: 30_000 }),
		noWait,
	);
	expect(outcome.ok).toBe(false);
	const error = (outcome as { error: VisionStoryError }).error;
	expect(error.message).toMatch(
		/VisionStory may have made this talking video \(idempotency key n8n-[0-9a-f]+\)/,
	);
	expect(error.message).not.toMatch(/Nothing was created/);
	expect(error.hint).toMatch(/Idempotency Key to n8n-[0-9a-f]+/);
	expect(charged()).toBe(10);
});

test('7. a plain 429 whose details carry only limit is a rate limit: retried, not the AI-video concurrency cap', async () => {
	engine.emu.setFaults({
		failNext: [
			{
				method: 'POST',
				path: '/api/v1/ai_video',
				kind: 'respond',
				respond: {
					status: 429,
					headers: { 'Retry-After': '1' },
					body: { error: { code: 429, message: 'Rate limit exceeded', details: { limit: 100 } } },
				},
			},
		],
	});
	const client = spending();
	const job: TaskJob = {
		request: client.validate('createAiVideo', {
			model_id: 'wan-2.5',
			prompt: 'A kite',
			duration_sec: 5,
		}),
		call: { idempotencyContext: 'seven' },
		timeoutMs: 60_000,
	};
	const [outcome] = await runTasks(client, 'aiVideo', [job], noWait);
	expect(outcome.ok).toBe(true);
	expect(posts('/api/v1/ai_video')).toHaveLength(2);
});

describe('8. hints on charged calls', () => {
	test('a bare 409 on an image does not promise the original task', async () => {
		engine.emu.setFaults({
			failNext: [
				{ method: 'POST', path: '/api/v1/image', kind: 'respond', respond: { status: 409 } },
			],
		});
		const client = spending();
		const error = (await client
			.send(
				'generateImage',
				client.validate('generateImage', { model_id: 'nano-banana-2', prompt: 'A bottle' }),
			)
			.catch((e: unknown) => e)) as VisionStoryError;
		expect(error.hint).not.toMatch(/original task will be returned/);
		expect(error.hint).toMatch(/may have processed and charged it/);
	});

	test("the service's own hint comes first and the warning that the call may be charged stays", async () => {
		engine.emu.setFaults({
			failNext: [
				{
					method: 'POST',
					path: '/api/v1/image',
					kind: 'respond',
					respond: {
						status: 503,
						body: { error: { code: 503, message: 'Upstream busy', hint: 'Try again in a minute' } },
					},
				},
			],
		});
		const client = spending();
		const error = (await client
			.send(
				'generateImage',
				client.validate('generateImage', { model_id: 'nano-banana-2', prompt: 'A bottle' }),
			)
			.catch((e: unknown) => e)) as VisionStoryError;
		expect(error.hint).toMatch(/^Try again in a minute\. .*may have processed and charged it/);
	});
});

describe('9. a task reported created with an empty video_url', () => {
	const create = (downloadResult: boolean) =>
		moneyNode('talkingVideo', 'create', {
			avatarId: byId(avatarId),
			scriptType: 'text',
			text: 'Hello',
			voiceId: byId('Alice'),
			pollIntervalSeconds: 5,
			downloadResult,
		});

	test('a link that comes a little later is waited for, and the file downloaded', async () => {
		engine.emu.setConfig({ videoUrlDelayMs: 6000 });
		const result = await engine.run(create(true));
		const [item] = result.output(NODE);
		expect(item.json.status).toBe('created');
		expect(item.json.video_url).toMatch(/\.mp4$/);
		expect(item.binary?.data).toBeDefined();
	});

	test('a link that never comes: after a bounded wait the item says the file is missing', async () => {
		engine.emu.setConfig({ videoUrlDelayMs: 3_600_000 });
		const result = await engine.run(create(true));
		const [item] = result.output(NODE);
		expect(item.json.downloadError).toMatch(/gave no link to its file/);
		expect(item.json.fileMissing).toMatch(/video_url is empty/);
		expect(engine.emu.now()).toBeLessThan(engine.emu.tasks()[0].finishedAt! + 60_000);
	});

	test('Get says so too', async () => {
		engine.emu.setConfig({ videoUrlDelayMs: 3_600_000 });
		const created = await base.createTalkingVideo({
			avatar_id: avatarId,
			text_script: { text: 'Hi', voice_id: 'Alice' },
		});
		engine.emu.advance(30_000);
		const result = await engine.run(
			moneyNode('talkingVideo', 'get', { videoId: byId(created.video_id), downloadResult: false }),
		);
		expect(result.output(NODE)[0].json.fileMissing).toMatch(/gives no link to its file/);
	});
});

test('10. Text to Speech refuses a 200 that is an HTML page instead of MP3', async () => {
	engine.emu.setFaults({
		failNext: [
			{
				method: 'POST',
				path: '/api/v1/tts',
				kind: 'respond',
				respond: {
					status: 200,
					headers: { 'Content-Type': 'text/html' },
					body: '<html><head><title>Proxy login</title></head><body>Sign in</body></html>',
				},
			},
		],
	});
	const error = (await spending()
		.synthesizeSpeech({ text: 'Hello', voice_id: 'Alice' })
		.catch((e: unknown) => e)) as VisionStoryError;
	expect(error.message).toMatch(
		/answered HTTP 200 with text\/html instead of MP3 audio \("Proxy login"\)/,
	);
});

describe('11. what a result says about money', () => {
	const create = () =>
		moneyNode('talkingVideo', 'create', {
			avatarId: byId(avatarId),
			scriptType: 'text',
			text: 'Hello from the agent',
			voiceId: byId('Alice'),
			waitForCompletion: false,
			options: { idempotencyKey: 'order-1001' },
		});

	test('a create without waiting carries its cost, or says the price comes after rendering', async () => {
		const [item] = (await engine.run(create())).output(NODE);
		expect(item.json).toMatchObject({ cost_credit: 10, creditsSpentInExecution: 10 });
		engine.emu.reset();
		engine.emu.setConfig({ lateCost: true });
		const [late] = (await engine.run(create())).output(NODE);
		expect(late.json.priceNote).toMatch(/Price known after rendering/);
	});

	test('a repeated identical call that got the existing video back is marked as such', async () => {
		const [first] = (await engine.run(create())).output(NODE);
		expect(first.json.existingVideo).toBeUndefined();
		const [second] = (await engine.run(create())).output(NODE);
		expect(second.json).toMatchObject({ video_id: first.json.video_id, existingVideo: true });
		expect(second.json.existingNote).toMatch(/no new video was made/);
	});
});

describe('12. prices the package can know', () => {
	test('an image without a resolution is priced at the model default tier of credit_by_resolution', async () => {
		const { models } = await base.listImageModels();
		const priced = models.map((m) =>
			m.model_id === 'nano-banana-2'
				? { ...m, params: { ...m.params, resolution: { values: ['1K', '2K'], default: '2K' } } }
				: m,
		);
		engine.emu.setFaults({
			failNext: [
				{
					method: 'GET',
					path: '/api/v1/image/models',
					kind: 'respond',
					count: 5,
					respond: {
						status: 200,
						body: {
							data: { models: priced },
							message: 'success',
							server_time: new Date().toISOString(),
						},
					},
				},
			],
		});
		const result = await engine.run(
			moneyNode('image', 'generate', {
				modelId: byId('nano-banana-2'),
				prompt: 'A bottle',
				options: { validateOnly: true, maxCreditsPerExecution: 10 },
			}),
		);
		expect(result.output(NODE)[0].json.estimatedCredits).toBe(6);
	});

	test("Align's price is the contract's (1 credit per started 5 minutes): Validate Only says it", async () => {
		const wav = readFileSync(join(__dirname, '../emulator/media/sample.wav')).toString('base64');
		const result = await engine.run(
			{
				...moneyNode('align', 'align', {
					audioSource: 'binary',
					text: 'Hello there',
					options: { validateOnly: true },
				}),
			},
			[{}],
			{
				pinData: {
					'When clicking ‘Execute workflow’': [
						{ json: {}, binary: { data: { data: wav, mimeType: 'audio/wav', fileName: 's.wav' } } },
					],
				},
			},
		);
		expect(result.output(NODE)[0].json).toMatchObject({ estimatedCredits: 1, priceKnown: true });
	});

	test('Voice Clone is under the cap as a call of unknown price', async () => {
		const clone = moneyNode(
			'voice',
			'clone',
			{
				sampleSource: 'url',
				sampleUrl: '={{ $json.mediaBase }}/media/sample.mp3',
				options: {},
			},
			{ onError: 'continueRegularOutput' },
		);
		const credentials = {
			visionStoryApi: { ...engine.credentials.visionStoryApi!, maxCreditsPerExecution: 5 },
		};
		const result = await engine.run(clone, [{}, {}], { credentials });
		const out = result.output(NODE);
		expect(out[0].json.voice_id).toEqual(expect.any(String));
		expect(out[1].json.error).toMatch(/Max Credits per Execution \(5\)/);
		expect(posts('/api/v1/voice')).toHaveLength(1);
	});
});
