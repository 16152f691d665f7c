jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

/** Wait for Completion and its settings as the editor offers them: per node, or per item where it says so. */
import type { INodeProperties } from 'n8n-workflow';

import { VisionStoryAiVideo } from '../../nodes/VisionStoryAiVideo/VisionStoryAiVideo.node';
import { VisionStoryTalkingVideo } from '../../nodes/VisionStoryTalkingVideo/VisionStoryTalkingVideo.node';
import { useEngine } from '../support/engine';
import { virtualClock } from '../support/virtualTime';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

const RENDER_MS = 120_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });
let avatarId: string;

beforeAll(async () => {
	virtualClock.target = engine.emu;
	const response = await fetch(`${engine.emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, { headers: { 'X-API-Key': engine.emu.apiKey } });
	avatarId = ((await response.json()) as { data: { avatars: Array<{ avatar_id: string }> } }).data.avatars[0].avatar_id;
});
beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 2 });
});

const aiVideo = (extra: Record<string, unknown>) => ({ operation: 'create', modelId: byId('kling-3.0-omni'), prompt: '={{ $json.prompt }}', ...extra });
const sixPrompts = Array.from({ length: 6 }, (_, i) => ({ prompt: `Scene ${i + 1}` }));

describe('AI video with Wait for Completion off, six items and a cap of two', () => {
	test('the node answers within seconds: two submitted, four refused with the cap named and nothing charged', async () => {
		const started = engine.emu.now();
		const result = await engine.run(oneNode('visionStoryAiVideo', aiVideo({ waitForCompletion: false }), ON_ERROR.continueErrorOutput), sixPrompts);
		expect(result.error).toBeUndefined();
		expect(engine.emu.now() - started).toBeLessThan(5_000);
		const submitted = result.output(NODE, 0);
		const refused = result.output(NODE, 1);
		expect(submitted.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(submitted.map((i) => i.json.video_id).sort()).toEqual(engine.emu.tasks().map((t) => t.video_id).sort());
		expect(refused.map((i) => i.pairedItem)).toEqual([{ item: 2 }, { item: 3 }, { item: 4 }, { item: 5 }]);
		for (const item of refused) {
			expect(item.json.message).toMatch(/Not submitted.*2 of 2 in progress/);
			expect(item.json.error).toMatchObject({ status: 429, hint: expect.stringMatching(/Nothing was created or charged/) });
		}
		expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	});

	test('stopping on error, the first refused item stops the workflow after the others were submitted', async () => {
		const result = await engine.run(oneNode('visionStoryAiVideo', aiVideo({ waitForCompletion: false })), sixPrompts);
		expect(result.error?.message).toMatch(/Not submitted/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
		expect(engine.emu.tasks()).toHaveLength(2);
	});

	test('Hold Until a Slot Frees keeps items for a free slot up to its own limit', async () => {
		const parameters = aiVideo({ waitForCompletion: false, atConcurrencyLimit: 'holdForSlot', slotWaitMinutes: 3 });
		const result = await engine.run(oneNode('visionStoryAiVideo', parameters, ON_ERROR.continueRegularOutput), sixPrompts);
		// Renders of two minutes: a second wave starts within three minutes, a third would not.
		const output = result.output(NODE, 0);
		expect(output.filter((i) => typeof i.json.video_id === 'string' && i.json.error === undefined)).toHaveLength(4);
		expect(output.slice(4).map((i) => i.json.error)).toEqual([expect.stringMatching(/No AI video slot became free within 3 minutes/), expect.any(String)]);
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
	const result = await engine.run(oneNode('visionStoryTalkingVideo', parameters, ON_ERROR.continueRegularOutput), [
		{ text: 'Short wait', timeout: 1, download: true, field: 'first' },
		{ text: 'Long wait, into "video"', timeout: 10, download: true, field: 'video' },
		{ text: 'Long wait, no file', timeout: 10, download: false, field: 'unused' },
	]);
	const [timedOut, video, noFile] = result.output(NODE, 0);
	expect(timedOut.json.error).toMatch(/still rendering after 1 minutes/);
	expect(Object.keys(video.binary ?? {})).toEqual(['video']);
	expect(video.json.status).toBe('created');
	expect(noFile.json.status).toBe('created');
	expect(noFile.binary).toBeUndefined();
});

test('the settings one wait spans take no expressions and say they apply to all items', () => {
	const byName = (properties: INodeProperties[], name: string) => properties.filter((p) => p.name === name);
	for (const node of [new VisionStoryTalkingVideo(), new VisionStoryAiVideo()]) {
		for (const name of ['waitForCompletion', 'pollIntervalSeconds']) {
			const [property] = byName(node.description.properties, name);
			expect(property.noDataExpression).toBe(true);
			expect(property.description).toMatch(/applies to all items/);
		}
	}
	const [atLimit] = byName(new VisionStoryAiVideo().description.properties, 'atConcurrencyLimit');
	expect(atLimit.noDataExpression).toBe(true);
});
