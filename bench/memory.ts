/** Peak growth of this process's resident memory while `work` runs, sampled every 10 ms. */
export async function peakRssGrowth<T>(
	work: () => Promise<T>,
): Promise<{ result: T; peakMiB: number }> {
	global.gc?.();
	const before = process.memoryUsage().rss;
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
	try {
		const result = await work();
		peak = Math.max(peak, process.memoryUsage().rss);
		return { result, peakMiB: (peak - before) / 1024 / 1024 };
	} finally {
		clearInterval(timer);
	}
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
	const started = performance.now();
	const result = await work();
	return { result, seconds: (performance.now() - started) / 1000 };
}
