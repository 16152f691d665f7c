/** Runs `work` over `items` with at most `limit` promises in flight; results keep the items' order. */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	limit: number,
	work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await work(items[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

/**
 * At most `limit` holders at once: `take` waits for a slot, `give` hands it back. Callers keep their
 * own loop (`Promise.all` over their items), so no code of theirs is called from here.
 */
export class Slots {
	private free: number;
	private readonly waiting: Array<() => void> = [];

	constructor(limit: number) {
		this.free = Math.max(1, limit);
	}

	async take(): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	give(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
	}
}
