/**
 * Keyset pagination over lists kept newest first. Every item carries a position marker (`seq`) that
 * only ever grows as items are created, and the cursor is the marker of the last item returned, so
 * items created between two page requests never shift or repeat what the next page shows.
 */
export interface Page<T> {
	items: T[];
	next_cursor: number;
}

export function paginate<T>(
	newestFirst: T[],
	seqOf: (item: T) => number,
	cursor: number,
	limit: number,
): Page<T> {
	const after = cursor > 0 ? newestFirst.filter((item) => seqOf(item) < cursor) : newestFirst;
	const items = after.slice(0, limit);
	const more = after.length > items.length;
	return { items, next_cursor: more && items.length > 0 ? seqOf(items[items.length - 1]) : 0 };
}

/** Sorts by marker, newest first; the stores keep insertion order, which deletes and re-uploads can disturb. */
export function newestFirst<T>(items: Iterable<T>, seqOf: (item: T) => number): T[] {
	return [...items].sort((a, b) => seqOf(b) - seqOf(a));
}
