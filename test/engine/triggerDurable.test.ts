/**
 * The trigger under n8n's durable poll scheduler (issue 40, item 1), with the scheduler's handling of
 * static data played around the engine harness (test/support/durablePoll.ts), and the poll budget n8n
 * gives a poll there: reads and downloads that would outlast it are cut, and what they held back
 * comes with the next poll.
 */
// Retries sleep through n8n-workflow's sleep: virtual time keeps them fast.
jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { IDataObject } from 'n8n-workflow';

import { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { abortedError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/clock';
import type { CallOptions } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';
import { LIMITS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import { DurableScheduler } from '../support/durablePoll';
import type { Kind } from '../support/trigger';
import {
	emittedIds,
	FINISH,
	RENDER_MS,
	triggerNode,
	useTrigger,
	useWarnings,
} from '../support/trigger';

const engine = useTrigger();

const warnings = useWarnings();

let serial = 0;
async function make(kind: Kind, fails = false): Promise<string> {
	return await engine.makeVideo(kind, `Durable clip ${++serial}${fails ? ' [fail]' : ''}`);
}

describe("n8n's durable poll scheduler", () => {
	test('what finishes between the activation poll and the first scheduled poll is emitted once, by that poll', async () => {
		const params = { statuses: ['created', 'failed'] };
		engine.emu.setConfig({ renderMs: 3 * RENDER_MS });
		const renderingAtActivation = await make('talkingVideo');
		engine.emu.setConfig({ renderMs: RENDER_MS });
		await make('aiVideo');
		engine.emu.advance(FINISH);
		const scheduler = new DurableScheduler(engine, params);

		expect((await scheduler.activate()).items).toBeNull();
		// n8n did not keep what the activation poll stored: the node has no state of its own yet.
		expect(scheduler.cursor).toEqual({});
		const made = [await make('talkingVideo'), await make('aiVideo'), await make('aiVideo', true)];
		engine.emu.advance(3 * RENDER_MS);

		const first = await scheduler.scheduled();
		expect(emittedIds(first).sort()).toEqual([renderingAtActivation, ...made].sort());
		// From now on the node's own state rules: the place kept at activation is not taken again.
		const later = await make('aiVideo');
		engine.emu.advance(FINISH);
		expect(emittedIds(await scheduler.scheduled())).toEqual([later]);
		expect((await scheduler.scheduled()).items).toBeNull();
	});

	test('n8n restarted before any scheduled poll: the first one after the restart still starts from the activation', async () => {
		const scheduler = new DurableScheduler(engine);
		await scheduler.activate();
		const made = [await make('talkingVideo'), await make('aiVideo')];
		engine.emu.advance(FINISH);
		// What survives a restart is the database: the cursor row and the workflow's static data.
		const restarted = Object.assign(new DurableScheduler(engine), {
			cursor: scheduler.cursor,
			global: scheduler.global,
		});
		expect(emittedIds(await restarted.scheduled()).sort()).toEqual(made.sort());
	});

	test('without the scheduler, a renamed trigger starts watching anew rather than from the place its old name kept', async () => {
		const first = await engine.poll(undefined);
		expect(first.globalStaticData).toHaveProperty('visionStoryTrigger');
		await make('aiVideo');
		engine.emu.advance(FINISH);
		// n8n keeps a node's static data under its name: renamed, the node has none.
		const renamed = await engine.harness.poll(
			{ ...triggerNode(), name: 'Finished videos' },
			{
				credentials: engine.credentials,
				mode: 'trigger',
				globalStaticData: first.globalStaticData,
			},
		);
		expect(renamed.items).toBeNull();
	});
});

describe('the poll budget n8n gives a poll', () => {
	const defaults = { ...LIMITS };
	afterEach(() => {
		Object.assign(LIMITS, defaults);
		jest.restoreAllMocks();
	});

	test("a list read that hangs is cut within the budget: the other kind's videos come now, the hanging kind's with the next poll", async () => {
		const scheduler = new DurableScheduler(engine, {}, 2000);
		await scheduler.activate();
		const talking = await make('talkingVideo');
		const ai = await make('aiVideo');
		engine.emu.advance(FINISH);
		engine.emu.setFaults({
			failNext: [{ kind: 'slow', method: 'GET', path: '/api/v1/videos', delayMs: 2500 }],
		});

		expect(emittedIds(await scheduler.scheduled())).toEqual([ai]);
		expect(warnings.join('\n')).toMatch(
			/talking videos could not be read in this poll \(VisionStory did not answer within this poll's time \(n8n gives a poll 2 s\)\); the next poll catches up/,
		);
		expect(emittedIds(await scheduler.scheduled())).toEqual([talking]);
	});

	test('a download cut by the budget waits for the next poll and no other starts after it; one never done in time goes out without its file', async () => {
		const params = { events: ['aiVideo'], downloadResult: true };
		const scheduler = new DurableScheduler(engine, params, 1000);
		await scheduler.activate();
		const slow = await make('aiVideo');
		// Made later, so it comes after the slow one in the hand-over.
		engine.emu.advance(2000);
		const next = await make('aiVideo');
		engine.emu.advance(FINISH);
		const original = VisionStoryClient.prototype.download;
		// The first video's file never finishes: each try ends when the poll's budget cuts it.
		const download = jest
			.spyOn(VisionStoryClient.prototype, 'download')
			.mockImplementation(async function (this: VisionStoryClient, url, options?: CallOptions) {
				if (!url.includes(slow)) return await original.call(this, url, options);
				return await new Promise((_, reject) =>
					options?.signal?.addEventListener('abort', () => reject(abortedError())),
				);
			});

		for (let poll = 1; poll < LIMITS.downloadTries; poll++)
			expect((await scheduler.scheduled()).items).toBeNull();
		const gaveUp = await scheduler.scheduled();
		expect(gaveUp.items).toEqual([
			[
				{
					json: expect.objectContaining({
						video_id: slow,
						downloadError:
							"The file did not finish downloading within this poll's time (n8n gives a poll 1 s)",
					}),
				},
			],
		]);
		// The other video's download never started in those polls: it comes with its file now.
		expect(download.mock.calls.filter(([url]) => url.includes(next))).toEqual([]);
		const last = await scheduler.scheduled();
		expect(emittedIds(last)).toEqual([next]);
		expect(last.items![0][0].binary?.data).toBeDefined();
	});

	test('a transfer that breaks off midway holds its video for the next poll instead of failing the poll', async () => {
		const params: IDataObject = { events: ['aiVideo'], downloadResult: true };
		const scheduler = new DurableScheduler(engine, params);
		await scheduler.activate();
		const ai = await make('aiVideo');
		engine.emu.advance(FINISH);
		engine.emu.setFaults({
			failNext: [{ origin: 'media', method: 'GET', kind: 'truncateBody', count: 1 }],
		});

		expect((await scheduler.scheduled()).items).toBeNull();
		const next = await scheduler.scheduled();
		expect(emittedIds(next)).toEqual([ai]);
		expect(next.items![0][0].binary?.data).toBeDefined();
	});
});
