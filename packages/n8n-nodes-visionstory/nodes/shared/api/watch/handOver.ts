import { VisionStoryError } from '../errors';
import { isRefusalStatus } from '../statusCodes';
import type { TaskKind, VideoTask } from '../tasks';
import type { WatchState } from './cursor';
import { LIMITS } from './cursor';
import type { Held } from './poller';
import type { Round } from './round';

/** How a host turns a finished task into what it announces (an n8n item, a Node-RED message). */
export interface Announcer<Item> {
	/** The announcement of `task`; rejects with a VisionStoryError when its file could not be fetched. */
	announce(kind: TaskKind, task: VideoTask): Promise<Item>;
	/** The announcement of `task` without its file, saying why (`downloadError`). */
	withoutFile(kind: TaskKind, task: VideoTask, error: VisionStoryError): Item;
	/** Whether announcing `task` downloads its file: past the deadline such a task waits for the next poll. */
	downloads(task: VideoTask): boolean;
}

export interface HandedOver<Item> {
	items: Item[];
	/** The state to store: what was handed over is remembered, what was held back is watched. */
	state: WatchState;
}

/** A download that can never succeed (expired, forbidden): retrying it in later polls would not help. */
export function isPermanent(error: VisionStoryError): boolean {
	return error.category === 'api' && isRefusalStatus(error.status ?? 0);
}

/**
 * Hands a round's ready tasks over, oldest first, up to `LIMITS.emitPerPoll` (the rest wait for the
 * next poll). No download starts after `downloadsUntil`, but for the poll's first, so every poll
 * makes headway; the tasks left wait for the next poll. A file that fails to download holds only its
 * own task back, for the next poll; after `LIMITS.downloadTries` polls (at once when the failure is
 * permanent) the task is announced without its file, so one broken file never stops the others.
 */
export async function handOver<Item>(
	round: Round,
	announcer: Announcer<Item>,
	downloadsUntil: number,
): Promise<HandedOver<Item>> {
	const items: Item[] = [];
	const emitted = new Map<TaskKind, string[]>();
	const held = new Map<TaskKind, Held[]>();
	const add = <T>(map: Map<TaskKind, T[]>, kind: TaskKind, value: T) =>
		map.set(kind, [...(map.get(kind) ?? []), value]);
	let downloadsStarted = 0;
	for (const { kind, task } of round.ready) {
		const downloads = announcer.downloads(task);
		const late = downloads && downloadsStarted > 0 && Date.now() >= downloadsUntil;
		if (items.length >= LIMITS.emitPerPoll || late) {
			add(held, kind, {
				task,
				failedDownloads: round.failedDownloads(kind, task.video_id) || undefined,
			});
			continue;
		}
		if (downloads) downloadsStarted++;
		const outcome = await announcer.announce(kind, task).then(
			(item) => ({ item }),
			(error: unknown) => ({ error }),
		);
		if ('error' in outcome) {
			// Anything but the service's or the network's failure is a bug: it stops the poll.
			if (!(outcome.error instanceof VisionStoryError)) throw outcome.error;
			const failed = round.failedDownloads(kind, task.video_id) + 1;
			if (!isPermanent(outcome.error) && failed < LIMITS.downloadTries) {
				add(held, kind, { task, failedDownloads: failed });
				continue;
			}
			items.push(announcer.withoutFile(kind, task, outcome.error));
		} else items.push(outcome.item);
		add(emitted, kind, task.video_id);
	}
	return { items, state: round.next(emitted, held) };
}
