import { z } from 'zod/v3';

import type { TaskKind, VideoTask } from '../shared/api/tasks';

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
	/** Ids kept at the head mark, so one deleted task does not hide where the seen part starts. */
	markIds: 20,
	/** Tasks sharing the newest second are all kept at the mark, up to this many. */
	markIdsMax: 200,
	gapsMax: 20,
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
	/** Polls a pending task may be missing from status answers (still registering, or deleted) before it is dropped. */
	maxMisses: 5,
	emitPerPoll: 200,
	/** Part of n8n's poll budget spent on fetching; the rest is margin for retries and the hand-over. */
	budgetShare: 0.5,
};

/**
 * A position in a newest-first list: everything below it has been looked at. The newest ids at the
 * position (and every id created in the same second as the newest) say where to stop; `at` (Unix
 * seconds of the newest) lets the walk stop even when all of those were deleted since.
 */
const Mark = z.object({ ids: z.array(z.string()), at: z.number().nullable() });
export type Mark = z.infer<typeof Mark>;

/** A stretch of the list not walked yet: from `cursor` down to `stop`. */
const Gap = z.object({ cursor: z.number(), stop: Mark });
export type Gap = z.infer<typeof Gap>;

/** A task known but not emitted: still rendering, or finished and held back by the poll's allowance. */
const Pending = z.object({
	id: z.string(),
	at: z.number().nullable(),
	misses: z.number().int().min(0).default(0),
});
export type Pending = z.infer<typeof Pending>;

const KindCursor = z.object({
	head: Mark,
	gaps: z.array(Gap),
	pending: z.array(Pending),
	/** Recently emitted ids, oldest first: a second sighting (a re-walked stretch) is never emitted again. */
	emitted: z.array(z.string()),
});
export type KindCursor = z.infer<typeof KindCursor>;

export const TriggerCursor = z.object({
	version: z.literal(1),
	talkingVideo: KindCursor.optional(),
	aiVideo: KindCursor.optional(),
});
export type TriggerCursor = z.infer<typeof TriggerCursor>;

/** Static data from an older or damaged version counts as none: the trigger starts over from now. */
export function readCursor(value: unknown): TriggerCursor {
	const parsed = TriggerCursor.safeParse(value);
	return parsed.success ? parsed.data : { version: 1 };
}

export function createdAt(task: VideoTask): number | null {
	// The contract gives AI videos created_at 0 when unknown: no better than nothing.
	return typeof task.created_at === 'number' && task.created_at > 0 ? task.created_at : null;
}

/** Whether a walk going down the list has reached a task at or below the mark. */
export function reaches(mark: Mark, task: VideoTask): boolean {
	if (mark.ids.includes(task.video_id)) return true;
	const at = createdAt(task);
	return mark.at !== null && at !== null && at < mark.at;
}

/** The mark above `found` (the tasks a walk from the top of the list met, newest first). */
export function advanceMark(found: readonly VideoTask[], previous: Mark): Mark {
	if (found.length === 0) return previous;
	const at = createdAt(found[0]);
	const ids: string[] = [];
	const add = (id: string, sameSecond: boolean) => {
		if (ids.includes(id)) return;
		if (ids.length < LIMITS.markIds || (sameSecond && ids.length < LIMITS.markIdsMax)) ids.push(id);
	};
	for (const task of found) add(task.video_id, at !== null && createdAt(task) === at);
	for (const id of previous.ids) add(id, at !== null && previous.at === at);
	return { ids, at };
}

/** The newest `max` entries of an insertion-ordered list. */
export function keepLast<T>(list: readonly T[], max: number): T[] {
	return list.length > max ? list.slice(list.length - max) : [...list];
}
