/** Bench progress on the console, so a run of many minutes never sits silent. */
export function log(text: string): void {
	console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);
}

/** Prints `label` with the time spent every `everyMs` until the work ends. */
export async function withTicker<T>(
	label: string,
	work: () => Promise<T>,
	everyMs = 30_000,
): Promise<T> {
	const started = Date.now();
	const timer = setInterval(
		() => log(`… ${label}: ${Math.round((Date.now() - started) / 1000)} s so far`),
		everyMs,
	);
	try {
		return await work();
	} finally {
		clearInterval(timer);
	}
}
