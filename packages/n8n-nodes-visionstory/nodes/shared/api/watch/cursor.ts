import { z } from 'zod/v3';

import type { TaskKind } from '../tasks';

export const TASK_KINDS: readonly TaskKind[] = ['talkingVideo', 'aiVideo'];

/**
 * Sizes and allowances of one poll. They are a single object so the tests can shrink them and reach
 * the budget paths with a few dozen tasks instead of thousands.
 */
export const LIMITS = {
	/** The first page only has to show whether anything is new, so it is small. */
	firstPageSize: 20,
	pageSize: 100,
	/** List pages per kind and poll; a longer backlog continues next poll from a remembered cursor. */
	pagesPerPoll: 10,
	/**
	 * Seconds below the newest `created_at` seen that every walk still reads: a task listed late with
	 * an older `created_at` (a slow inline upload, service clocks apart) is found there, and the ids
	 * remembered in this window keep it from being taken twice.
	 */
	overlapSeconds: 120,
	/** Ids remembered in that window; past this many the window narrows to the newest of them. */
	windowIdsMax: 1000,
	/** Ids kept at the mark for tasks without a creation time, so one deleted task does not hide where the seen part starts. */
	markIds: 20,
	gapsMax: 20,
	/**
	 * Tasks watched by id at most, give or take one page: a walk takes no more new tasks than leave
	 * room under it (the rest of the list stays a gap, read again next poll), so nothing is dropped.
	 */
	pendingMax: 2000,
	emittedMax: 500,
	/** AI videos: 20 ids per status call. */
	aiChecksPerPoll: 100,
	/** Talking videos: one status call each. */
	talkingChecksPerPoll: 40,
	/**
	 * Watched tasks are read from the list (100 a request) rather than one status call each (AI: 20)
	 * while checking them one by one would take more than this many requests: hundreds of renders
	 * finishing together are then all seen by the next poll instead of 40 a poll.
	 */
	checkRequestsBeforeList: 3,
	/** List pages per kind and poll for reading watched tasks, beside those for new ones. */
	refreshPagesPerPoll: 10,
	checkConcurrency: 4,
	/** Videos handed over per poll; the rest wait for the next one. */
	emitPerPoll: 200,
	/** Polls in a row a video's file may fail to download before it is announced with `downloadError`. */
	downloadTries: 3,
	/** Part of n8n's poll budget spent on fetching; the rest is margin for retries and the hand-over. */
	budgetShare: 0.5,
	/** Part of n8n's poll budget after which no download starts but the poll's first. */
	downloadShare: 0.75,
};

/** A task met at the top of a list: its id and `created_at` (null when the service gives none). */
const Seen = z.tuple([z.string(), z.number().nullable()]);
type Seen = z.infer<typeof Seen>;

/**
 * Where a newest-first list has been looked at. `at` is the newest `created_at` met; everything
 * created before `from` (`at` less the overlap window) has been looked at; `seen` are the tasks met
 * from `from` up, so a walk through the window takes only those it has not met. A service that gives
 * no creation times has `at` and `from` null, and a walk stops at the first task of `seen` it meets.
 */
const Mark = z.object({
	at: z.number().nullable(),
	from: z.number().nullable(),
	seen: z.array(Seen),
});
export type Mark = z.infer<typeof Mark>;

export const EMPTY_MARK: Mark = { at: null, from: null, seen: [] };

/** A stretch of the list not walked yet: from `cursor` down to `stop`. */
const Gap = z.object({ cursor: z.number(), stop: Mark });
export type Gap = z.infer<typeof Gap>;

/** A task known but not emitted: still rendering, not read yet, or finished and held back by the poll's allowance. */
const Pending = z.object({
	id: z.string(),
	at: z.number().nullable(),
	/** Reads by id that did not find it since one last did (a 404, or missing from a batch answer). */
	misses: z.number().int().min(0).default(0),
	/** When the first of those reads was (ms since the epoch): `RULES.watchedGone` asks how long it has been missing. */
	missedAt: z.number().optional(),
	/** Reads by id that found it created but without its link: it is emitted once the link shows, or after a few such reads. */
	linkless: z.number().int().min(1).optional(),
	/** Polls whose hand-over could not fetch its file: after `downloadTries` it is announced without. */
	failedDownloads: z.number().int().min(1).optional(),
});
export type Pending = z.infer<typeof Pending>;

/**
 * What a kind's list gave last: `full` tasks, ids without status (each task is then read by id), its
 * first page only (it answers the same page whatever the cursor), or nothing usable (no such
 * endpoint: only tasks already known are read, by id).
 */
export const LIST_STATES = ['full', 'idsOnly', 'firstPageOnly', 'unusable'] as const;
export type ListState = (typeof LIST_STATES)[number];

const KindCursor = z.object({
	/** null until the list has answered once: the place at activation is taken then. */
	head: Mark.nullable(),
	gaps: z.array(Gap),
	/** In the order they are to be read by id: least recently read first. */
	pending: z.array(Pending),
	/** Recently emitted ids, oldest first: a second sighting (a re-walked stretch) is never emitted again. */
	emitted: z.array(z.string()),
	list: z.enum(LIST_STATES),
});
export type KindCursor = z.infer<typeof KindCursor>;

/**
 * Everything the watcher keeps between polls, as plain JSON the host stores (n8n: the trigger's
 * static data; Node-RED: the watch node's context). Version 2 is what the n8n trigger has stored
 * since issue 25; fields added later are optional, so a state saved by an older version still reads.
 */
export const WatchState = z.object({
	version: z.literal(2),
	talkingVideo: KindCursor.optional(),
	aiVideo: KindCursor.optional(),
});
export type WatchState = z.infer<typeof WatchState>;

/** A stored state from an older or damaged version counts as none: watching starts over from now. */
export function readWatchState(value: unknown): WatchState {
	const parsed = WatchState.safeParse(value);
	return parsed.success ? parsed.data : { version: 2 };
}

export function createdAt(task: { created_at?: unknown }): number | null {
	// The contract gives AI videos created_at 0 when unknown: no better than nothing.
	return typeof task.created_at === 'number' && task.created_at > 0 ? task.created_at : null;
}

/** What a walk going down the list does with a task, given the mark it walks down to. */
export type Step = 'take' | 'skip' | 'stop';

/** A mark with its seen ids as a set, for walks that test many tasks against it. */
export interface StopMark {
	mark: Mark;
	ids: ReadonlySet<string>;
}

export function stopAt(mark: Mark): StopMark {
	return { mark, ids: new Set(mark.seen.map(([id]) => id)) };
}

/**
 * A task below the window is passed over, and the walk ends only one window further down: a list in
 * the order tasks were added, with `created_at` up to a window late, has nothing of the window after
 * that, while one in `created_at` order ends there anyway.
 */
export function step(stop: StopMark, task: { video_id: string; created_at?: unknown }): Step {
	const at = createdAt(task);
	const { from } = stop.mark;
	if (from !== null && at !== null && at < from)
		return at < from - LIMITS.overlapSeconds ? 'stop' : 'skip';
	if (stop.ids.has(task.video_id)) return from !== null ? 'skip' : 'stop';
	return 'take';
}

function firstOfEachId(entries: readonly Seen[]): Seen[] {
	const ids = new Set<string>();
	const out: Seen[] = [];
	for (const entry of entries) {
		if (ids.has(entry[0])) continue;
		ids.add(entry[0]);
		out.push(entry);
	}
	return out;
}

/**
 * The mark once the tasks `met` (newest first, from the top of the list) were looked at, and `below`
 * (met further down: a gap's stretch, the overlap window). Ids below the window are forgotten; past
 * `windowIdsMax` in the window, `from` rises to just above the newest one forgotten. Without creation
 * times the mark keeps the ids nearest the top: those met at the top, then the mark's own, then
 * `below`, so a walk from the top stops where the last one started.
 */
export function advanceMark(
	met: ReadonlyArray<{ video_id: string; created_at?: unknown }>,
	previous: Mark,
	below: ReadonlyArray<{ video_id: string; created_at?: unknown }> = [],
): Mark {
	const seen = (task: { video_id: string; created_at?: unknown }): Seen => [
		task.video_id,
		createdAt(task),
	];
	const entries = firstOfEachId([...met.map(seen), ...previous.seen, ...below.map(seen)]);
	const untimed = entries.filter(([, at]) => at === null).slice(0, LIMITS.markIds);
	const times = entries.flatMap(([, at]) => (at === null ? [] : [at]));
	if (previous.at !== null) times.push(previous.at);
	if (times.length === 0) return { at: null, from: null, seen: untimed };
	const at = Math.max(...times);
	let from = Math.max(at - LIMITS.overlapSeconds, previous.from ?? -Infinity);
	let timed = entries.filter(([, t]) => t !== null && t >= from);
	if (timed.length > LIMITS.windowIdsMax) {
		const cut = timed.map(([, t]) => t as number).sort((a, b) => b - a)[LIMITS.windowIdsMax];
		from = cut + 1;
		timed = timed.filter(([, t]) => (t as number) >= from);
	}
	return { at, from, seen: [...timed, ...untimed] };
}

/** The mark raised so that everything below the lowest task met counts as looked at: a walk cut short. */
export function raiseTo(mark: Mark, met: ReadonlyArray<{ created_at?: unknown }>): Mark {
	const times = met.flatMap((task) => createdAt(task) ?? []);
	if (mark.from === null || times.length === 0) return mark;
	const from = Math.max(mark.from, Math.min(...times) + 1);
	return { ...mark, from, seen: mark.seen.filter(([, at]) => at === null || at >= from) };
}

/** The newest `max` entries of an insertion-ordered list. */
export function keepLast<T>(list: readonly T[], max: number): T[] {
	return list.length > max ? list.slice(list.length - max) : [...list];
}
