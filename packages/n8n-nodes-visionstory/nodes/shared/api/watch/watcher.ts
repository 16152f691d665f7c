/**
 * The watcher: one poll for finished video tasks, host-neutral. A host (the n8n trigger, the Node-RED
 * watch node) passes its stored state in, announces the items it gets back its own way, logs the
 * notices its way and stores the state it gets back. Everything the guarantee "every finished video
 * exactly once" needs (the cursor, each kind's list and its fallbacks, the overlap window, the
 * bounds, download retries) is here; docs/architecture.md shows the two adapters.
 */
import type { TaskKind } from '../tasks';
import type { WatchState } from './cursor';
import { readWatchState } from './cursor';
import type { Announcer } from './handOver';
import { handOver } from './handOver';
import type { KindReport } from './round';
import { pollRound } from './round';
import type { TaskSource } from './sources';

export interface WatchSettings {
	kinds: readonly TaskKind[];
	/** Statuses announced: created, failed. */
	statuses: ReadonlySet<string>;
	/** Date.now() after which no more pages are read in this poll. */
	deadline: number;
	/** Date.now() after which no download starts but the poll's first (default: `deadline`). */
	downloadsUntil?: number;
}

export interface Watched<Item> {
	items: Item[];
	/** Plain JSON, to be stored by the host once the items are on their way. */
	state: WatchState;
	reports: KindReport[];
}

/**
 * One poll from `stored` (whatever the host kept; anything unreadable starts watching anew). Throws
 * only when every kind's poll failed: the host then keeps its stored state, and the next poll sees
 * the same backlog again.
 */
export async function watchOnce<Item>(
	sources: Record<TaskKind, TaskSource>,
	stored: unknown,
	settings: WatchSettings,
	announcer: Announcer<Item>,
): Promise<Watched<Item>> {
	const round = await pollRound(
		sources,
		readWatchState(stored),
		settings.kinds,
		settings.statuses,
		settings.deadline,
	);
	const { items, state } = await handOver(
		round,
		announcer,
		settings.downloadsUntil ?? settings.deadline,
	);
	return { items, state, reports: round.reports };
}
