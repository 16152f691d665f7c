// Retries sleep through n8n-workflow's sleep: virtual time keeps failing polls fast.
jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import { MAX_LINKLESS_READS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import { LIMITS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import { createHarness } from '../harness';
import type { Kind } from '../support/trigger';
import { emittedIds, FINISH, RENDER_MS, triggerNode, useTrigger } from '../support/trigger';

const LIST_PATHS = ['/api/v1/ai_videos', '/api/v1/videos'];

interface Made {
	id: string;
	kind: Kind;
	fails: boolean;
}

const engine = useTrigger();
const defaultLimits = { ...LIMITS };

beforeEach(() => {
	Object.assign(LIMITS, defaultLimits);
});

/**
 * A poll that is meant to fail, and the static data it left in memory. Real n8n keeps that object for
 * the next poll of the active workflow even when the poll threw (the harness only returns it on success).
 */
async function failingPoll(
	staticData: IDataObject,
	parameters: IDataObject = {},
): Promise<{ error: unknown; live: IDataObject }> {
	const spy = jest.spyOn(PollContext.prototype, 'getWorkflowStaticData');
	try {
		const error = await engine.poll(staticData, parameters).then(
			() => undefined,
			(e: unknown) => e,
		);
		const live = JSON.parse(JSON.stringify(spy.mock.results.at(-1)?.value ?? {})) as IDataObject;
		delete live.__dataChanged;
		return { error, live };
	} finally {
		spy.mockRestore();
	}
}

let serial = 0;
async function make(kind: Kind, fails = false): Promise<Made> {
	const text = `Clip ${++serial}${fails ? ' [fail]' : ''}`;
	return { id: await engine.makeVideo(kind, text), kind, fails };
}

/** `count` tasks alternating talking / AI; every third one fails. */
async function makeMany(count: number): Promise<Made[]> {
	const made: Made[] = [];
	for (let i = 0; i < count; i++)
		made.push(await make(i % 2 === 0 ? 'talkingVideo' : 'aiVideo', i % 3 === 2));
	return made;
}

function expected(made: Made[], statuses: string[]): string[] {
	return made
		.filter((m) => statuses.includes(m.fails ? 'failed' : 'created'))
		.map((m) => m.id)
		.sort();
}

/** What the emulator itself says has reached one of `statuses`, by id. */
function finishedNow(statuses: string[]): Set<string> {
	return new Set(
		engine.emu
			.tasks()
			.filter((t) => statuses.includes(t.status))
			.map((t) => t.video_id),
	);
}

describe.each([[['created']], [['created', 'failed']]])(
	'30 tasks finishing across 5 polls, statuses %j',
	(statuses) => {
		test('each is emitted once, by the poll after it finished, and nothing from before activation', async () => {
			const params = { statuses };
			// Two slow renders, then more than a list page of tasks per kind that finish before activation:
			// at activation the slow ones are rendering far below the top of the lists.
			engine.emu.setConfig({ renderMs: 3 * RENDER_MS });
			const slow = [await make('talkingVideo'), await make('aiVideo', statuses.length === 2)];
			engine.emu.setConfig({ renderMs: RENDER_MS });
			const old = await makeMany(2 * (LIMITS.firstPageSize + 2));
			engine.emu.advance(FINISH);
			const rendering = await makeMany(4);
			engine.emu.advance(1_000);
			const before = new Set([...finishedNow(['created', 'failed'])]);
			expect(before.size).toBe(old.length);

			const activation = await engine.poll(undefined, params);
			expect(activation.items).toBeNull();
			let staticData = activation.staticData;
			let seen = new Set(before);
			const all: string[] = [];
			const round = async (early: number, late: number) => {
				// Created and finished between two polls.
				await makeMany(early);
				engine.emu.advance(FINISH);
				// Created just before the poll, still rendering at it.
				await makeMany(late);
				engine.emu.advance(1_000);
				const now = finishedNow(statuses);
				const due = [...now].filter((id) => !seen.has(id)).sort();
				seen = new Set([...seen, ...now]);
				const result = await engine.poll(staticData, params);
				staticData = result.staticData;
				expect(emittedIds(result).sort()).toEqual(due);
				for (const item of result.items?.[0] ?? []) {
					expect(statuses).toContain(item.json.status);
					expect(engine.emu.tasks().find((t) => t.video_id === item.json.video_id)?.kind).toBe(
						item.json.kind,
					);
				}
				all.push(...emittedIds(result));
			};
			await round(4, 2);
			await round(4, 2);
			await round(4, 2);
			await round(4, 2);
			await round(0, 0);

			// 2 slow + 4 rendering at activation + 4 × (4 between polls + 2 rendering at a poll) = 30.
			const afterActivation = engine.emu.tasks().filter((t) => !before.has(t.video_id));
			expect(afterActivation).toHaveLength(30);
			expect(afterActivation.every((t) => t.status === 'created' || t.status === 'failed')).toBe(
				true,
			);
			expect(all).toHaveLength(new Set(all).size);
			expect(all.sort()).toEqual(
				afterActivation
					.filter((t) => statuses.includes(t.status))
					.map((t) => t.video_id)
					.sort(),
			);
			expect(all.length).toBe(statuses.length === 2 ? 30 : 25);
			for (const id of [...slow, ...rendering].map((m) => m.id))
				expect(all.includes(id)).toBe(
					statuses.includes(engine.emu.tasks().find((t) => t.video_id === id)!.status),
				);
			for (const id of before) expect(all).not.toContain(id);
		});
	},
);

test('a poll whose every list fails past the retries emits nothing and keeps its cursor; the next poll emits the backlog', async () => {
	const activation = await engine.poll(undefined);
	const made = await makeMany(6);
	engine.emu.advance(FINISH);
	engine.emu.setFaults({
		failNext: [
			{ method: 'GET', path: '/api/v1/videos', kind: 'http500', count: 3 },
			{ method: 'GET', path: '/api/v1/ai_videos', kind: 'http500', count: 3 },
		],
	});
	const failed = await failingPoll(activation.staticData);
	expect(failed.error).toBeInstanceOf(Error);
	for (const path of LIST_PATHS)
		expect(engine.emu.requests({ path }).filter((r) => r.status === 500)).toHaveLength(3);
	expect(failed.live).toEqual(activation.staticData);

	const next = await engine.poll(failed.live);
	expect(emittedIds(next).sort()).toEqual(expected(made, ['created']));
	const again = await engine.poll(next.staticData);
	expect(again.items).toBeNull();
});

test('a poll where one kind fails past the retries emits the other kind; the failed kind keeps its cursor and follows next poll', async () => {
	const activation = await engine.poll(undefined);
	const made = await makeMany(6);
	engine.emu.advance(FINISH);
	// Talking videos are listed fine, then the AI list fails past the trigger's retries.
	engine.emu.setFaults({
		failNext: [{ method: 'GET', path: '/api/v1/ai_videos', kind: 'http500', count: 3 }],
	});
	const first = await engine.poll(activation.staticData);
	expect(emittedIds(first).sort()).toEqual(
		expected(
			made.filter((m) => m.kind === 'talkingVideo'),
			['created'],
		),
	);
	expect(first.staticData.cursor).toMatchObject({
		aiVideo: (activation.staticData.cursor as IDataObject).aiVideo,
	});
	const next = await engine.poll(first.staticData);
	expect(emittedIds(next).sort()).toEqual(
		expected(
			made.filter((m) => m.kind === 'aiVideo'),
			['created'],
		),
	);
	expect((await engine.poll(next.staticData)).items).toBeNull();
});

test('a connection reset while checking rendering tasks by id loses nothing: they are emitted by the next poll', async () => {
	const params = { statuses: ['created', 'failed'] };
	// Rendering at activation, and older than the stretch the list is scanned in: checked by id.
	engine.emu.setConfig({ renderMs: 10 * RENDER_MS });
	const rendering = await makeMany(6);
	// The window, and the stretch of one window more that a walk passes over, lie between.
	engine.emu.advance(2 * LIMITS.overlapSeconds * 1000 + 10_000);
	engine.emu.setConfig({ renderMs: RENDER_MS });
	const newer = [await make('talkingVideo'), await make('aiVideo')];
	engine.emu.advance(1_000);
	const activation = await engine.poll(undefined, params);
	engine.emu.advance(10 * RENDER_MS);
	engine.emu.setFaults({
		failNext: [{ method: 'GET', path: '/api/v1/ai_video', kind: 'resetBefore', count: 3 }],
	});
	const first = await engine.poll(activation.staticData, params);
	expect(
		engine.emu.requests({ path: '/api/v1/ai_video' }).filter((r) => r.outcome === 'reset'),
	).toHaveLength(3);
	const all = [...rendering, ...newer];
	expect(emittedIds(first).sort()).toEqual(
		all
			.filter((m) => m.kind === 'talkingVideo')
			.map((m) => m.id)
			.sort(),
	);
	const next = await engine.poll(first.staticData, params);
	expect(emittedIds(next).sort()).toEqual(
		all
			.filter((m) => m.kind === 'aiVideo')
			.map((m) => m.id)
			.sort(),
	);
});

test('a restart with the persisted static data neither emits again nor misses', async () => {
	const activation = await engine.poll(undefined);
	const first = await makeMany(4);
	engine.emu.advance(FINISH);
	const emitting = await engine.poll(activation.staticData);
	expect(emittedIds(emitting).sort()).toEqual(expected(first, ['created']));

	// Rendering when n8n went down, and created while it was down; both finish during the outage.
	const second = await makeMany(4);
	engine.emu.advance(1_000);
	const quiet = await engine.poll(emitting.staticData);
	expect(quiet.items).toBeNull();
	const third = await makeMany(4);
	engine.emu.advance(FINISH);

	// n8n may not have saved the quiet poll's static data: restart from the last emitting one.
	const restarted = await createHarness();
	try {
		const afterRestart = await engine.poll(
			emitting.staticData,
			{},
			{ activation: 'init' },
			restarted,
		);
		expect(emittedIds(afterRestart).sort()).toEqual(expected([...second, ...third], ['created']));
		// The same from the quiet poll's static data, had it been saved.
		const fromQuiet = await engine.poll(quiet.staticData, {}, { activation: 'init' }, restarted);
		expect(emittedIds(fromQuiet).sort()).toEqual(expected([...second, ...third], ['created']));
		const afterThat = await engine.poll(
			afterRestart.staticData,
			{},
			{ activation: 'init' },
			restarted,
		);
		expect(afterThat.items).toBeNull();
	} finally {
		await restarted.shutdown();
	}
});

test('500 videos finishing while n8n restarts: each poll after it emits as many as it may hand over, each video once', async () => {
	const activation = await engine.poll(undefined);
	const made: Made[] = [];
	for (let i = 0; i < 500; i++) made.push(await make(i % 2 === 0 ? 'talkingVideo' : 'aiVideo'));
	engine.emu.advance(1_000);
	// The last poll before the restart saw all 500 rendering. n8n 2.x saved its static data; 1.x saves
	// static data only after a poll that emitted, so it restarts from the activation's.
	const quiet = await engine.poll(activation.staticData);
	expect(quiet.items).toBeNull();
	engine.emu.advance(FINISH);
	for (const saved of [quiet.staticData, activation.staticData]) {
		const restarted = await createHarness();
		try {
			let staticData = saved;
			const counts: number[] = [];
			const all: string[] = [];
			for (let i = 0; i < 4; i++) {
				const result = await engine.poll(staticData, {}, { activation: 'init' }, restarted);
				staticData = result.staticData;
				counts.push(emittedIds(result).length);
				all.push(...emittedIds(result));
			}
			// Only the hand-over cap spreads them: none waits for a status check of its own.
			expect(counts).toEqual([
				LIMITS.emitPerPoll,
				LIMITS.emitPerPoll,
				500 - 2 * LIMITS.emitPerPoll,
				0,
			]);
			expect(all).toHaveLength(new Set(all).size);
			expect(all.sort()).toEqual(made.map((m) => m.id).sort());
		} finally {
			await restarted.shutdown();
		}
	}
	// Read from the list pages, not one status request each.
	expect(engine.emu.requests({ method: 'GET', path: '/api/v1/video' }).length).toBeLessThan(
		LIMITS.talkingChecksPerPoll,
	);
}, 120_000);

test('an idle poll sends one list request per kind; rendering tasks are read from the list within the overlap window, below it by id (AI: 20 a request)', async () => {
	const activation = await engine.poll(undefined);
	engine.emu.clearLog();
	const idle = await engine.poll(activation.staticData);
	expect(idle.items).toBeNull();
	const requests = engine.emu.requests({ origin: 'api' });
	expect(requests.map((r) => r.path).sort()).toEqual(LIST_PATHS);
	expect(
		requests.every(
			(r) => r.query.limit === String(LIMITS.firstPageSize) && r.query.cursor === undefined,
		),
	).toBe(true);

	engine.emu.setConfig({ renderMs: 10 * RENDER_MS });
	await make('talkingVideo');
	for (let i = 0; i < 25; i++) await make('aiVideo');
	engine.emu.advance(1_000);
	const watching = await engine.poll(idle.staticData);
	expect(watching.items).toBeNull();
	engine.emu.clearLog();
	const inWindow = await engine.poll(watching.staticData);
	expect(inWindow.items).toBeNull();
	// The window below the newest task holds all 26: their statuses come with the pages (AI: 20 + 5).
	expect(
		engine.emu
			.requests({ origin: 'api' })
			.map((r) => r.path)
			.sort(),
	).toEqual(['/api/v1/ai_videos', '/api/v1/ai_videos', '/api/v1/videos']);

	// Newer tasks move the window up: the 26 are now read by id.
	// The window, and the stretch of one window more that a walk passes over, lie between.
	engine.emu.advance(2 * LIMITS.overlapSeconds * 1000 + 10_000);
	const newer = [await make('talkingVideo'), await make('aiVideo')];
	engine.emu.advance(1_000);
	const moved = await engine.poll(inWindow.staticData);
	expect(moved.items).toBeNull();
	engine.emu.clearLog();
	const stillRendering = await engine.poll(moved.staticData);
	expect(stillRendering.items).toBeNull();
	const paths = engine.emu.requests({ origin: 'api' }).map((r) => r.path);
	// 2 lists, 1 talking-video status, 2 AI batches (25 ids).
	expect(paths.sort()).toEqual([
		'/api/v1/ai_video',
		'/api/v1/ai_video',
		'/api/v1/ai_videos',
		'/api/v1/video',
		'/api/v1/videos',
	]);
	expect(
		engine.emu
			.requests({ path: '/api/v1/ai_video' })
			.map((r) => r.query.video_ids.split(',').length)
			.sort(),
	).toEqual([20, 5]);

	engine.emu.advance(10 * RENDER_MS);
	const finished = await engine.poll(stillRendering.staticData);
	expect(emittedIds(finished)).toHaveLength(26 + newer.length);
});

test('a backlog longer than the page allowance drains over several polls, each task once', async () => {
	Object.assign(LIMITS, { firstPageSize: 3, pageSize: 4, pagesPerPoll: 2 });
	const params = { events: ['aiVideo'] };
	const activation = await engine.poll(undefined, params);
	const aiVideos = async (count: number) => {
		const made: Made[] = [];
		for (let i = 0; i < count; i++) made.push(await make('aiVideo', i % 3 === 2));
		return made;
	};
	const first = await aiVideos(20);
	engine.emu.advance(FINISH);
	let staticData = activation.staticData;
	const all: string[] = [];
	const polls: string[][] = [];
	let extra: Made[] = [];
	for (let i = 0; i < 12; i++) {
		engine.emu.clearLog();
		const result = await engine.poll(staticData, params);
		staticData = result.staticData;
		polls.push(emittedIds(result));
		all.push(...emittedIds(result));
		expect(engine.emu.requests({ path: '/api/v1/ai_videos' }).length).toBeLessThanOrEqual(
			LIMITS.pagesPerPoll,
		);
		// New tasks keep arriving while the backlog drains.
		if (i === 1) {
			extra = await aiVideos(5);
			engine.emu.advance(FINISH);
		}
	}
	expect(polls[0].length).toBeLessThanOrEqual(LIMITS.firstPageSize + LIMITS.pageSize);
	expect(all).toHaveLength(new Set(all).size);
	expect(all.sort()).toEqual(expected([...first, ...extra], ['created']).sort());
	expect(polls.at(-1)).toEqual([]);
});

test('manual mode returns the most recent finished task and leaves the stored cursor alone', async () => {
	await expect(
		engine.harness.poll(triggerNode(), { credentials: engine.credentials, mode: 'manual' }),
	).rejects.toThrow(/No finished video exists yet/);

	const activation = await engine.poll(undefined);
	const olderTalking = await make('talkingVideo');
	engine.emu.advance(2_000);
	const newestAi = await make('aiVideo');
	engine.emu.advance(2_000);
	await make('talkingVideo', true);
	engine.emu.advance(FINISH);
	await make('aiVideo');

	const manual = await engine.harness.poll(triggerNode(), {
		credentials: engine.credentials,
		staticData: activation.staticData,
		mode: 'manual',
	});
	expect(manual.items).toHaveLength(1);
	expect(manual.items![0]).toHaveLength(1);
	expect(manual.items![0][0].json).toMatchObject({
		video_id: newestAi.id,
		status: 'created',
		kind: 'aiVideo',
	});
	expect(manual.staticData).toEqual(activation.staticData);

	const failedToo = await engine.harness.poll(
		triggerNode({ statuses: ['created', 'failed'], events: ['talkingVideo'] }),
		{ credentials: engine.credentials, mode: 'manual' },
	);
	expect(failedToo.items![0][0].json).toMatchObject({ status: 'failed', kind: 'talkingVideo' });
	expect(failedToo.items![0][0].json.video_id).not.toBe(olderTalking.id);

	// The trigger itself still emits what finished after activation.
	const afterManual = await engine.poll(activation.staticData);
	expect(emittedIds(afterManual).sort()).toEqual([olderTalking.id, newestAi.id].sort());
});

test("manual mode reports the service's message and hint", async () => {
	const wrong = {
		visionStoryApi: { apiKey: 'sk-vs-wrong-key-000000', baseUrl: engine.emu.baseUrl },
	};
	const error = (await engine.harness
		.poll(triggerNode(), { credentials: wrong, mode: 'manual' })
		.catch((e: unknown) => e)) as {
		message: string;
		description?: string;
	};
	expect(error.message).toBe('Missing or invalid X-API-Key');
	expect(error.description).toBe('Send a valid key from the API keys page in the X-API-Key header');
});

test('downloadResult attaches the video the media origin serves, for ready tasks only', async () => {
	const params = { downloadResult: true, statuses: ['created', 'failed'] };
	const activation = await engine.poll(undefined, params);
	const ready = await make('talkingVideo');
	const failed = await make('aiVideo', true);
	engine.emu.advance(FINISH);
	const result = await engine.poll(activation.staticData, params);
	const items = result.items?.[0] ?? [];
	const byId = new Map<string, INodeExecutionData>(
		items.map((item) => [String(item.json.video_id), item]),
	);
	expect([...byId.keys()].sort()).toEqual([ready.id, failed.id].sort());

	const item = byId.get(ready.id)!;
	const served = Buffer.from(await (await fetch(String(item.json.video_url))).arrayBuffer());
	expect(served.length).toBeGreaterThan(1000);
	expect(item.binary?.data.mimeType).toBe('video/mp4');
	expect(Buffer.from(item.binary!.data.data, 'base64').equals(served)).toBe(true);
	expect(byId.get(failed.id)!.binary).toBeUndefined();
});

test('the downloaded video goes to the binary field the user names', async () => {
	const params = { downloadResult: true, outputBinaryProperty: 'finishedVideo' };
	const activation = await engine.poll(undefined, params);
	await make('talkingVideo');
	engine.emu.advance(FINISH);
	const [item] = (await engine.poll(activation.staticData, params)).items?.[0] ?? [];
	expect(Object.keys(item.binary ?? {})).toEqual(['finishedVideo']);
	expect(item.binary?.finishedVideo.mimeType).toBe('video/mp4');
});

test('a download that fails past the retries holds that task back; the next poll emits it with its file', async () => {
	const params = { downloadResult: true };
	const activation = await engine.poll(undefined, params);
	const ready = await make('aiVideo');
	engine.emu.advance(FINISH);
	engine.emu.setFaults({
		failNext: [
			{
				origin: 'media',
				method: 'GET',
				path: `/media/videos/${ready.id}.mp4`,
				kind: 'http500',
				count: 3,
			},
		],
	});
	const failed = await engine.poll(activation.staticData, params);
	expect(failed.items).toBeNull();
	const next = await engine.poll(failed.staticData, params);
	expect(emittedIds(next)).toEqual([ready.id]);
	expect(next.items![0][0].binary?.data).toBeDefined();
	expect(next.items![0][0].json.downloadError).toBeUndefined();
});

test('more ready tasks than one poll hands over wait for the next poll, each emitted once', async () => {
	Object.assign(LIMITS, { emitPerPoll: 4 });
	const activation = await engine.poll(undefined);
	const made: Made[] = [];
	for (let i = 0; i < 10; i++) made.push(await make(i % 2 === 0 ? 'talkingVideo' : 'aiVideo'));
	engine.emu.advance(FINISH);
	let staticData = activation.staticData;
	const counts: number[] = [];
	const all: string[] = [];
	for (let i = 0; i < 4; i++) {
		const result = await engine.poll(staticData);
		staticData = result.staticData;
		counts.push(emittedIds(result).length);
		all.push(...emittedIds(result));
	}
	expect(counts).toEqual([4, 4, 2, 0]);
	expect(all.sort()).toEqual(made.map((m) => m.id).sort());
});

test('downloads stop at the poll budget; the videos not downloaded yet come with the next poll', async () => {
	// 0.4 s of the harness's 5-minute poll budget; one retried download (a virtual sleep of 0.5 s or more) spends it.
	Object.assign(LIMITS, { budgetShare: 400 / 300_000, downloadShare: 400 / 300_000 });
	const params = { downloadResult: true, events: ['aiVideo'] };
	const activation = await engine.poll(undefined, params);
	const made = [await make('aiVideo'), await make('aiVideo'), await make('aiVideo')];
	engine.emu.advance(FINISH);
	engine.emu.setFaults({
		failNext: [{ origin: 'media', method: 'GET', kind: 'http500', count: 1 }],
	});
	const first = await engine.poll(activation.staticData, params);
	expect(emittedIds(first)).toHaveLength(1);
	expect(first.items![0][0].binary?.data).toBeDefined();
	const second = await engine.poll(first.staticData, params);
	expect(emittedIds(second)).toHaveLength(2);
	expect(second.items![0].every((item) => item.binary?.data !== undefined)).toBe(true);
	expect([...emittedIds(first), ...emittedIds(second)].sort()).toEqual(
		made.map((m) => m.id).sort(),
	);
});

test('a video that can never be downloaded (gone, forbidden) is emitted without a file instead of blocking the trigger', async () => {
	const params = { downloadResult: true };
	const activation = await engine.poll(undefined, params);
	const ready = await make('aiVideo');
	engine.emu.advance(FINISH);
	const download = jest.spyOn(VisionStoryClient.prototype, 'download').mockRejectedValueOnce(
		new VisionStoryError({
			category: 'api',
			operation: 'download',
			status: 404,
			message: 'No such video',
		}),
	);
	try {
		const result = await engine.poll(activation.staticData, params);
		expect(result.items).toEqual([
			[
				{
					json: expect.objectContaining({
						video_id: ready.id,
						kind: 'aiVideo',
						downloadError: 'No such video',
					}),
				},
			],
		]);
		expect((await engine.poll(result.staticData, params)).items).toBeNull();
	} finally {
		download.mockRestore();
	}
});

describe.each<Kind>(['talkingVideo', 'aiVideo'])(
	'%s: a task reported created with an empty video_url',
	(kind) => {
		const events = [kind];

		test('is not emitted until a later poll shows its link, then once, with its file', async () => {
			const params = { events, downloadResult: true };
			const activation = await engine.poll(undefined, params);
			engine.emu.setConfig({ videoUrlDelayMs: 90_000 });
			const made = await make(kind);
			engine.emu.advance(FINISH);
			const linkless = await engine.poll(activation.staticData, params);
			expect(linkless.items).toBeNull();
			engine.emu.advance(90_000);
			const linked = await engine.poll(linkless.staticData, params);
			expect(emittedIds(linked)).toEqual([made.id]);
			const [item] = linked.items![0];
			expect(item.json.video_url).toMatch(/\.mp4$/);
			expect(item.json.fileMissing).toBeUndefined();
			expect(item.json.downloadError).toBeUndefined();
			expect(item.binary?.data.mimeType).toBe('video/mp4');
			expect((await engine.poll(linked.staticData, params)).items).toBeNull();
		});

		test.each([true, false])(
			'whose link never comes is emitted once after a bounded wait, saying the file is missing (Download Result %s)',
			async (downloadResult) => {
				const params = { events, downloadResult };
				const activation = await engine.poll(undefined, params);
				engine.emu.setConfig({ videoUrlDelayMs: 3_600_000 });
				const made = await make(kind);
				engine.emu.advance(FINISH);
				let staticData = activation.staticData;
				// The service is read again (by id) at each poll while it waits.
				for (let i = 0; i < MAX_LINKLESS_READS; i++) {
					const waiting = await engine.poll(staticData, params);
					expect(waiting.items).toBeNull();
					staticData = waiting.staticData;
					engine.emu.advance(60_000);
				}
				const result = await engine.poll(staticData, params);
				expect(emittedIds(result)).toEqual([made.id]);
				const [item] = result.items![0];
				expect(item.json).toMatchObject({ status: 'created', video_url: '', kind });
				expect(item.json.fileMissing).toMatch(
					new RegExp(`video ${made.id} as created but gives no link to its file`),
				);
				expect(item.binary).toBeUndefined();
				if (downloadResult)
					expect(item.json.downloadError).toMatch(
						/gave no link to its file \(video_url is empty\), so there was nothing to download/,
					);
				else expect(item.json.downloadError).toBeUndefined();
				// Emitted once: not again, even when the link shows later.
				const after = await engine.poll(result.staticData, params);
				expect(after.items).toBeNull();
				engine.emu.advance(3_600_000);
				expect((await engine.poll(after.staticData, params)).items).toBeNull();
			},
		);
	},
);
