// The trigger's cursor against services that answer the list endpoints differently from the emulator:
// GET /api/v1/videos's parameters are a guess, so the cursor must hold up when the status filter is
// ignored, when there is no next_cursor, when the cursor is ignored or counts positions, when tasks
// are deleted, and when created_at is missing. Many polls, seeded random traffic, one oracle.
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import { RULES } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/intents';
import type { VideoTask as Task } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import type { KindCursor } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import {
	LIMITS,
	readWatchState,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import {
	Allowance,
	latestFinished,
	pollKind,
	settleKind,
	startKind,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/poller';
import type { TaskSource } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/sources';
import { listTolerant } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/sources';

type Paging = 'keyset' | 'offset' | 'none' | 'ignored';

interface ServiceOptions {
	paging: Paging;
	ignoreStatus?: boolean;
	/** created_at 0 on every task, as the AI-video contract allows. */
	noCreatedAt?: boolean;
	/** Answers 422 to a status filter (a service that does not know the parameter). */
	refuseStatus?: boolean;
}

interface FakeTask {
	seq: number;
	id: string;
	submittedAt: number;
	finishesAt: number;
	fails: boolean;
	deleted: boolean;
}

/** A deterministic PRNG, so a failure can be replayed. */
function prng(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

class FakeService implements TaskSource {
	kind = 'aiVideo' as const;
	endpoints = { noun: 'AI videos', list: 'the list', read: 'by id' };
	checksPerPoll = 100;
	checkBatch = 20;
	now = 1_700_000_000_000;
	requests = 0;
	private seq = 0;
	readonly tasks: FakeTask[] = [];

	constructor(private readonly options: ServiceOptions) {}

	create(renderMs: number, fails = false): FakeTask {
		const task = {
			seq: ++this.seq,
			id: `vid_${this.seq}`,
			submittedAt: this.now,
			finishesAt: this.now + renderMs,
			fails,
			deleted: false,
		};
		this.tasks.push(task);
		return task;
	}

	status(task: FakeTask, at = this.now): string {
		if (at < task.submittedAt + 500) return 'queued';
		if (at < task.finishesAt) return 'creating';
		return task.fails ? 'failed' : 'created';
	}

	dto(task: FakeTask): Task {
		const status = this.status(task);
		return {
			video_id: task.id,
			status,
			created_at: this.options.noCreatedAt ? 0 : Math.floor(task.submittedAt / 1000),
			// Set once created, as the contract says.
			video_url: status === 'created' ? `https://files.example/${task.id}.mp4` : null,
		};
	}

	async list(request: Parameters<TaskSource['list']>[0]) {
		// The real sources retry a refused status filter without it; so does this one.
		return await listTolerant(async (r) => await this.answer(r), request);
	}

	private async answer(asked: Partial<Parameters<TaskSource['list']>[0]>) {
		this.requests++;
		// Asked with nothing, it answers as the official clients are answered: its default page.
		const request = { limit: 20, ...asked };
		if (request.status && this.options.refuseStatus) {
			throw new VisionStoryError({
				category: 'api',
				status: 422,
				message: 'Unknown query parameter status',
			});
		}
		let rows = this.tasks.filter((t) => !t.deleted).sort((a, b) => b.seq - a.seq);
		if (request.status && !this.options.ignoreStatus)
			rows = rows.filter((t) => (request.status as string[]).includes(this.status(t)));
		const cursor = request.cursor ?? 0;
		switch (this.options.paging) {
			case 'none':
				return { videos: rows.map((t) => this.dto(t)) };
			case 'ignored': {
				const page = rows.slice(0, request.limit);
				return {
					videos: page.map((t) => this.dto(t)),
					next_cursor: rows.length > page.length ? 7 : 0,
				};
			}
			case 'offset': {
				const page = rows.slice(cursor, cursor + request.limit);
				return {
					videos: page.map((t) => this.dto(t)),
					next_cursor: cursor + page.length < rows.length ? cursor + page.length : 0,
				};
			}
			case 'keyset': {
				const after = cursor > 0 ? rows.filter((t) => t.seq < cursor) : rows;
				const page = after.slice(0, request.limit);
				return {
					videos: page.map((t) => this.dto(t)),
					next_cursor: after.length > page.length ? page[page.length - 1].seq : 0,
				};
			}
		}
	}

	async check(ids: string[]) {
		this.requests += Math.ceil(ids.length / 20);
		const found = new Map<string, Task>();
		for (const task of this.tasks)
			if (ids.includes(task.id) && !task.deleted) found.set(task.id, this.dto(task));
		return found;
	}
}

const defaultLimits = { ...LIMITS };
afterEach(() => Object.assign(LIMITS, defaultLimits));

/** What the trigger node does around pollKind, minus n8n: everything ready is handed over. */
async function runPoll(
	service: FakeService,
	cursor: KindCursor | undefined,
	statuses: Set<string>,
) {
	const allowance = new Allowance(LIMITS.pagesPerPoll, Number.POSITIVE_INFINITY);
	if (!cursor)
		return { cursor: (await startKind(service, allowance)).cursor, emitted: [] as string[] };
	const poll = await pollKind(service, cursor, statuses, allowance);
	const emitted = poll.ready.map((t) => t.video_id);
	// Through JSON, as n8n stores static data.
	const next = readWatchState(
		JSON.parse(JSON.stringify({ version: 2, aiVideo: settleKind(poll, emitted, []) })),
	).aiVideo;
	return { cursor: next, emitted };
}

const services: Array<[string, ServiceOptions]> = [
	['keyset cursor, status filter honoured', { paging: 'keyset' }],
	['status filter ignored', { paging: 'keyset', ignoreStatus: true }],
	['status filter refused with 422', { paging: 'keyset', refuseStatus: true }],
	['no next_cursor: one unpaginated answer', { paging: 'none' }],
	['cursor ignored: the same page every time', { paging: 'ignored', ignoreStatus: true }],
	['offset cursor that shifts as tasks arrive', { paging: 'offset' }],
	['created_at always 0', { paging: 'keyset', noCreatedAt: true }],
];

describe.each(services)('exactly once against a service with %s', (_name, options) => {
	test.each([[['created']], [['created', 'failed']]])(
		'statuses %j over 40 polls of random traffic',
		async (chosen) => {
			Object.assign(LIMITS, { firstPageSize: 5, pageSize: 7, pagesPerPoll: 3 });
			const statuses = new Set(chosen);
			const service = new FakeService(options);
			const random = prng(chosen.length * 7919 + options.paging.length);
			// Without working paging only the top of the list can ever be seen: no deep task, no burst.
			const paged = options.paging !== 'ignored';
			// History before activation: finished, plus a slow one still rendering deep in the list.
			for (let i = 0; i < 12; i++) service.create(1_000, i % 4 === 0);
			const slow = paged ? service.create(400_000) : undefined;
			for (let i = 0; i < 12; i++) service.create(1_000);
			const slowOnTop = slow ?? service.create(400_000);
			service.now += 5_000;
			const activatedAt = service.now;

			let { cursor } = await runPoll(service, undefined, statuses);
			const emitted: string[] = [];
			let lastPoll = service.now;
			for (let step = 0; step < 40; step++) {
				// Now and then a burst longer than a poll's page allowance: the rest waits in a gap.
				const count = paged && random() < 0.15 ? 25 : Math.floor(random() * 6);
				for (let i = 0; i < count; i++)
					service.create(random() < 0.2 ? 200_000 : 10_000 + random() * 50_000, random() < 0.3);
				// Deleting finished tasks the trigger has had a poll to see must not make it lose its place.
				if (!options.noCreatedAt && random() < 0.3) {
					const victim = service.tasks.find(
						(t) => !t.deleted && t !== slowOnTop && t.finishesAt < lastPoll && random() < 0.5,
					);
					if (victim) victim.deleted = true;
				}
				service.now += Math.floor(random() * 40_000);
				lastPoll = service.now;
				const result = await runPoll(service, cursor, statuses);
				cursor = result.cursor;
				emitted.push(...result.emitted);
			}
			service.now += 500_000;
			for (let i = 0; i < 3; i++) {
				const result = await runPoll(service, cursor, statuses);
				cursor = result.cursor;
				emitted.push(...result.emitted);
			}

			const due = service.tasks
				.filter((t) => t.finishesAt > activatedAt && statuses.has(service.status(t)))
				.filter((t) => !t.deleted)
				.map((t) => t.id);
			expect(emitted).toHaveLength(new Set(emitted).size);
			const dueAndEmittedOrDeleted = new Set([
				...due,
				...service.tasks.filter((t) => t.deleted).map((t) => t.id),
			]);
			expect(emitted.filter((id) => !dueAndEmittedOrDeleted.has(id))).toEqual([]);
			expect(due.filter((id) => !emitted.includes(id))).toEqual([]);
			expect(due).toContain(slowOnTop.id);
			expect(due.length).toBeGreaterThan(30);
		},
	);
});

// A service that ignores the cursor never lists more than its first page: nothing below can be watched.
describe.each(services.filter(([, o]) => o.paging !== 'ignored'))(
	'300 watched renders finishing together, %s',
	(_name, options) => {
		test('are read from the list pages by the first poll after they finish, each emitted once', async () => {
			const service = new FakeService(options);
			for (let i = 0; i < 20; i++) service.create(1_000);
			service.now += 5_000;
			let { cursor } = await runPoll(service, undefined, new Set(['created']));
			const made = Array.from({ length: 300 }, () => service.create(60_000));
			service.now += 1_000;
			({ cursor } = await runPoll(service, cursor, new Set(['created'])));
			expect(cursor!.pending).toHaveLength(300);
			service.now += 60_000;
			const polls: string[][] = [];
			const requests: number[] = [];
			for (let i = 0; i < 4; i++) {
				service.requests = 0;
				const result = await runPoll(service, cursor, new Set(['created']));
				cursor = result.cursor;
				polls.push(result.emitted);
				requests.push(service.requests);
			}
			const all = polls.flat();
			expect(all).toHaveLength(new Set(all).size);
			expect(all.sort()).toEqual(made.map((t) => t.id).sort());
			expect(polls[0]).toHaveLength(300);
			// 300 status lookups would be 15 requests of 20; the list needs a head page and 3 or 4 pages of 100.
			expect(requests[0]).toBeLessThanOrEqual(1 + 4 + LIMITS.checkRequestsBeforeList);
		});
	},
);

test('an idle poll over a deep history costs one list request; over a window holding more than a page, the pages of the window', async () => {
	const service = new FakeService({ paging: 'keyset' });
	// One task every 30 s: the stretch a walk scans below the newest (two windows) fits in the first page.
	for (let i = 0; i < 500; i++) {
		service.create(1_000);
		service.now += 30_000;
	}
	const { cursor } = await runPoll(service, undefined, new Set(['created']));
	service.requests = 0;
	const idle = await runPoll(service, cursor, new Set(['created']));
	expect(idle.emitted).toEqual([]);
	expect(service.requests).toBe(1);

	// 150 created in the same second: an idle poll reads the window (20 + 100 + 100 entries).
	for (let i = 0; i < 150; i++) service.create(1_000);
	service.now += 5_000;
	const busy = await runPoll(service, idle.cursor, new Set(['created']));
	service.requests = 0;
	const idleAgain = await runPoll(service, busy.cursor, new Set(['created']));
	expect(idleAgain.emitted).toEqual([]);
	expect(service.requests).toBe(3);
});

test('a task that disappears from status answers is dropped only after reads missed it five times over ten minutes, not watched forever', async () => {
	let clock = Date.now();
	const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
	try {
		const service = new FakeService({ paging: 'keyset' });
		const task = service.create(100_000);
		service.now += 1_000;
		let { cursor } = await runPoll(service, undefined, new Set(['created']));
		expect(cursor!.pending.map((p) => p.id)).toEqual([task.id]);
		task.deleted = true;
		const firstMiss = clock;
		// Polls every few seconds: many misses, but too soon to prove anything.
		for (let i = 1; i <= RULES.watchedGoneAfterMisses + 3; i++) {
			cursor = (await runPoll(service, cursor, new Set(['created']))).cursor;
			expect(cursor!.pending).toEqual([
				{ id: task.id, at: expect.any(Number), misses: i, missedAt: firstMiss },
			]);
			clock += 5_000;
		}
		// It shows again (a replica caught up): the count starts over.
		task.deleted = false;
		cursor = (await runPoll(service, cursor, new Set(['created']))).cursor;
		expect(cursor!.pending).toEqual([{ id: task.id, at: expect.any(Number), misses: 0 }]);
		task.deleted = true;
		const missedAt = clock;
		for (let i = 1; i < RULES.watchedGoneAfterMisses; i++) {
			cursor = (await runPoll(service, cursor, new Set(['created']))).cursor;
			clock += RULES.watchedGoneAfterMs;
		}
		// Long enough, but one read short.
		expect(cursor!.pending).toEqual([
			{
				id: task.id,
				at: expect.any(Number),
				misses: RULES.watchedGoneAfterMisses - 1,
				missedAt,
			},
		]);
		cursor = (await runPoll(service, cursor, new Set(['created']))).cursor;
		expect(cursor!.pending).toEqual([]);
	} finally {
		now.mockRestore();
	}
});

test('unreadable static data starts over rather than failing every poll', () => {
	expect(readWatchState(undefined)).toEqual({ version: 2 });
	expect(readWatchState({ version: 1, aiVideo: {} })).toEqual({ version: 2 });
	expect(readWatchState({ version: 2, aiVideo: { head: 'x' } })).toEqual({ version: 2 });
});

test('Fetch Test Event filters by itself when the service ignores the status filter', async () => {
	Object.assign(LIMITS, { firstPageSize: 5 });
	const service = new FakeService({ paging: 'keyset', ignoreStatus: true });
	const ready = service.create(1_000);
	service.now += 2_000;
	for (let i = 0; i < 12; i++) service.create(1_000_000);
	service.now += 1_000;
	const found = await latestFinished(
		service,
		new Set(['created']),
		new Allowance(3, Number.POSITIVE_INFINITY),
	);
	expect(found?.video_id).toBe(ready.id);
});

test('a list in the order tasks were added, created_at up to a window late: deleting the task at the window edge lets nothing old through', async () => {
	Object.assign(LIMITS, { overlapSeconds: 10, firstPageSize: 2, pageSize: 5 });
	// Added oldest first; `late` was added after `inWindow` but reports an older created_at.
	const tasks = [
		{ id: 'inWindow', at: 195, deleted: false },
		{ id: 'late', at: 185, deleted: false },
		{ id: 'newest1', at: 200, deleted: false },
		{ id: 'newest2', at: 200, deleted: false },
	];
	const source: TaskSource = {
		kind: 'aiVideo',
		endpoints: { noun: 'AI videos', list: 'the list', read: 'by id' },
		checksPerPoll: 100,
		checkBatch: 20,
		list: async (request) => {
			const rows = tasks.filter((t) => !t.deleted).reverse();
			const start = request.cursor ?? 0;
			const page = rows.slice(start, start + request.limit);
			return {
				videos: page.map((t) => ({ video_id: t.id, status: 'created', created_at: t.at })),
				next_cursor: start + page.length < rows.length ? start + page.length : 0,
			};
		},
		check: async () => new Map(),
	};
	const statuses = new Set(['created']);
	const allowance = () => new Allowance(LIMITS.pagesPerPoll, Number.POSITIVE_INFINITY);
	const { cursor } = await startKind(source, allowance());
	expect((await pollKind(source, cursor, statuses, allowance())).ready).toEqual([]);
	tasks[1].deleted = true;
	expect((await pollKind(source, cursor, statuses, allowance())).ready).toEqual([]);
});
