// Issue 31, defects 6, 7 and 8, through the n8n trigger (the engine harness over the emulator): the
// same scenarios the watcher's core tests and properties play (test/engine/triggerProperty.test.ts),
// here through the adapter, with n8n's static data and logger. test/node-red/watch.test.ts plays them
// through the Node-RED watch node.
jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import { stateBound } from '../support/watchBound';
import type { Kind } from '../support/trigger';
import { emittedIds, FINISH, useTrigger, useWarnings } from '../support/trigger';

const engine = useTrigger();
const defaultLimits = { ...LIMITS };
const warnings = useWarnings();
beforeEach(() => {
	Object.assign(LIMITS, defaultLimits);
});

let serial = 0;
async function make(kind: Kind): Promise<string> {
	return await engine.makeVideo(kind, `Clip ${++serial}`);
}

/** Polls until `quiet` polls in a row emit nothing; every item emitted, and the static data at the end. */
async function drain(staticData: IDataObject, parameters: IDataObject = {}, quiet = 2) {
	const items: IDataObject[] = [];
	let data = staticData;
	for (let idle = 0, i = 0; idle < quiet && i < 100; i++) {
		const result = await engine.poll(data, parameters);
		data = result.staticData;
		const emitted = result.items?.[0] ?? [];
		idle = emitted.length === 0 ? idle + 1 : 0;
		items.push(...emitted.map((item) => ({ ...item.json, binary: item.binary !== undefined })));
	}
	return { items, ids: items.map((item) => String(item.video_id)), staticData: data };
}

type KindState = { pending: unknown[]; list: string };
const stateOf = (staticData: IDataObject, kind: Kind) =>
	(staticData.cursor as Record<Kind, KindState>)[kind];

test('defect 6: far more AI videos rendering, then finishing between two polls, than the pending list holds are each announced once, the stored state within its bound', async () => {
	// The README's 10,000 at 200 a poll with a pending list of 2,000, shrunk: 40 at 4 a poll, 10 pending.
	Object.assign(LIMITS, {
		emitPerPoll: 4,
		pendingMax: 10,
		firstPageSize: 3,
		pageSize: 5,
		pagesPerPoll: 3,
		refreshPagesPerPoll: 2,
	});
	const params = { events: ['aiVideo'] };
	const activation = await engine.poll(undefined, params);
	const made: string[] = [];
	for (let i = 0; i < 40; i++) made.push(await make('aiVideo'));
	// A poll while they render: it watches as many as the pending list has room for, and a page more.
	engine.emu.advance(1_000);
	const rendering = await engine.poll(activation.staticData, params);
	expect(rendering.items).toBeNull();
	expect(stateOf(rendering.staticData, 'aiVideo').pending.length).toBeGreaterThan(
		LIMITS.pendingMax,
	);
	engine.emu.advance(FINISH);
	let data = rendering.staticData;
	const emitted: string[] = [];
	for (let i = 0; i < 60; i++) {
		const result = await engine.poll(data, params);
		data = result.staticData;
		emitted.push(...emittedIds(result));
		expect(emittedIds(result).length).toBeLessThanOrEqual(LIMITS.emitPerPoll);
		expect(stateOf(data, 'aiVideo').pending.length).toBeLessThanOrEqual(stateBound().pending);
		expect(JSON.stringify(data).length).toBeLessThanOrEqual(stateBound().bytes);
	}
	expect(emitted).toHaveLength(new Set(emitted).size);
	expect(emitted.sort()).toEqual(made.sort());
});

test('defect 7: a talking-video list that ignores its cursor: what its page shows is announced, n8n\'s log says what may have been missed, and the state never says "full"', async () => {
	engine.emu.setConfig({ talkingVideoList: 'ignoresCursor' });
	const params = { events: ['talkingVideo'] };
	const activation = await engine.poll(undefined, params);
	const made: string[] = [];
	for (let i = 0; i < 60; i++) made.push(await make('talkingVideo'));
	engine.emu.advance(FINISH);
	const { ids, staticData } = await drain(activation.staticData, params);
	// The service's page shows the newest 20; the 40 below cannot be read from it.
	expect(ids.sort()).toEqual(made.slice(-20).sort());
	const log = warnings.join('\n');
	expect(log).toMatch(/talking videos.*GET \/api\/v1\/videos.*same page whatever its cursor/s);
	expect(log).toMatch(/20 new talking videos were read.*may have been missed/s);
	expect(stateOf(staticData, 'talkingVideo').list).toBe('firstPageOnly');
});

test('defect 8: one file that keeps failing to download holds back only its own video, which is announced with downloadError after the retries', async () => {
	const params = { downloadResult: true };
	const activation = await engine.poll(undefined, params);
	const broken = await make('aiVideo');
	const talking = await make('talkingVideo');
	engine.emu.advance(FINISH);
	engine.emu.setFaults({
		failNext: [
			{
				origin: 'media',
				method: 'GET',
				path: `/media/videos/${broken}.mp4`,
				kind: 'http500',
				count: 1_000,
			},
		],
	});
	const first = await engine.poll(activation.staticData, params);
	expect(emittedIds(first)).toEqual([talking]);
	expect(first.items![0][0].binary?.data).toBeDefined();
	const { items } = await drain(first.staticData, params, LIMITS.downloadTries);
	expect(items).toEqual([
		expect.objectContaining({ video_id: broken, downloadError: expect.any(String), binary: false }),
	]);
});

test('static data stored by the trigger before the watcher moved into the core still reads: a render it watched is announced', async () => {
	const params = { events: ['aiVideo'] };
	const rendering = await make('aiVideo');
	engine.emu.advance(1_000);
	const at = Math.floor(engine.emu.now() / 1000);
	// The shape 3da7288 stored: version 2, no failedDownloads, list full.
	const old: IDataObject = {
		cursor: {
			version: 2,
			aiVideo: {
				head: { at, from: at - 120, seen: [[rendering, at]] },
				gaps: [],
				pending: [{ id: rendering, at, misses: 0 }],
				emitted: [],
				list: 'full',
			},
		},
	};
	engine.emu.advance(FINISH);
	const result = await engine.poll(old, params);
	expect(emittedIds(result)).toEqual([rendering]);
});
