jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

/** Wait for Completion and its settings as the editor offers them: per node, or per item where it says so. */
import type { INodeProperties } from 'n8n-workflow';

import { create as aiVideoCreate } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/actions/aiVideo/create.operation';
import { create as talkingVideoCreate } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/actions/talkingVideo/create.operation';
import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

const RENDER_MS = 120_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});
beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 2 });
});

const aiVideo = (extra: Record<string, unknown>) => ({
	operation: 'create',
	modelId: byId('kling-3.0-omni'),
	prompt: '={{ $json.prompt }}',
	...extra,
});
const sixPrompts = Array.from({ length: 6 }, (_, i) => ({ prompt: `Scene ${i + 1}` }));

describe('AI video with Wait for Completion off, six items and a cap of two', () => {
	test('the node answers within seconds: two submitted, four refused with the cap named and nothing charged', async () => {
		const started = engine.emu.now();
		const result = await engine.run(
			oneNode('aiVideo', aiVideo({ waitForCompletion: false }), ON_ERROR.continueErrorOutput),
			sixPrompts,
		);
		expect(result.error).toBeUndefined();
		expect(engine.emu.now() - started).toBeLessThan(5_000);
		const submitted = result.output(NODE, 0);
		const refused = result.output(NODE, 1);
		expect(submitted.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(submitted.map((i) => i.json.video_id).sort()).toEqual(
			engine.emu
				.tasks()
				.map((t) => t.video_id)
				.sort(),
		);
		expect(refused.map((i) => i.pairedItem)).toEqual([
			{ item: 2 },
			{ item: 3 },
			{ item: 4 },
			{ item: 5 },
		]);
		for (const item of refused) {
			expect(item.json.message).toMatch(/Not submitted.*2 of 2 in progress/);
			expect(item.json.error).toMatchObject({
				status: 429,
				hint: expect.stringMatching(/Nothing was created or charged/),
			});
		}
		expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	});

	test('stopping on error, the first refused item stops the workflow after the others were submitted', async () => {
		const result = await engine.run(
			oneNode('aiVideo', aiVideo({ waitForCompletion: false })),
			sixPrompts,
		);
		expect(result.error?.message).toMatch(/Not submitted/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
		expect(engine.emu.tasks()).toHaveLength(2);
	});

	test('Hold Until a Slot Frees keeps items for a free slot up to its own limit', async () => {
		const parameters = aiVideo({
			waitForCompletion: false,
			atConcurrencyLimit: 'holdForSlot',
			slotWaitMinutes: 3,
		});
		const result = await engine.run(
			oneNode('aiVideo', parameters, ON_ERROR.continueRegularOutput),
			sixPrompts,
		);
		// Renders of two minutes: a second wave starts within three minutes, a third would not.
		const output = result.output(NODE, 0);
		expect(
			output.filter((i) => typeof i.json.video_id === 'string' && i.json.error === undefined),
		).toHaveLength(4);
		expect(output.slice(4).map((i) => i.json.error)).toEqual([
			expect.stringMatching(/No AI video slot became free within 3 minutes/),
			expect.any(String),
		]);
		expect(engine.emu.tasks()).toHaveLength(4);
	});
});

test('timeout, download and the output field are honoured per item', async () => {
	const parameters = {
		operation: 'create',
		avatarId: byId(avatarId),
		scriptType: 'text',
		text: '={{ $json.text }}',
		voiceId: byId('Alice'),
		timeoutMinutes: '={{ $json.timeout }}',
		downloadResult: '={{ $json.download }}',
		outputBinaryProperty: '={{ $json.field }}',
	};
	const result = await engine.run(
		oneNode('talkingVideo', parameters, ON_ERROR.continueRegularOutput),
		[
			{ text: 'Short wait', timeout: 1, download: true, field: 'first' },
			{ text: 'Long wait, into "video"', timeout: 10, download: true, field: 'video' },
			{ text: 'Long wait, no file', timeout: 10, download: false, field: 'unused' },
		],
	);
	const [timedOut, video, noFile] = result.output(NODE, 0);
	expect(timedOut.json.error).toMatch(/still rendering after 1 minute\b/);
	expect(Object.keys(video.binary ?? {})).toEqual(['video']);
	expect(video.json.status).toBe('created');
	expect(noFile.json.status).toBe('created');
	expect(noFile.binary).toBeUndefined();
});

test('the settings one wait spans take no expressions and say they apply to all items', () => {
	const byName = (properties: INodeProperties[], name: string) =>
		properties.filter((p) => p.name === name);
	for (const create of [talkingVideoCreate, aiVideoCreate]) {
		for (const name of ['waitForCompletion', 'pollIntervalSeconds']) {
			const [property] = byName(create.properties, name);
			expect(property.noDataExpression).toBe(true);
			expect(property.description).toMatch(/applies to all items/);
		}
	}
	const [atLimit] = byName(aiVideoCreate.properties, 'atConcurrencyLimit');
	expect(atLimit.noDataExpression).toBe(true);
});

describe('Check Status routes finished videos and those still rendering to separate outputs', () => {
	const check = (extra: Record<string, unknown> = {}) => ({
		operation: 'check',
		videoId: byId('={{ $json.video_id }}'),
		...extra,
	});

	test.each([
		['talkingVideo', 'talkingVideo'],
		['aiVideo', 'aiVideo'],
	] as const)(
		'%s: rendering, then finished with the file, then a failed one as an error on the error output',
		async (type, kind) => {
			const create =
				kind === 'talkingVideo'
					? {
							operation: 'create',
							avatarId: byId(avatarId),
							scriptType: 'text',
							text: '={{ $json.text }}',
							voiceId: byId('Alice'),
							waitForCompletion: false,
						}
					: aiVideo({ waitForCompletion: false, prompt: '={{ $json.text }}' });
			const created = await engine.run(oneNode(type, create), [
				{ text: 'Renders fine' },
				{ text: 'Will [fail] to render' },
			]);
			const ids = created.output(NODE).map((i) => ({ video_id: i.json.video_id }));

			const early = await engine.run(oneNode(type, check(), ON_ERROR.continueErrorOutput), ids);
			expect(early.output(NODE, 0)).toHaveLength(0);
			expect(early.output(NODE, 1).map((i) => [i.pairedItem, i.json.video_id])).toEqual([
				[{ item: 0 }, ids[0].video_id],
				[{ item: 1 }, ids[1].video_id],
			]);

			engine.emu.advance(RENDER_MS + 1000);
			const late = await engine.run(oneNode(type, check(), ON_ERROR.continueErrorOutput), ids);
			const [finished] = late.output(NODE, 0);
			expect(finished.json).toMatchObject({ video_id: ids[0].video_id, status: 'created' });
			expect(finished.binary?.data?.mimeType).toBe('video/mp4');
			expect(late.output(NODE, 1)).toHaveLength(0);
			const [failed] = late.output(NODE, 2);
			expect(failed.pairedItem).toEqual({ item: 1 });
			expect(failed.json.error).toMatchObject({
				video_id: ids[1].video_id,
				hint: expect.stringMatching(/refunded/),
			});
		},
	);

	test('an unknown id is an error that names it; the status of 20+ AI videos is read in batches', async () => {
		const ids = Array.from({ length: 25 }, (_, i) => ({ video_id: `aivid_unknown_${i}` }));
		const result = await engine.run(
			oneNode('aiVideo', check(), ON_ERROR.continueRegularOutput),
			ids,
		);
		const output = result.output(NODE, 0);
		expect(output).toHaveLength(25);
		expect(output[0].json).toMatchObject({
			error: expect.stringContaining('aivid_unknown_0'),
			status: 404,
		});
		expect(engine.emu.requests({ method: 'GET', path: '/api/v1/ai_video' })).toHaveLength(2);
	});
});
