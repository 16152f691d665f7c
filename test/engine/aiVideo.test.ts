jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { useEngine } from '../support/engine';

const RENDER_MS = 240_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS }, { binaryMode: 'default' });
const sampleMp4 = readFileSync(join(__dirname, '../emulator/media/sample.mp4'));

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 3 });
});

const seedance = {
	modelId: 'seedance-1.0-pro',
	duration: 10,
	resolution: '1080p',
	prompt: 'The sneaker turns slowly on a marble plinth',
};

test('create with a first frame from binary, an end frame and a reference by URL; then get, get several, get many, delete, estimate, models', async () => {
	const result = await engine.run('test/workflows/ai-video.json', [seedance]);
	expect(result.error).toBeUndefined();

	const [created] = result.output('Create AI Video');
	expect(created.json).toMatchObject({
		status: 'created',
		model_id: 'seedance-1.0-pro',
		resolution: '1080p',
		duration_sec: 10,
	});
	expect(created.json.cost_credit).toBeGreaterThan(0);
	expect((await result.binary('Create AI Video')).equals(sampleMp4)).toBe(true);
	const videoId = created.json.video_id as string;

	expect(result.output('Get AI Video')[0].json).toMatchObject({
		video_id: videoId,
		status: 'created',
	});
	expect((await result.binary('Get AI Video')).equals(sampleMp4)).toBe(true);
	expect(result.output('Get Several AI Videos').map((i) => i.json.video_id)).toEqual([videoId]);
	expect(result.output('Get Many AI Videos').map((i) => i.json.video_id)).toEqual([videoId]);
	expect(result.output('Delete AI Video')[0].json).toEqual({ video_id: videoId, deleted: true });

	const [estimate] = result.output('Estimate Cost');
	expect(estimate.json).toMatchObject({
		model_id: 'seedance-1.0-pro',
		duration_sec: 10,
		resolution: '1080p',
	});
	expect(estimate.json.credit).toBe(created.json.cost_credit);

	const models = result.output('List AI Video Models').map((i) => i.json.model_id);
	expect(models).toEqual(
		expect.arrayContaining(['seedance-1.0-pro', 'wan-2.5', 'kling-3.0', 'kling-3.0-omni']),
	);

	// Waiting went through the batch status call.
	const polls = engine.emu.requests({ method: 'GET', path: '/api/v1/ai_video' });
	expect(polls.some((p) => p.query.video_ids !== undefined)).toBe(true);
});

test('a concurrency cap of 2 with 6 items ends with 6 created tasks and no failed item', async () => {
	engine.emu.setConfig({ aiConcurrencyCap: 2 });
	const items = Array.from({ length: 6 }, (_, i) => ({
		modelId: 'kling-3.0-omni',
		prompt: `Scene ${i + 1} of the campaign`,
	}));
	const started = engine.emu.now();
	const result = await engine.run('test/workflows/ai-video-batch.json', items);
	expect(result.error).toBeUndefined();
	const output = result.output('Create AI Videos');
	expect(output.map((i) => i.json.status)).toEqual(Array(6).fill('created'));
	expect(output.map((i) => i.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	expect(engine.emu.tasks()).toHaveLength(6);
	// Never more than two rendering at once, and three waves of renders in all.
	const tasks = engine.emu.tasks();
	for (const task of tasks) {
		const overlapping = tasks.filter(
			(t) => t.submittedAt < task.finishedAt! && t.finishedAt! > task.submittedAt,
		);
		expect(overlapping.length).toBeLessThanOrEqual(2);
	}
	expect(engine.emu.now() - started).toBeLessThan(3 * (RENDER_MS + 5000) + 5000);
});

test('an item the model cannot take fails before anything is submitted, naming the field and the allowed values', async () => {
	const result = await engine.run('test/workflows/ai-video-batch.json', [
		{ modelId: 'kling-3.0', prompt: 'x'.repeat(2600) },
	]);
	expect(result.error?.message).toMatch(/"Prompt" \(prompt\).*2600 characters.*at most 2500/);
	expect(engine.emu.requests({ method: 'POST' })).toHaveLength(0);
});

test.each([
	[
		'a video reference to a model that takes image references',
		'seedance-1.0-pro',
		{
			refs: {
				ref: [
					{
						source: 'url',
						url: "={{ $('When clicking ‘Execute workflow’').item.json.mediaBase }}/media/sample.mp4",
					},
				],
			},
		},
		/"Reference Media" \(refs entry 1\): is video; seedance-1\.0-pro takes references of kind image/,
	],
	[
		'an end frame to a model without end frames',
		'wan-2.5',
		{
			endFrameSource: 'url',
			endFrameUrl:
				"={{ $('When clicking ‘Execute workflow’').item.json.mediaBase }}/media/sample.png",
			refs: {},
		},
		/"End Frame Source" \(endFrameSource\).*not supported by wan-2\.5/,
	],
	[
		'a duration the model does not offer',
		'kling-3.0',
		{ duration: 7, refs: {} },
		/\(duration\).*7 is not offered by kling-3\.0; allowed: 5, 10/,
	],
])(
	'the model list rejects %s before anything is submitted',
	async (_, modelId, overrides, message) => {
		const workflow = JSON.parse(
			readFileSync(join(__dirname, '../workflows/ai-video.json'), 'utf8'),
		);
		const create = workflow.nodes.find((n: { name: string }) => n.name === 'Create AI Video');
		Object.assign(create.parameters, {
			modelId: { __rl: true, mode: 'id', value: modelId },
			duration: '',
			resolution: '',
			aspectRatio: '',
			...overrides,
		});
		const result = await engine.harness.run(workflow, {
			credentials: engine.credentials,
			pinData: {
				'When clicking ‘Execute workflow’': [
					{ json: { mediaBase: engine.emu.mediaBaseUrl, prompt: 'A prompt' } },
				],
			},
		});
		expect(result.nodeError('Create AI Video')?.message).toMatch(message);
		expect(engine.emu.requests({ method: 'POST' })).toHaveLength(0);
	},
);
