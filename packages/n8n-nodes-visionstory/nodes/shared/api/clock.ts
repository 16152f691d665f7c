import { VisionStoryError } from './errors';

/**
 * Waiting, supplied by the host: n8n's `sleep` in the nodes (node code may not touch timers), a timer
 * in scripts and tests. The API layer never waits any other way.
 */
export type Sleep = (ms: number) => Promise<void>;

export function abortedError(): VisionStoryError {
	return new VisionStoryError({ category: 'aborted', message: 'The execution was canceled' });
}

/** Waits `ms`, ended early (with the aborted error) when the signal fires. */
export async function delay(sleep: Sleep, ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw abortedError();
	if (!signal) return await sleep(ms);
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(abortedError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}
