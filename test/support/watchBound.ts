// The bound on the watcher's stored state that the README's trigger and watch sections state, from
// LIMITS as they are when asked (tests shrink them). The property tests hold every stored state to it.
import { LIMITS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';

/** Longest video id the byte figure allows for (VisionStory's ids are shorter). */
export const ID_CHARS = 40;

export interface StateBound {
	/** Tasks watched by id, per kind. */
	pending: number;
	/** Ids of a mark (the head, or a gap's stop). */
	markIds: number;
	/** Ids remembered as emitted, per kind. */
	emitted: number;
	/** JSON of the whole state, both kinds. */
	bytes: number;
}

export function stateBound(idChars = ID_CHARS): StateBound {
	// A walk stops taking once the room is used, but reads its last page whole.
	const pending = LIMITS.pendingMax + Math.max(LIMITS.pageSize, LIMITS.firstPageSize);
	const markIds = LIMITS.windowIdsMax + LIMITS.markIds;
	// Bytes of one entry as JSON at most: {"id":"…","at":1700000000,"misses":40,"missedAt":1700000000000,"linkless":3,"failedDownloads":2},
	const pendingBytes = idChars + 110;
	// ["…",1700000000],
	const seenBytes = idChars + 17;
	// {"cursor":…,"stop":{"at":…,"from":…,"seen":[…]}},
	const markBytes = 80 + markIds * seenBytes;
	const kind =
		200 +
		pending * pendingBytes +
		(1 + LIMITS.gapsMax) * markBytes +
		LIMITS.emittedMax * (idChars + 3);
	return { pending, markIds, emitted: LIMITS.emittedMax, bytes: 20 + 2 * kind };
}
