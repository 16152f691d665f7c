jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

/**
 * Every error any operation raises goes through the node's error handling, in each On Error mode
 * the editor offers: Stop Workflow, Continue (using regular output), Continue (using error output).
 */
import type { INodeExecutionData } from 'n8n-workflow';

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
	engine.emu.setConfig({ renderMs: RENDER_MS });
});

const talkingVideo = (extra: Record<string, unknown> = {}) => ({
	operation: 'create',
	avatarId: byId('={{ $json.avatarId }}'),
	scriptType: 'text',
	text: '={{ $json.text }}',
	voiceId: byId('Alice'),
	downloadResult: false,
	timeoutMinutes: '={{ $json.timeoutMinutes ?? 30 }}',
	...extra,
});

/** Three items: one renders, one fails to render, one of the given kind of failure. */
function threeVideos(third: Record<string, unknown>) {
	return [
		{ avatarId, text: 'This one renders' },
		{ avatarId, text: 'This one will [fail] to render' },
		{ avatarId, text: 'The third item', ...third },
	];
}

const thirdItemFailures: Array<[string, Record<string, unknown>, RegExp]> = [
	['a timeout', { timeoutMinutes: 1 }, /still rendering after 1 minute\b/],
	['bad input', { avatarId: '' }, /"Avatar" \(avatarId\)/],
	['an API error', { avatarId: 'avatar_that_does_not_exist' }, /not found/i],
];

describe.each(thirdItemFailures)('a failed render beside %s', (_, third, thirdMessage) => {
	test('Continue (using error output): finished videos on the success output, failures on the error output with their details', async () => {
		const result = await engine.run(
			oneNode('talkingVideo', talkingVideo(), ON_ERROR.continueErrorOutput),
			threeVideos(third),
		);
		expect(result.error).toBeUndefined();
		const success = result.output(NODE, 0);
		const failed = result.output(NODE, 1);
		expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
		expect(success[0].json.status).toBe('created');
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		const failedRender = engine.emu.tasks().find((t) => t.status === 'failed')!;
		// n8n routes only items whose JSON is `error` and `message`: the details sit inside `error`.
		expect(failed[0].json.message).toEqual(expect.stringContaining(failedRender.video_id));
		expect(failed[0].json.error).toMatchObject({
			video_id: failedRender.video_id,
			hint: expect.stringMatching(/refunded/),
		});
		expect(failed[1].json.message).toMatch(thirdMessage);
		expect(failed[1].json.error).toMatchObject({
			message: failed[1].json.message,
			hint: expect.any(String),
		});
		// The input item's own fields come along, as n8n merges them into error output items.
		expect(failed[1].json.text).toBe('The third item');
	});

	test('Continue (using regular output): every item on the one output, failures as error items', async () => {
		const result = await engine.run(
			oneNode('talkingVideo', talkingVideo(), ON_ERROR.continueRegularOutput),
			threeVideos(third),
		);
		expect(result.error).toBeUndefined();
		const output = result.output(NODE, 0);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.status).toBe('created');
		expect(output[1].json).toMatchObject({
			error: expect.stringMatching(/failed/),
			hint: expect.stringMatching(/refunded/),
		});
		expect(String(output[2].json.error)).toMatch(thirdMessage);
		// Regular output keeps the plain JSON shape: no n8n error object rides along.
		expect(
			output
				.slice(1)
				.every(
					(i) => (i as INodeExecutionData).error === undefined && typeof i.json.error === 'string',
				),
		).toBe(true);
	});
});

test('Stop Workflow: the first failed item stops the workflow with its message, hint and item index', async () => {
	const result = await engine.run(
		oneNode('talkingVideo', talkingVideo(), ON_ERROR.stop),
		threeVideos({ avatarId: 'avatar_that_does_not_exist' }),
	);
	expect(result.error?.message).toMatch(/Talking video vid_\w+ failed/);
	expect(result.error?.description).toMatch(/refunded/);
	expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
});

test('an image refused by moderation goes to the error output with its code, the other image to the success output', async () => {
	const parameters = {
		operation: 'generate',
		modelId: byId('nano-banana-2'),
		prompt: '={{ $json.prompt }}',
	};
	const result = await engine.run(oneNode('image', parameters, ON_ERROR.continueErrorOutput), [
		{ prompt: 'A bottle on a beach' },
		{ prompt: 'Something to [moderate]' },
	]);
	expect(result.error).toBeUndefined();
	expect(result.output(NODE, 0)).toHaveLength(1);
	const [refused] = result.output(NODE, 1);
	expect(refused.json.error).toMatchObject({ status: 403, code: 37100 });
	expect(refused.pairedItem).toEqual({ item: 1 });
});

describe('model lists that fail go through the same error handling', () => {
	const aiVideo = {
		operation: 'create',
		modelId: byId('seedance-1.0-pro'),
		prompt: '={{ $json.prompt }}',
		waitForCompletion: false,
	};
	const prompts = [{ prompt: 'First shot' }, { prompt: 'Second shot' }];
	const failModels = (path: string) =>
		engine.emu.setFaults({ failNext: [{ method: 'GET', path, kind: 'http500', count: 20 }] });

	test('stop: the AI video model check failing is an API error with its status, hint and item', async () => {
		failModels('/api/v1/ai_video/models');
		const result = await engine.run(oneNode('aiVideo', aiVideo), prompts);
		expect(result.error?.name).toBe('NodeApiError');
		expect((result.error as { httpCode?: string }).httpCode).toBe('500');
		expect(result.error?.description).toMatch(/temporary problem/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(engine.emu.requests({ method: 'POST', path: '/api/v1/ai_video' })).toHaveLength(0);
	});

	test.each([
		['continueRegularOutput', 0],
		['continueErrorOutput', 1],
	] as const)(
		'%s: the AI video model check failing gives one error item per input item',
		async (mode, output) => {
			failModels('/api/v1/ai_video/models');
			const result = await engine.run(oneNode('aiVideo', aiVideo, ON_ERROR[mode]), prompts);
			expect(result.error).toBeUndefined();
			const items = result.output(NODE, output);
			expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			const details = items.map((i) =>
				mode === 'continueErrorOutput' ? (i.json.error as Record<string, unknown>) : i.json,
			);
			expect(details.every((d) => d.status === 500 && typeof d.hint === 'string')).toBe(true);
			expect(engine.emu.requests({ method: 'POST', path: '/api/v1/ai_video' })).toHaveLength(0);
		},
	);

	test('the image model check failing gives one error item per input item', async () => {
		failModels('/api/v1/image/models');
		const parameters = {
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: '={{ $json.prompt }}',
		};
		const result = await engine.run(
			oneNode('image', parameters, ON_ERROR.continueRegularOutput),
			prompts,
		);
		expect(result.output(NODE, 0).map((i) => [i.pairedItem, i.json.status])).toEqual([
			[{ item: 0 }, 500],
			[{ item: 1 }, 500],
		]);
	});

	test.each([
		['talkingVideo', '/api/v1/models'],
		['aiVideo', '/api/v1/ai_video/models'],
		['image', '/api/v1/image/models'],
	])(
		'%s List Models failing: an API error when stopping, one error item per input item when continuing',
		async (type, path) => {
			failModels(path);
			const stopped = await engine.run(oneNode(type, { operation: 'listModels' }), prompts);
			expect(stopped.error?.name).toBe('NodeApiError');
			expect((stopped.error as { httpCode?: string }).httpCode).toBe('500');
			failModels(path);
			const continued = await engine.run(
				oneNode(type, { operation: 'listModels' }, ON_ERROR.continueErrorOutput),
				prompts,
			);
			expect(
				continued
					.output(NODE, 1)
					.map((i) => [i.pairedItem, (i.json.error as { status?: number }).status]),
			).toEqual([
				[{ item: 0 }, 500],
				[{ item: 1 }, 500],
			]);
		},
	);
});
