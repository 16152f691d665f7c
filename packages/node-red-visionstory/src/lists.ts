import type { Context } from './context';

interface Page {
	next_cursor?: number | null;
	[key: string]: unknown;
}

/**
 * Get Many: pages (cursor) until Limit or the end, reading entries from one or more page fields
 * (voices come as my_voices and public_voices).
 */
export async function collect(
	context: Context,
	fetch: (cursor: number | undefined, limit: number) => Promise<Page>,
	fields: readonly string[],
	pageMax = 100,
): Promise<unknown[]> {
	const all = context.boolean('returnAll');
	const limit = all ? Infinity : Math.floor(context.number('limit') ?? 50);
	const entries: unknown[] = [];
	const seen = new Set<number>();
	let cursor: number | undefined;
	for (;;) {
		const page = await fetch(cursor, Math.min(pageMax, Math.max(1, limit - entries.length)));
		let got = 0;
		for (const field of fields) {
			const list = Array.isArray(page[field]) ? (page[field] as unknown[]) : [];
			got += list.length;
			entries.push(...list);
		}
		const next = page.next_cursor;
		// 0 (or none) means no more pages; a service that ignores the cursor would loop forever, so a repeated cursor ends it too.
		if (
			got === 0 ||
			typeof next !== 'number' ||
			next <= 0 ||
			seen.has(next) ||
			entries.length >= limit
		)
			break;
		seen.add(next);
		cursor = next;
	}
	return entries.slice(0, limit === Infinity ? undefined : limit);
}

/** A status filter typed as comma-separated text, or given as an array. */
export function statusFilter(context: Context): string[] | undefined {
	const statuses = context.ids('status');
	return statuses.length ? statuses : undefined;
}
