import { connectionError } from './answers';
import { abortedError } from './clock';
import { VisionStoryError } from './errors';
import { NetworkError } from './http';

/**
 * Which failed attempt is sent again, and what a call's final error says of its attempts: a charged
 * call that may have reached the service is never sent again; the final error says whether an
 * attempt may have reached the service or succeeded, and carries a create's key.
 */

export function isRetryableStatus(status: number): boolean {
	return status === 409 || status === 429 || status >= 500;
}

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
	if (!isRetryableStatus(error.status) || error.isConcurrencyLimit) throw error;
	// A charged call answered 409 or 5xx may have been processed; only a rate limit says it was not.
	if (!replayable && error.status !== 429) throw error;
	return error;
}

/**
 * Whether a failed attempt may have reached the service and been processed: a connection lost after
 * the request left, a 5xx or 409 (processed or not, the answer does not say), a 2xx that could not be
 * read. A 429 or another 4xx refused it.
 */
export function mayHaveReached(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	if (!(error instanceof VisionStoryError)) return false;
	if (error.category === 'response') return true;
	return (
		error.category === 'api' &&
		error.status !== undefined &&
		(error.status >= 500 || error.status === 409)
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

/** A refusal: a 4xx that is not a timeout, a registration still under way (409) or a rate limit. */
function isRefusal(error: VisionStoryError): boolean {
	const status = error.status ?? 0;
	return (
		error.category === 'api' && status >= 400 && status < 500 && ![408, 409, 429].includes(status)
	);
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
