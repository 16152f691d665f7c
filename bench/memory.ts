/** Where resident memory sat at its peak, as growth over the start, MiB: V8's heap, and Buffers and other memory outside it. */
export interface MemoryAtPeak {
	heapMiB: number;
	/** Buffers and ArrayBuffers (the bytes of a download in flight, or not yet collected). */
	arrayBuffersMiB: number;
	/** The rest of the resident growth: native allocations, code, the allocator's own slack. */
	otherMiB: number;
}

/** Peak growth of this process's resident memory while `work` runs, sampled every 10 ms, and what it was made of then. */
export async function peakRssGrowth<T>(
	work: () => Promise<T>,
): Promise<{ result: T; peakMiB: number; atPeak: MemoryAtPeak }> {
	global.gc?.();
	const before = process.memoryUsage();
	let peak = before;
	const sample = () => {
		const now = process.memoryUsage();
		if (now.rss > peak.rss) peak = now;
	};
	const timer = setInterval(sample, 10);
	const mib = (bytes: number) => bytes / 1024 / 1024;
	try {
		const result = await work();
		sample();
		const heapMiB = mib(peak.heapTotal - before.heapTotal);
		const arrayBuffersMiB = mib(peak.arrayBuffers - before.arrayBuffers);
		const peakMiB = mib(peak.rss - before.rss);
		return {
			result,
			peakMiB,
			atPeak: { heapMiB, arrayBuffersMiB, otherMiB: peakMiB - heapMiB - arrayBuffersMiB },
		};
	} finally {
		clearInterval(timer);
	}
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
	const started = performance.now();
	const result = await work();
	return { result, seconds: (performance.now() - started) / 1000 };
}
