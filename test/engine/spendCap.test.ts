jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INodeParameters } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { firstPublicAvatarId } from '../support/avatars';
import { TRIGGER, useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * Max Credits per Execution: charged calls are priced first and refused, with nothing sent, when the
 * execution's spend would pass the cap; the emulator's ledger is the proof of what was charged.
 */
const engine = useEngine({ clock: 'manual', renderMs: 20_000 });
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});

beforeEach(() => engine.emu.reset());

const charged = () =>
	engine.emu.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);
/** The test credential with a default cap. */
const withCap = (maxCreditsPerExecution: number) => ({
	visionStoryApi: { ...engine.credentials.visionStoryApi!, maxCreditsPerExecution },
});
const posts = (path: string) => engine.emu.requests({ origin: 'api', method: 'POST', path });

const speech = (options: INodeParameters = {}) =>
	oneNode(
		'textToSpeech',
		{ operation: 'synthesize', text: '={{ $json.text }}', voiceId: byId('Alice'), options },
		{ onError: 'continueRegularOutput' },
	);

test('a batch stops at the cap: items whose price would pass it are refused, nothing sent for them; the ledger matches the spend', async () => {
	// Each short text costs 2 credits: three fit under 6, the fourth and fifth do not.
	const items = Array.from({ length: 5 }, (_, i) => ({ text: `Voice-over line ${i + 1}` }));
	const result = await engine.run(speech({ maxCreditsPerExecution: 6 }), items);
	const out = result.output(NODE);
	expect(out.filter((i) => i.json.error === undefined)).toHaveLength(3);
	const refused = out.filter((i) => i.json.error !== undefined);
	expect(refused).toHaveLength(2);
	for (const item of refused) {
		expect(item.json.error).toMatch(
			/Max Credits per Execution \(6\) would be passed: this execution has spent \d+ credits( \(and calls under way may cost \d+ more\))?\. It would cost about 2 credits\. Nothing was sent or charged/,
		);
	}
	expect(posts('/api/v1/tts')).toHaveLength(3);
	expect(charged()).toBe(6);
	expect(
		out
			.filter((i) => i.json.error === undefined)
			.every((i) => i.json.creditsSpentInExecution === 6 && i.json.maxCreditsPerExecution === 6),
	).toBe(true);
});

test("the credential's cap is the default for every node of the execution, and the spend spans nodes", async () => {
	const workflow: WorkflowJson = speech();
	const second = {
		...workflow.nodes[1],
		id: 'second',
		name: 'Second voice-over',
		parameters: { ...workflow.nodes[1].parameters, text: 'A second line' },
	};
	workflow.nodes.push(second);
	workflow.connections[NODE] = { main: [[{ node: second.name, type: 'main', index: 0 }]] };
	const credentials = withCap(4);
	const result = await engine.run(workflow, [{ text: 'First line' }, { text: 'Second line' }], {
		credentials,
	});
	expect(result.output(NODE).map((i) => i.json.creditsSpentInExecution)).toEqual([4, 4]);
	const after = result.output(second.name);
	expect(after.map((i) => i.json.error)).toEqual([
		expect.stringMatching(
			/Max Credits per Execution \(4\) would be passed: this execution has spent 4 credits/,
		),
		expect.anything(),
	]);
	expect(after[0].json.hint).toMatch(/credential/);
	expect(charged()).toBe(4);
	// Another execution starts from nothing.
	const next = await engine.run(workflow, [{ text: 'Only line' }], { credentials });
	expect(next.output(second.name)[0].json.creditsSpentInExecution).toBe(4);
	expect(charged()).toBe(8);
});

test('a node option overrides the credential; a cap that is not a whole number is refused naming the field', async () => {
	const credentials = withCap(2);
	const result = await engine.run(
		speech({ maxCreditsPerExecution: 10 }),
		[{ text: 'One' }, { text: 'Two' }],
		{ credentials },
	);
	expect(result.output(NODE).map((i) => i.json.maxCreditsPerExecution)).toEqual([10, 10]);
	expect(charged()).toBe(4);

	engine.emu.reset();
	const bad = await engine.run(
		oneNode('textToSpeech', {
			operation: 'synthesize',
			text: 'x',
			voiceId: byId('Alice'),
			options: { maxCreditsPerExecution: -3 },
		}),
	);
	expect(bad.nodeError(NODE)?.message).toMatch(
		/Max Credits per Execution \(maxCreditsPerExecution\) in the node Options must be a whole number of credits/,
	);
	expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
});

test('an AI video priced past the cap by the cost endpoint is refused before it is submitted', async () => {
	const workflow = oneNode('aiVideo', {
		operation: 'create',
		modelId: byId('wan-2.5'),
		prompt: 'A sneaker on a marble plinth',
		duration: 5,
		resolution: '720p',
		waitForCompletion: false,
		options: { maxCreditsPerExecution: 15 },
	});
	const result = await engine.run(workflow);
	expect(result.nodeError(NODE)?.message).toMatch(
		/Max Credits per Execution \(15\) would be passed: this execution has spent 0 credits\. It would cost about 20 credits/,
	);
	expect(
		engine.emu.requests({ origin: 'api', method: 'GET', path: '/api/v1/ai_video/cost' }),
	).toHaveLength(1);
	expect(posts('/api/v1/ai_video')).toHaveLength(0);
	expect(engine.emu.ledger()).toHaveLength(0);
});

test('a batch of AI videos is priced once and submitted while it fits: the third is refused unsent', async () => {
	const workflow = oneNode(
		'aiVideo',
		{
			operation: 'create',
			modelId: byId('wan-2.5'),
			prompt: '={{ $json.prompt }}',
			duration: 5,
			resolution: '720p',
			waitForCompletion: false,
			options: { maxCreditsPerExecution: 50 },
		},
		{ onError: 'continueRegularOutput' },
	);
	const result = await engine.run(workflow, [
		{ prompt: 'A red sneaker' },
		{ prompt: 'A blue sneaker' },
		{ prompt: 'A green sneaker' },
	]);
	const out = result.output(NODE);
	expect(out.map((i) => typeof i.json.video_id)).toEqual(['string', 'string', 'undefined']);
	expect(out[2].json.error).toMatch(
		/Max Credits per Execution \(50\) would be passed: this execution has spent 40 credits\. It would cost about 20 credits/,
	);
	expect(posts('/api/v1/ai_video')).toHaveLength(2);
	expect(charged()).toBe(40);
	expect(out[0].json.creditsSpentInExecution).toBe(40);
});

test('an image priced past the cap by its model entry is refused before it is sent', async () => {
	const workflow = oneNode('image', {
		operation: 'generate',
		modelId: byId('seedream-5.0-lite'),
		prompt: 'A sneaker',
		resolution: '4K',
		options: { maxCreditsPerExecution: 3 },
	});
	const result = await engine.run(workflow);
	expect(result.nodeError(NODE)?.message).toMatch(
		/Max Credits per Execution \(3\) would be passed.*It would cost about \d+ credits/,
	);
	expect(posts('/api/v1/image')).toHaveLength(0);
	expect(engine.emu.ledger()).toHaveLength(0);
});

test('talking videos, whose price is known only afterwards, are counted as charged and the next one is refused once the cap is reached', async () => {
	// 720p costs 10 here; the node learns it from the task right after each create.
	const workflow = oneNode(
		'talkingVideo',
		{
			operation: 'create',
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
	const result = await engine.run(workflow, [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }]);
	const out = result.output(NODE);
	expect(out.map((i) => i.json.video_id !== undefined)).toEqual([true, true, false]);
	expect(out[2].json.error).toMatch(
		/Max Credits per Execution \(15\) would be passed: this execution has spent 20 credits\. Its price is known only after the call, and the cap is reached/,
	);
	expect(posts('/api/v1/video')).toHaveLength(2);
	expect(charged()).toBe(20);
	expect(out[0].json.creditsSpentInExecution).toBe(20);
});

test('calls of unknown price running side by side go one at a time: each sees what the one before cost (understand)', async () => {
	const workflow = oneNode(
		'understand',
		{
			operation: 'analyze',
			inputs: { input: [{ source: 'url', url: '={{ $json.mediaBase }}/media/sample.png' }] },
			prompt: '={{ $json.prompt }}',
			schemaMode: 'fields',
			fields: {
				field: [
					{ name: 'mood', type: 'string', allowedValues: 'happy, calm, sad', required: true },
				],
			},
			options: { maxCreditsPerExecution: 2 },
		},
		{ onError: 'continueRegularOutput' },
	);
	const result = await engine.run(workflow, [
		{ prompt: 'Mood?' },
		{ prompt: 'Mood, again?' },
		{ prompt: 'Mood, once more?' },
	]);
	const out = result.output(NODE);
	expect(out.map((i) => i.json.error === undefined)).toEqual([true, true, false]);
	expect(out[2].json.error).toMatch(
		/Max Credits per Execution \(2\) would be passed: this execution has spent 2 credits\. Its price is known only after the call, and the cap is reached/,
	);
	expect(posts('/api/v1/media/understand')).toHaveLength(2);
	expect(charged()).toBe(2);
});

test("n8n's Retry On Fail re-runs a create with the same keys: the videos come back uncharged, are not counted twice and the cap does not refuse them", async () => {
	const workflow = oneNode(
		'talkingVideo',
		{
			operation: 'create',
			avatarId: byId(avatarId),
			scriptType: 'text',
			text: '={{ $json.text }}',
			voiceId: byId('Alice'),
			resolution: '720p',
			pollIntervalSeconds: 5,
			downloadResult: false,
			options: { maxCreditsPerExecution: 20 },
		},
		{ retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
	);
	// Every status read of the first try fails: the first video's price cannot be read, so the second
	// (whose price is known only afterwards too) is held rather than sent past what the cap can check,
	// and the first try fails on the reads. The retry gets the first video back uncharged and makes the second.
	engine.emu.setFaults({
		failNext: [{ method: 'GET', path: '/api/v1/video', kind: 'http503', count: 60 }],
	});
	const result = await engine.run(workflow, [{ text: 'First' }, { text: 'Second' }]);
	expect(result.error).toBeUndefined();
	expect(result.runData[NODE]).toHaveLength(1);
	const out = result.output(NODE);
	expect(out.map((i) => i.json.status)).toEqual(['created', 'created']);
	expect(posts('/api/v1/video')).toHaveLength(3);
	expect(engine.emu.tasks()).toHaveLength(2);
	expect(charged()).toBe(20);
	expect(out.map((i) => i.json.creditsSpentInExecution)).toEqual([20, 20]);
});

test('Retry On Fail of speech gets back the audio already charged and sends only the failed item again, within the cap', async () => {
	const workflow = oneNode(
		'textToSpeech',
		{
			operation: 'synthesize',
			text: '={{ $json.text }}',
			voiceId: byId('Alice'),
			options: { maxCreditsPerExecution: 5 },
		},
		{ retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
	);
	// One of the two first calls fails (answered, so not resent and not charged): the node fails with
	// the other one charged. The retry gets that one's audio back (before, it was synthesized and
	// charged again, and the cap stopped it) and sends the failed one: 4 credits for two texts.
	engine.emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/tts', kind: 'http500' }] });
	const result = await engine.run(workflow, [{ text: 'First' }, { text: 'Second' }]);
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)).toHaveLength(2);
	expect(posts('/api/v1/tts').filter((r) => r.status === 200)).toHaveLength(2);
	expect(charged()).toBe(4);
	expect(result.output(NODE).map((i) => i.json.creditsSpentInExecution)).toEqual([4, 4]);
});

test('Validate Only checks every item and returns the estimate, sending nothing charged', async () => {
	const long = 'A sentence of a long voice-over script. '.repeat(100);
	const result = await engine.run(speech({ validateOnly: true, maxCreditsPerExecution: 10 }), [
		{ text: 'Short line' },
		{ text: long },
		{ text: '' },
	]);
	const out = result.output(NODE);
	expect(out[0].json).toMatchObject({
		validateOnly: true,
		valid: true,
		operation: 'synthesize',
		estimatedCredits: 2,
		priceKnown: true,
		withinCap: true,
		creditsSpentInExecution: 0,
		maxCreditsPerExecution: 10,
	});
	// 4,000 characters: two parts (about 3,000 and 1,000 characters), each charged on its own: 6 + 2.
	expect(out[1].json).toMatchObject({ estimatedCredits: 8, withinCap: true });
	expect(out[2].json.error).toMatch(/text/);
	expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
	expect(engine.emu.ledger()).toHaveLength(0);

	const video = oneNode('aiVideo', {
		operation: 'create',
		modelId: byId('wan-2.5'),
		prompt: 'A sneaker',
		duration: 5,
		resolution: '720p',
		options: { validateOnly: true, maxCreditsPerExecution: 30 },
	});
	const estimated = await engine.run(video, [{}, {}]);
	expect(estimated.output(NODE).map((i) => [i.json.estimatedCredits, i.json.withinCap])).toEqual([
		[20, true],
		[20, false],
	]);
	// The same model, duration and resolution: priced once for the batch.
	expect(
		engine.emu.requests({ origin: 'api', method: 'GET', path: '/api/v1/ai_video/cost' }),
	).toHaveLength(1);
	expect(posts('/api/v1/ai_video')).toHaveLength(0);
	expect(engine.emu.ledger()).toHaveLength(0);
});

test('Validate Only of a talking video: no price before the call, so the estimate is null and nothing is created', async () => {
	const workflow = oneNode('talkingVideo', {
		operation: 'create',
		avatarId: byId(avatarId),
		scriptType: 'text',
		text: 'Hello',
		voiceId: byId('Alice'),
		options: { validateOnly: true },
	});
	const result = await engine.run(workflow);
	expect(result.output(NODE)[0].json).toMatchObject({
		validateOnly: true,
		estimatedCredits: null,
		priceKnown: false,
		withinCap: true,
		maxCreditsPerExecution: null,
	});
	expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
});

test('a long text is refused whole when its parts together would pass the cap, before the first part is sent', async () => {
	const long = 'A sentence of a long voice-over script. '.repeat(100);
	const result = await engine.run(speech({ maxCreditsPerExecution: 7 }), [{ text: long }]);
	expect(result.output(NODE)[0].json.error).toMatch(
		/Max Credits per Execution \(7\) would be passed.*about 8 credits/,
	);
	expect(posts('/api/v1/tts')).toHaveLength(0);
});

test('without a cap nothing extra is asked of the service, and outputs still show the spend', async () => {
	const result = await engine.run(speech(), [{ text: 'Hello' }]);
	expect(result.output(NODE)[0].json).toMatchObject({
		cost_credit: 2,
		creditsSpentInExecution: 2,
		maxCreditsPerExecution: null,
	});
	expect(engine.emu.requests({ origin: 'api' }).map((r) => r.path)).toEqual(['/api/v1/tts']);
});

void TRIGGER;
