import { VisionStoryError } from '../errors';
import type { TaskKind, VideoTask } from '../tasks';
import type { KindCursor, ListState, WatchState } from './cursor';
import { createdAt, LIMITS } from './cursor';
import type { Held, KindPoll, Missed, Started } from './poller';
import { Allowance, pollKind, settleKind, startKind } from './poller';
import type { TaskSource } from './sources';
import { settled } from './sources';

/** How one kind fared in a poll: what its list gave, and the error that stopped it this time, if any. */
export interface KindReport {
	kind: TaskKind;
	list: ListState;
	/** Why the list cannot be used, when it cannot. */
	reason?: string;
	/** Tasks watched by id after this poll. */
	watched: number;
	failure?: VisionStoryError;
	/** A list that ignores its cursor did not show everything new: tasks may have been missed. */
	missed?: Missed;
}

export interface Round {
	/** Ready tasks of every kind, oldest first, so a workflow sees tasks in the order they were made. */
	ready: Array<{ kind: TaskKind; task: VideoTask }>;
	reports: KindReport[];
	/** Polls in a row a ready task's file failed to download before this one (0: none). */
	failedDownloads(kind: TaskKind, id: string): number;
	/** The state to store once `emitted` were handed over and `held` kept back for the next poll. */
	next(
		emitted: ReadonlyMap<TaskKind, readonly string[]>,
		held: ReadonlyMap<TaskKind, readonly Held[]>,
	): WatchState;
}

/**
 * One poll of every chosen kind, each on its own and at the same time: a kind whose requests fail (or
 * hang until the host cuts them) keeps its stored cursor (its tasks come with a later poll) and holds
 * back neither the others nor their time. Only when every kind failed does the poll fail, with the
 * first error.
 */
export async function pollRound(
	sources: Record<TaskKind, TaskSource>,
	stored: WatchState,
	kinds: readonly TaskKind[],
	statuses: ReadonlySet<string>,
	deadline: number,
): Promise<Round> {
	const polls: KindPoll[] = [];
	const started = new Map<TaskKind, KindCursor>();
	const reports: KindReport[] = [];
	const failures: VisionStoryError[] = [];
	const outcomes = await Promise.all(
		kinds.map(async (kind) => {
			const allowance = new Allowance(LIMITS.pagesPerPoll, deadline);
			const cursor = stored[kind];
			return await settled<KindPoll | Started>(
				cursor
					? pollKind(sources[kind], cursor, statuses, allowance)
					: startKind(sources[kind], allowance),
			);
		}),
	);
	for (const [i, kind] of kinds.entries()) {
		const outcome = outcomes[i];
		const cursor = stored[kind];
		if ('error' in outcome) {
			// Anything but the service's or the network's failure is a bug: it stops the poll.
			if (!(outcome.error instanceof VisionStoryError)) throw outcome.error;
			failures.push(outcome.error);
			reports.push({ kind, list: cursor?.list ?? 'full', watched: 0, failure: outcome.error });
		} else if ('kind' in outcome.value) {
			const poll = outcome.value;
			polls.push(poll);
			reports.push({
				kind,
				list: poll.list,
				reason: poll.reason,
				watched: poll.pending.length,
				...(poll.missed ? { missed: poll.missed } : {}),
			});
		} else {
			const start = outcome.value;
			started.set(kind, start.cursor);
			reports.push({
				kind,
				list: start.cursor.list,
				reason: start.reason,
				watched: start.cursor.pending.length,
			});
		}
	}
	if (failures.length === kinds.length) throw failures[0];

	const ready = polls
		.flatMap((poll) => poll.ready.map((task) => ({ kind: poll.kind, task })))
		.sort((a, b) => (createdAt(a.task) ?? 0) - (createdAt(b.task) ?? 0));
	return {
		ready,
		reports,
		failedDownloads: (kind, id) => polls.find((p) => p.kind === kind)?.failedDownloads.get(id) ?? 0,
		next: (emitted, held) => {
			const next: WatchState = { version: 2 };
			for (const kind of kinds) {
				const poll = polls.find((p) => p.kind === kind);
				if (poll) next[kind] = settleKind(poll, emitted.get(kind) ?? [], held.get(kind) ?? []);
				else next[kind] = started.get(kind) ?? stored[kind];
			}
			return next;
		},
	};
}
