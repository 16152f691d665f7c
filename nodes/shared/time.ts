import { sleep } from 'n8n-workflow';

import { VisionStoryError } from './errors';

export function abortedError(): VisionStoryError {
	return new VisionStoryError({ kind: 'aborted', message: 'The execution was canceled' });
}

/** n8n-workflow's sleep, ended early by an abort (sleepWithAbort is missing from n8n-workflow 2.x). */
export async function delay(ms: number, signal?: AbortSignal): Promise<void> {
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
