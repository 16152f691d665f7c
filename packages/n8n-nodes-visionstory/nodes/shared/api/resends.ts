import { connectionError } from './answers';
import { abortedError } from './clock';
import { VisionStoryError } from './errors';
import { NetworkError } from './http';
import { isRefusalStatus, isTransientStatus, mayHaveProcessedStatus } from './statusCodes';

/**
 * Which failed attempt is sent again, and what a call's final error says of its attempts: a charged
 * call that may have reached the service is never sent again; the final error says whether an
 * attempt may have reached the service or succeeded, and carries a create's key.
 */

/** The error to retry with, when the failed attempt may be tried again; otherwise the error is thrown. */
export function retryableFailure(
	name: string,
	error: unknown,
	replayable: boolean,
	signal: AbortSignal | undefined,
	secrets: string[],
): VisionStoryError {
	if (error instanceof NetworkError) {
		if (error.aborted || signal?.aborted) throw abortedError();
		const failure = connectionError(name, error, replayable, secrets);
		if (!replayable && error.mayHaveReachedService) throw failure;
		return failure;
	}
	if (
		!(error instanceof VisionStoryError) ||
		error.category !== 'api' ||
		error.status === undefined
	)
		throw error;
	if (!isTransientStatus(error.status) || error.isConcurrencyLimit) throw error;
	// A charged call answered so may have been processed; a resend could charge again.
	if (!replayable && mayHaveProcessedStatus(error.status)) throw error;
	return error;
}

/**
 * Whether a failed attempt may have reached the service and been processed: a connection lost after
 * the request left, a status that may come after the work was done (`statusCodes.ts`: 5xx, 408, 409),
 * a 2xx that could not be read. A 429 or another 4xx refused it.
 */
export function mayHaveReached(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	if (!(error instanceof VisionStoryError)) return false;
	if (error.category === 'response') return true;
	return (
		error.category === 'api' && error.status !== undefined && mayHaveProcessedStatus(error.status)
	);
}

/**
 * Whether a failed attempt may have been a success the service charged: its answer was lost after
 * the request left, or was a 2xx that could not be read. An error answer (5xx, 409) is not a success.
 */
export function mayHaveSucceeded(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	return error instanceof VisionStoryError && error.category === 'response';
}

/** A refusal: the service did nothing with the request (`statusCodes.ts`). */
function isRefusal(error: VisionStoryError): boolean {
	return error.category === 'api' && isRefusalStatus(error.status ?? 0);
}

/**
 * The final error of a call, saying whether an attempt may have reached the service (or succeeded),
 * and the create's key. A keyed create the service refused outright made nothing under that key,
 * whatever an earlier attempt met (a reset, an empty 503): the service's words stay first, and the
 * key's note comes after them.
 */
export function marked(
	error: unknown,
	attempts: { reached: boolean; succeeded: boolean },
	idempotencyKey?: string,
): unknown {
	const { reached, succeeded } = attempts;
	if (!(error instanceof VisionStoryError) || (!reached && !idempotencyKey)) return error;
	if (idempotencyKey && isRefusal(error)) {
		const note = reached
			? `Idempotency key ${idempotencyKey}: an earlier attempt under it got no answer, and this refusal shows VisionStory made nothing under it, so nothing was charged for it. Run the item again with the same key (within 24 hours) once this is fixed: VisionStory makes the video then, charged once.`
			: undefined;
		return error.with({
			idempotencyKey,
			...(note ? { hint: error.hint ? `${error.hint.replace(/\.?$/, '.')} ${note}` : note } : {}),
		});
	}
	return error.with({
		...(reached ? { mayHaveReachedService: true } : {}),
		...(succeeded ? { mayHaveSucceeded: true } : {}),
		...(idempotencyKey ? { idempotencyKey } : {}),
	});
}
