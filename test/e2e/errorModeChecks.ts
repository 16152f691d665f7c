/**
 * The editor's three On Error settings on a batch of talking videos where one render fails, run by
 * real n8n: where the finished and the failed items end up, and what the failed one carries.
 */
import { nodeOutput } from '../../scripts/n8n/runData';
import type { FaultResponse } from '../emulator/types';
import type { SuiteContext } from './realN8n';

const VIDEOS = 'Talking Videos';
const CREDENTIAL = { visionStoryApi: { id: 'vsCredential0001', name: 'VisionStory account' } };
const MODES = ['continueErrorOutput', 'continueRegularOutput', 'stopWorkflow'] as const;
type Mode = (typeof MODES)[number];

/** Manual trigger → a public avatar → three scripts, the second marked to fail → one Talking Video node. */
function threeVideosWorkflow(mode: Mode): Record<string, unknown> {
	const id = `vsOnError${mode}`;
	return {
		id,
		name: `On Error: ${mode}`,
		nodes: [
			{
				id: `${id}-1`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${id}-2`,
				name: 'Pick Public Avatar',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'avatar', operation: 'getMany', library: 'public', limit: 1 },
				credentials: CREDENTIAL,
			},
			{
				id: `${id}-3`,
				name: 'Scripts',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [440, 0],
				parameters: {
					assignments: {
						assignments: [
							{
								id: 'a1',
								name: 'script',
								value:
									'={{ ["Welcome to the show.", "This one will [fail] to render.", "See you next week."] }}',
								type: 'array',
							},
							{ id: 'a2', name: 'avatarId', value: '={{ $json.avatar_id }}', type: 'string' },
						],
					},
					options: {},
				},
			},
			{
				id: `${id}-4`,
				name: 'One Item per Script',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [660, 0],
				parameters: { fieldToSplitOut: 'script', include: 'allOtherFields', options: {} },
			},
			{
				id: `${id}-5`,
				name: VIDEOS,
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [880, 0],
				parameters: {
					resource: 'talkingVideo',
					operation: 'create',
					avatarId: { __rl: true, mode: 'id', value: '={{ $json.avatarId }}' },
					scriptType: 'text',
					text: '={{ $json.script }}',
					voiceId: { __rl: true, mode: 'id', value: 'Alice' },
					downloadResult: false,
					pollIntervalSeconds: 5,
				},
				credentials: CREDENTIAL,
				...(mode === 'stopWorkflow' ? {} : { onError: mode }),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Pick Public Avatar', type: 'main', index: 0 }]] },
			'Pick Public Avatar': { main: [[{ node: 'Scripts', type: 'main', index: 0 }]] },
			Scripts: { main: [[{ node: 'One Item per Script', type: 'main', index: 0 }]] },
			'One Item per Script': { main: [[{ node: VIDEOS, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Create without waiting, then Check Status at once: the video is still rendering, so it leaves by the second output. */
function checkStatusWorkflow(): Record<string, unknown> {
	const base = threeVideosWorkflow('continueErrorOutput') as {
		nodes: Array<Record<string, any>>;
		connections: Record<string, unknown>;
	};
	const nodes = base.nodes.filter((n) => n.name !== VIDEOS);
	const create = base.nodes.find((n) => n.name === VIDEOS)!;
	create.parameters = {
		...create.parameters,
		waitForCompletion: false,
		text: 'Checking in on this one.',
	};
	delete create.onError;
	return {
		id: 'vsCheckStatus',
		name: 'Check Status',
		nodes: [
			...nodes.filter((n) => n.name !== 'Scripts' && n.name !== 'One Item per Script'),
			{
				...create,
				parameters: {
					...create.parameters,
					avatarId: { __rl: true, mode: 'id', value: '={{ $json.avatar_id }}' },
				},
			},
			{
				id: 'vsCheckStatus-6',
				name: 'Check Status',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [1100, 0],
				parameters: {
					resource: 'talkingVideo',
					operation: 'check',
					videoId: { __rl: true, mode: 'id', value: '={{ $json.video_id }}' },
				},
				credentials: CREDENTIAL,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Pick Public Avatar', type: 'main', index: 0 }]] },
			'Pick Public Avatar': { main: [[{ node: VIDEOS, type: 'main', index: 0 }]] },
			[VIDEOS]: { main: [[{ node: 'Check Status', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Manual trigger → one VisionStory node set to Continue (using regular output), so its error item is the output. */
function oneNodeWorkflow(
	id: string,
	type: string,
	parameters: Record<string, unknown>,
): Record<string, unknown> {
	return {
		id,
		name: `Error body: ${id}`,
		nodes: [
			{
				id: `${id}-1`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${id}-2`,
				name: 'Node',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: type, ...parameters },
				credentials: CREDENTIAL,
				onError: 'continueRegularOutput',
			},
		],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const SPEECH = {
	operation: 'synthesize',
	text: 'Hello there',
	voiceId: { __rl: true, mode: 'id', value: 'Alice' },
};
const ERROR_BODIES: Array<{
	id: string;
	type: string;
	parameters: Record<string, unknown>;
	method: string;
	path: string;
	respond: FaultResponse;
	expected: Record<string, unknown>;
}> = [
	{
		id: 'vsErrTts402',
		type: 'textToSpeech',
		parameters: SPEECH,
		method: 'POST',
		path: '/api/v1/tts',
		respond: {
			status: 402,
			body: {
				error: {
					code: 402,
					message: 'Insufficient credits: 2 needed, 0 left',
					hint: 'Top up credits at https://www.visionstory.ai/pricing',
				},
			},
		},
		expected: {
			error: 'Insufficient credits: 2 needed, 0 left',
			hint: 'Top up credits at https://www.visionstory.ai/pricing',
			status: 402,
			code: 402,
		},
	},
	{
		id: 'vsErrTts422',
		type: 'textToSpeech',
		parameters: SPEECH,
		method: 'POST',
		path: '/api/v1/tts',
		respond: {
			status: 422,
			body: {
				error: {
					code: 422,
					message: null,
					hint: null,
					details: JSON.stringify([
						{ loc: ['body', 'voice_id'], msg: 'unknown voice', type: 'value_error' },
					]),
				},
			},
		},
		expected: {
			error: expect.stringMatching(
				/^VisionStory refused the request \(HTTP 422\) \("[^"]+" \(voiceId\): unknown voice\)$/,
			),
			hint: 'Fix the fields listed above and run again.',
			status: 422,
		},
	},
	{
		id: 'vsErrTts502',
		type: 'textToSpeech',
		parameters: SPEECH,
		method: 'POST',
		path: '/api/v1/tts',
		respond: {
			status: 502,
			headers: { 'Content-Type': 'text/html' },
			body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>',
		},
		expected: {
			error:
				'VisionStory or a proxy in front of it answered HTTP 502 with an HTML page instead of an API answer ("502 Bad Gateway")',
			hint: expect.stringMatching(
				/not sent again because VisionStory may have processed and charged it/,
			),
			status: 502,
		},
	},
	{
		id: 'vsErrRedirect',
		type: 'account',
		parameters: { operation: 'getCredits' },
		method: 'GET',
		path: '/api/v1/billing/credits',
		respond: {
			status: 301,
			headers: { Location: 'https://openapi.visionstory.ai/api/v1/billing/credits' },
		},
		expected: {
			error:
				'The Base URL redirects: VisionStory answered HTTP 301 pointing to https://openapi.visionstory.ai',
			hint: expect.stringMatching(/https:\/\/ instead of http:\/\//),
			status: 301,
		},
	},
];

/** Error bodies of several shapes through real n8n's request helpers (a stream for speech, JSON for the rest): what the error item says. */
function describeErrorBodyChecks(ctx: SuiteContext): void {
	describe('error bodies as real n8n hands them to the node', () => {
		beforeAll(async () => {
			await ctx.session.instance.importWorkflows(
				ERROR_BODIES.map((c) => oneNodeWorkflow(c.id, c.type, c.parameters)),
			);
		}, 120_000);
		afterEach(() => ctx.emulator.clearFaults());

		test.each(ERROR_BODIES)(
			'$id: the error item carries the message and hint the user should read',
			async (c) => {
				ctx.emulator.setFaults({
					failNext: [{ method: c.method, path: c.path, kind: 'respond', respond: c.respond }],
				});
				const result = await ctx.session.instance.execute(c.id);
				expect(result.status).toBe('success');
				const [item] = nodeOutput(result, 'Node', 0);
				expect(item.json).toMatchObject(c.expected);
			},
		);
	});
}

export function describeErrorModeChecks(ctx: SuiteContext): void {
	describeErrorBodyChecks(ctx);
	describe('On Error settings with one failing render among three', () => {
		beforeAll(async () => {
			await ctx.session.instance.importWorkflows([
				...MODES.map(threeVideosWorkflow),
				checkStatusWorkflow(),
			]);
		}, 120_000);

		const failedTask = (before: Set<string>) => {
			const failed = ctx.emulator
				.tasks()
				.filter((t) => !before.has(t.video_id) && t.status === 'failed');
			expect(failed).toHaveLength(1);
			return failed[0];
		};

		test('Continue (using error output): 2 items on the success output, 1 on the error output carrying the video id', async () => {
			const before = new Set(ctx.emulator.tasks().map((t) => t.video_id));
			const result = await ctx.session.instance.execute(`vsOnError${'continueErrorOutput'}`);
			expect(result.status).toBe('success');
			const success = nodeOutput(result, VIDEOS, 0);
			const errors = nodeOutput(result, VIDEOS, 1);
			expect(success.map((i) => i.json.status)).toEqual(['created', 'created']);
			expect(errors).toHaveLength(1);
			const failed = failedTask(before);
			expect(errors[0].json.error).toMatchObject({
				video_id: failed.video_id,
				hint: expect.stringMatching(/refunded/),
			});
			expect(errors[0].json.message).toContain(failed.video_id);
			// n8n merges the input item into error items: the script that failed is there too.
			expect(errors[0].json.script).toMatch(/\[fail\]/);
		});

		test('Continue (using regular output): 3 items on the one output, the failed one an error item with its video id', async () => {
			const before = new Set(ctx.emulator.tasks().map((t) => t.video_id));
			const result = await ctx.session.instance.execute(`vsOnError${'continueRegularOutput'}`);
			expect(result.status).toBe('success');
			const items = nodeOutput(result, VIDEOS, 0);
			expect(items).toHaveLength(3);
			expect(items[1].json).toMatchObject({
				video_id: failedTask(before).video_id,
				error: expect.stringMatching(/failed/),
			});
			expect([items[0].json.status, items[2].json.status]).toEqual(['created', 'created']);
		});

		test('Check Status has two outputs in n8n: a video still rendering leaves by Still Rendering', async () => {
			const result = await ctx.session.instance.execute('vsCheckStatus');
			expect(result.status).toBe('success');
			const [created] = nodeOutput(result, VIDEOS, 0);
			expect(nodeOutput(result, 'Check Status', 0)).toHaveLength(0);
			expect(nodeOutput(result, 'Check Status', 1).map((i) => i.json.video_id)).toEqual([
				created.json.video_id,
			]);
		});

		test('Stop Workflow: the execution fails naming the failed video; the finished ones were still charged once', async () => {
			const before = new Set(ctx.emulator.tasks().map((t) => t.video_id));
			const result = await ctx.session.instance.execute(`vsOnError${'stopWorkflow'}`);
			expect(result.status).toBe('error');
			expect(result.error).toContain(failedTask(before).video_id);
			const made = ctx.emulator.tasks().filter((t) => !before.has(t.video_id));
			expect(made.filter((t) => t.status === 'created')).toHaveLength(2);
		});
	});
}
