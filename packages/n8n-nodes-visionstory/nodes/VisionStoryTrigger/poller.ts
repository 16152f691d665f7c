import type { VisionStoryClient } from '../shared/api/client';
import { mapConcurrent } from '../shared/api/concurrency';
import type { TaskStatus } from '../shared/api/contract';
import { AI_VIDEO_BATCH_MAX, isFinished, RENDERING_STATUSES } from '../shared/api/contract';
import { VisionStoryError } from '../shared/api/errors';
import type { TaskKind, VideoTask } from '../shared/api/tasks';
import type { Gap, KindCursor, Mark, Pending } from './cursor';
import { advanceMark, createdAt, keepLast, LIMITS, reaches } from './cursor';

interface Page {
	videos: VideoTask[];
	next_cursor?: number | null;
}

interface ListRequest {
	cursor?: number;
	limit: number;
	status?: TaskStatus[];
}

/** One kind of task as the trigger sees it: a newest-first list and a status lookup. */
export interface TaskSource {
	kind: TaskKind;
	list(request: ListRequest): Promise<Page>;
	/** The current state of known tasks; an id missing from the answer could not be read this time. */
	check(ids: string[]): Promise<Map<string, VideoTask>>;
	checksPerPoll: number;
	/** Ids one status request reads. */
	checkBatch: number;
}

/**
 * `GET /api/v1/videos` takes no documented parameters: a service that refuses the status filter is
 * asked again without it, and every caller filters the answer itself anyway.
 */
export async function listTolerant(
	call: (request: ListRequest) => Promise<Page>,
	request: ListRequest,
): Promise<Page> {
	const first = await call(request).then(
		(page) => ({ page }),
		(error: unknown) => ({ error }),
	);
	if ('page' in first) return first.page;
	const { error } = first;
	const refused =
		error instanceof VisionStoryError &&
		error.category === 'api' &&
		(error.status === 400 || error.status === 422);
	if (!request.status || !refused) throw error;
	return await call({ cursor: request.cursor, limit: request.limit });
}

function isNotFound(error: unknown): boolean {
	return error instanceof VisionStoryError && error.category === 'api' && error.status === 404;
}

export function taskSources(client: VisionStoryClient): Record<TaskKind, TaskSource> {
	return {
		talkingVideo: {
			kind: 'talkingVideo',
			list: async (request) =>
				await listTolerant(async (r) => await client.listTalkingVideos(r), request),
			check: async (ids) => {
				const found = new Map<string, VideoTask>();
				await mapConcurrent(ids, LIMITS.checkConcurrency, async (id) => {
					// Gone (deleted, or past the 7-day retention): counted as a miss, not a failed poll.
					const task = await client
						.getTalkingVideo({ video_id: id })
						.catch(async (error: unknown) => {
							if (isNotFound(error)) return undefined;
							return await Promise.reject(error);
						});
					if (task) found.set(id, task);
				});
				return found;
			},
			checksPerPoll: LIMITS.talkingChecksPerPoll,
			checkBatch: 1,
		},
		aiVideo: {
			kind: 'aiVideo',
			list: async (request) =>
				await listTolerant(async (r) => await client.listAiVideos(r), request),
			check: async (ids) => {
				const found = new Map<string, VideoTask>();
				for (let i = 0; i < ids.length; i += AI_VIDEO_BATCH_MAX) {
					const videos = await client.getAiVideos({
						video_ids: ids.slice(i, i + AI_VIDEO_BATCH_MAX),
					});
					for (const video of videos) found.set(video.video_id, video);
				}
				return found;
			},
			checksPerPoll: LIMITS.aiChecksPerPoll,
			checkBatch: AI_VIDEO_BATCH_MAX,
		},
	};
}

/** How much one poll may still fetch for one kind: pages, and a deadline shared by all kinds. */
export class Allowance {
	constructor(
		private pages: number,
		private readonly deadline: number,
	) {}

	/** Another page count under the same deadline. */
	withPages(pages: number): Allowance {
		return new Allowance(pages, this.deadline);
	}

	hasTime(): boolean {
		return Date.now() < this.deadline;
	}

	takePage(): boolean {
		if (this.pages <= 0 || !this.hasTime()) return false;
		this.pages--;
		return true;
	}
}

interface WalkResult {
	/** Tasks met, newest first, before reaching the stop. */
	tasks: VideoTask[];
	/** Reached the stop or the end of the list; otherwise `cursor` is where to go on. */
	done: boolean;
	cursor: number;
}

/** Pages down a newest-first list from `start` until `stop` (or the end, or the allowance). */
async function walk(
	source: TaskSource,
	start: number,
	stop: Mark | undefined,
	allowance: Allowance,
	status?: TaskStatus[],
): Promise<WalkResult> {
	const tasks: VideoTask[] = [];
	const seen = new Set<string>();
	let cursor = start;
	for (;;) {
		if (!allowance.takePage()) return { tasks, done: false, cursor };
		const page = await source.list({
			cursor: cursor || undefined,
			limit: cursor ? LIMITS.pageSize : LIMITS.firstPageSize,
			status,
		});
		let fresh = 0;
		for (const task of page.videos) {
			if (stop && reaches(stop, task)) return { tasks, done: true, cursor };
			if (seen.has(task.video_id)) continue;
			seen.add(task.video_id);
			tasks.push(task);
			fresh++;
		}
		const next = page.next_cursor ?? 0;
		// A service without paging, or one that ignores the cursor, must not keep the walk going round.
		if (!next || next === cursor || fresh === 0) return { tasks, done: true, cursor };
		cursor = next;
	}
}

/**
 * Reads watched tasks from the top of the list, 100 a request, while looking them up one by one would
 * cost more requests. Stops once the page passes the oldest of them (when every one has a creation
 * time), or at the end of the list or the allowance; what it did not meet is checked one by one.
 */
async function refreshFromList(
	source: TaskSource,
	waiting: readonly Pending[],
	allowance: Allowance,
): Promise<Map<string, VideoTask>> {
	const found = new Map<string, VideoTask>();
	const wanted = new Set(waiting.map((p) => p.id));
	const times = waiting.map((p) => p.at);
	const oldest = times.every((at): at is number => at !== null) ? Math.min(...times) : null;
	const worthIt = () => Math.ceil(wanted.size / source.checkBatch) > LIMITS.checkRequestsBeforeList;
	const seen = new Set<string>();
	let cursor = 0;
	while (worthIt() && allowance.takePage()) {
		const page = await source.list({ cursor: cursor || undefined, limit: LIMITS.pageSize });
		let fresh = 0;
		for (const task of page.videos) {
			if (seen.has(task.video_id)) continue;
			seen.add(task.video_id);
			fresh++;
			if (wanted.delete(task.video_id)) found.set(task.video_id, task);
		}
		const last = page.videos.at(-1);
		const lastAt = last ? createdAt(last) : null;
		if (oldest !== null && lastAt !== null && lastAt < oldest) break;
		const next = page.next_cursor ?? 0;
		if (!next || next === cursor || fresh === 0) break;
		cursor = next;
	}
	return found;
}

/** Where a kind stands right after activation: nothing emitted, but what is rendering is watched. */
export async function startKind(source: TaskSource, allowance: Allowance): Promise<KindCursor> {
	// Rendering tasks first, then the head: a task created in between is then above the head and
	// found by the next poll, rather than missed.
	const rendering = await walk(source, 0, undefined, allowance, [...RENDERING_STATUSES]);
	const top = await source.list({ limit: LIMITS.firstPageSize });
	const pending = new Map<string, Pending>();
	for (const task of [...rendering.tasks, ...top.videos]) {
		if (!isFinished(task))
			pending.set(task.video_id, { id: task.video_id, at: createdAt(task), misses: 0 });
	}
	return {
		head: advanceMark(top.videos, { ids: [], at: null }),
		gaps: [],
		pending: keepLast([...pending.values()], LIMITS.pendingMax),
		emitted: [],
	};
}

/** One kind's poll before the hand-over: the next cursor without this poll's emissions, and what is ready. */
export interface KindPoll {
	kind: TaskKind;
	head: Mark;
	gaps: Gap[];
	pending: Pending[];
	emitted: string[];
	ready: VideoTask[];
}

export async function pollKind(
	source: TaskSource,
	cursor: KindCursor,
	statuses: ReadonlySet<string>,
	allowance: Allowance,
): Promise<KindPoll> {
	const found = new Map<string, VideoTask>();
	const head = await walk(source, 0, cursor.head, allowance);
	const gaps: Gap[] = [];
	// The allowance ran out above the old head: the stretch in between is walked in later polls.
	if (!head.done && head.cursor !== 0) gaps.push({ cursor: head.cursor, stop: cursor.head });
	for (const task of head.tasks) found.set(task.video_id, task);
	for (const gap of cursor.gaps) {
		const rest = await walk(source, gap.cursor, gap.stop, allowance);
		for (const task of rest.tasks) if (!found.has(task.video_id)) found.set(task.video_id, task);
		if (!rest.done) gaps.push({ cursor: rest.cursor, stop: gap.stop });
	}

	const emitted = new Set(cursor.emitted);
	const pending = new Map(cursor.pending.map((p) => [p.id, p]));
	const ready = new Map<string, VideoTask>();
	const settle = (task: VideoTask) => {
		const id = task.video_id;
		if (emitted.has(id) || ready.has(id)) {
			pending.delete(id);
		} else if (statuses.has(task.status)) {
			ready.set(id, task);
			pending.delete(id);
		} else if (isFinished(task)) {
			pending.delete(id);
		} else {
			// Queued, creating, or a status this version does not know: watched until it finishes.
			pending.set(id, { id, at: createdAt(task), misses: 0 });
		}
	};
	for (const task of found.values()) settle(task);

	// Least recently checked first; the ones checked now go to the back of the queue.
	let waiting = [...cursor.pending].filter((p) => pending.has(p.id) && !found.has(p.id));
	const listed = await refreshFromList(
		source,
		waiting,
		allowance.withPages(LIMITS.refreshPagesPerPoll),
	);
	for (const task of listed.values()) {
		pending.delete(task.video_id);
		settle(task);
	}
	waiting = waiting.filter((p) => !listed.has(p.id));
	const toCheck = allowance.hasTime() ? waiting.slice(0, source.checksPerPoll) : [];
	if (toCheck.length > 0) {
		const answers = await source.check(toCheck.map((p) => p.id));
		for (const entry of toCheck) {
			const task = answers.get(entry.id);
			pending.delete(entry.id);
			if (task) settle(task);
			else if (entry.misses + 1 < LIMITS.maxMisses)
				pending.set(entry.id, { ...entry, misses: entry.misses + 1 });
		}
	}

	return {
		kind: source.kind,
		head: advanceMark(head.tasks, cursor.head),
		gaps: gaps.slice(0, LIMITS.gapsMax),
		pending: [...pending.values()],
		emitted: cursor.emitted,
		ready: [...ready.values()],
	};
}

/** The kind's cursor once `emitted` were handed over and `held` were kept back for the next poll. */
export function settleKind(
	poll: KindPoll,
	emitted: readonly string[],
	held: readonly VideoTask[],
): KindCursor {
	const pending = new Map(poll.pending.map((p) => [p.id, p]));
	for (const task of held)
		pending.set(task.video_id, { id: task.video_id, at: createdAt(task), misses: 0 });
	let kept = [...pending.values()];
	if (kept.length > LIMITS.pendingMax) {
		// Only a queue of thousands of renders gets here; the oldest are the likeliest to be stuck.
		const newest = [...kept].sort((a, b) => (b.at ?? 0) - (a.at ?? 0)).slice(0, LIMITS.pendingMax);
		const keep = new Set(newest.map((p) => p.id));
		kept = kept.filter((p) => keep.has(p.id));
	}
	return {
		head: poll.head,
		gaps: poll.gaps,
		pending: kept,
		emitted: keepLast([...poll.emitted, ...emitted], LIMITS.emittedMax),
	};
}

/** The newest task of the chosen statuses of one kind, for "Fetch Test Event". */
export async function latestFinished(
	source: TaskSource,
	statuses: ReadonlySet<string>,
	allowance: Allowance,
): Promise<VideoTask | undefined> {
	const status = [...statuses] as TaskStatus[];
	let cursor = 0;
	while (allowance.takePage()) {
		const page = await source.list({
			cursor: cursor || undefined,
			limit: LIMITS.firstPageSize,
			status,
		});
		const match = page.videos.find((task) => statuses.has(task.status));
		if (match) return match;
		const next = page.next_cursor ?? 0;
		if (!next || next === cursor) return undefined;
		cursor = next;
	}
	return undefined;
}
