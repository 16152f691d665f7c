jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INode } from 'n8n-workflow';

import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import { gatewayReads as gateway, notFoundReads as notFound } from '../support/readFaults';
import type { NodeSettings } from '../support/workflow';
import { byId, NODE } from '../support/workflow';
import { moneyNode } from './support';

/**
 * Issue 38, "what an answer proves", on n8n's engine: each test failed on 86874c9 (and ced61cd) and
 * passes now. The emulator's ledger is what VisionStory charged; its faults answer as a deployment
 * plausibly does for a while (a load balancer or replica answering 404 for a task it showed, a
 * gateway's HTML 502 on the status reads for a minute or more, a 200 without the video's id).
 */
const RENDER_MS = 60_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});
beforeEach(() => engine.emu.reset());

const charges = () => engine.emu.ledger().filter((e) => e.kind === 'charge');
/** A talking video made and waited on (Timeout 30 min by default, reads every 10 s), its file not fetched. */
function talkingVideo(parameters: INode['parameters'] = {}, settings: NodeSettings = {}) {
	return moneyNode(
		'talkingVideo',
		'create',
		{
			avatarId: byId(avatarId),
			scriptType: 'text',
			text: 'Our spring sale starts today!',
			voiceId: byId('Alice'),
			resolution: '720p',
			pollIntervalSeconds: 10,
			downloadResult: false,
			...parameters,
		},
		settings,
	);
}

describe('defect 1: a few 404s after a task was seen, with Retry On Fail, never pay for a second video', () => {
	test('read rendering twice, then three reads answer 404: 1 task, 1 charge, the item finishes', async () => {
		engine.emu.setFaults({ failNext: [notFound(2, 3)] });
		const result = await engine.run(
			talkingVideo({}, { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 }),
		);
		expect(result.nodeError(NODE)).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({
			status: 'created',
			video_id: engine.emu.tasks()[0].video_id,
		});
		expect(engine.emu.tasks()).toHaveLength(1);
		expect(charges()).toHaveLength(1);
	});

	test('404s from the third read until Timeout: the wait goes on to it, 1 task, 1 charge, the ending carries the id and the key', async () => {
		engine.emu.setFaults({ failNext: [notFound(2, 100_000)] });
		const result = await engine.run(talkingVideo({ timeoutMinutes: 2 }));
		const [task] = engine.emu.tasks();
		expect(engine.emu.tasks()).toHaveLength(1);
		expect(charges()).toHaveLength(1);
		const error = result.nodeError(NODE) as { message: string; description?: string } | undefined;
		expect(error?.message).toContain(task.video_id);
		expect(`${error?.message} ${error?.description}`).toContain(task.client_request_id!);
	});
});

describe('defect 2: status reads failing for a while never end a paid video without its id', () => {
	test('Timeout 30 min, a gateway page on the status reads for 90 s after the task was seen: the wait goes on and the video is delivered', async () => {
		engine.emu.setFaults({ failNext: [gateway(1, 90_000)] });
		const result = await engine.run(talkingVideo({}, { onError: 'continueRegularOutput' }));
		const [item] = result.output(NODE);
		expect(item.json.error).toBeUndefined();
		expect(item.json).toMatchObject({
			status: 'created',
			video_id: engine.emu.tasks()[0].video_id,
		});
		expect(engine.emu.tasks()).toHaveLength(1);
		expect(charges()).toHaveLength(1);
	});

	test('a single 404 after the task was seen: the wait goes on and the video is delivered', async () => {
		engine.emu.setFaults({ failNext: [notFound(1, 1)] });
		const result = await engine.run(talkingVideo({}, { onError: 'continueRegularOutput' }));
		const [item] = result.output(NODE);
		expect(item.json.error).toBeUndefined();
		expect(item.json).toMatchObject({ status: 'created' });
	});

	test('gateway pages until Timeout: the item carries video_id and the key, says the video was made and may be charged, and that a re-run with the key returns it', async () => {
		engine.emu.setFaults({ failNext: [gateway(1, 3_600_000)] });
		const result = await engine.run(
			talkingVideo({ timeoutMinutes: 3 }, { onError: 'continueRegularOutput' }),
		);
		const [item] = result.output(NODE);
		const [task] = engine.emu.tasks();
		expect(item.json.video_id).toBe(task.video_id);
		const words = `${String(item.json.error)} ${String(item.json.hint)}`;
		expect(words).toContain(task.client_request_id!);
		expect(words).toMatch(/made and may be charged/);
		expect(words).toMatch(new RegExp(`Idempotency Key to ${task.client_request_id}`));
		expect(charges()).toHaveLength(1);
	});
});

test('minor: a create answered 200 without an id says the video may have been made, and names the key that returns it', async () => {
	engine.emu.setFaults({
		failNext: [
			{
				method: 'POST',
				path: '/api/v1/video',
				kind: 'rewriteAnswer',
				rewrite: { drop: ['video_id'] },
			},
		],
	});
	const result = await engine.run(
		talkingVideo({ waitForCompletion: false }, { onError: 'continueRegularOutput' }),
	);
	const [item] = result.output(NODE);
	const [task] = engine.emu.tasks();
	const words = `${String(item.json.error)} ${String(item.json.hint)}`;
	expect(words).toMatch(/may have made this talking video/);
	expect(words).toContain(task.client_request_id!);
	expect(words).toMatch(new RegExp(`Idempotency Key to ${task.client_request_id}`));
});
