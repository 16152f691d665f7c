import type { AiVideoDto } from './contract';
import { defaultHint, isAborted, VisionStoryError } from './errors';
import { isRefusalStatus } from './statusCodes';
import type { TaskKind, VideoTask } from './tasks';

/** The errors a video task's item can end with, in words a user can act on. */

/** A failure that concerns one item; a cancellation, or a bug, ends the whole wait instead. */
export function asError(error: unknown): VisionStoryError {
	if (error instanceof VisionStoryError && !isAborted(error)) return error;
	throw error;
}

/** The service refused the request itself (`statusCodes.ts`): asked again, it answers the same. */
export function isClientError(error: VisionStoryError): boolean {
	return error.category === 'api' && isRefusalStatus(error.status ?? 0);
}

/** A rate limit (429) that is not the AI-video concurrency cap: nothing was created, so the item may be sent again. */
export function isRateLimit(error: VisionStoryError): boolean {
	return error.status === 429 && !error.isConcurrencyLimit;
}

export function taskFailedError(kind: TaskKind, task: VideoTask): VisionStoryError {
	const failure = (task as AiVideoDto).error ?? undefined;
	const what = kind === 'aiVideo' ? 'AI video' : 'Talking video';
	const code = failure?.code ?? undefined;
	const reason = failure?.message
		? `: ${failure.message}${code !== undefined ? ` (code ${code})` : ''}`
		: '';
	return new VisionStoryError({
		category: 'taskFailed',
		message: `${what} ${task.video_id} failed${reason}`,
		hint: 'VisionStory refunded its credits automatically. Adjust the input (prompt, media, script) and run again.',
		code,
		videoIds: [task.video_id],
	});
}

/** "1 minute", "2.5 minutes". */
function minutesText(ms: number): string {
	const minutes = Math.round((ms / 60000) * 10) / 10;
	return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function notFoundError(id: string): VisionStoryError {
	return new VisionStoryError({
		category: 'api',
		status: 404,
		message: `Video ${id} was not found`,
		hint: defaultHint(404),
		videoIds: [id],
	});
}

export function timeoutError(kind: TaskKind, ids: string[], timeoutMs: number): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	return new VisionStoryError({
		category: 'timeout',
		message: `The ${what} ${ids.join(', ')} was still rendering after ${minutesText(timeoutMs)}`,
		hint: 'Nothing is lost: the video keeps rendering. Retry the execution in n8n (it picks up the same video, charged once), fetch it later with Get and this id, or raise Timeout (Minutes).',
		videoIds: ids,
	});
}

export function slotTimeoutError(
	timeoutMs: number,
	concurrency?: { limit?: number },
): VisionStoryError {
	return new VisionStoryError({
		category: 'timeout',
		status: 429,
		message: `No AI video slot became free within ${minutesText(timeoutMs)}${concurrency?.limit ? ` (your key renders at most ${concurrency.limit} at once)` : ''}`,
		hint: 'Nothing was created or charged for this item. Run it again later, or raise the time limit.',
		concurrency,
	});
}

export function refusedError(concurrency?: {
	limit?: number;
	inFlight?: number;
}): VisionStoryError {
	const { limit, inFlight } = concurrency ?? {};
	const usage =
		limit !== undefined && inFlight !== undefined
			? ` (${inFlight} of ${limit} in progress)`
			: limit !== undefined
				? ` (at most ${limit} at once)`
				: inFlight !== undefined
					? ` (${inFlight} in progress)`
					: '';
	return new VisionStoryError({
		category: 'api',
		status: 429,
		code: 429,
		message: `Not submitted: your VisionStory key is already rendering as many AI videos as it may${usage}`,
		hint: 'Nothing was created or charged for this item. Run it again once a render finishes, turn on Wait for Completion to queue it until a slot frees, or set At Concurrency Limit to Hold Until a Slot Frees.',
		concurrency,
	});
}

export function rateLimitedError(timeoutMs: number, cause: VisionStoryError): VisionStoryError {
	return new VisionStoryError({
		category: 'timeout',
		status: 429,
		message: `VisionStory kept answering that the key sends too many requests; not submitted within ${minutesText(timeoutMs)}: ${cause.message}`,
		hint:
			cause.hint ??
			"Nothing was created or charged for this item. Lower Requests per Second in the node's Options, or run it again later.",
	});
}

/**
 * An item whose create may have reached VisionStory (the connection dropped after the request left, a
 * 5xx) and whose answer never came: the video may exist and be charged. Says so, with the key that
 * gets it back.
 */
export function maybeCreatedError(
	kind: TaskKind,
	idempotencyKey: string | undefined,
	cause: VisionStoryError,
): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	const key = idempotencyKey ? ` (idempotency key ${idempotencyKey})` : '';
	const again = idempotencyKey
		? `Set Options → Idempotency Key to ${idempotencyKey} and run this item again within 24 hours: VisionStory returns that video, if it made it, without charging again.`
		: 'Look for it with Get Many before running this item again.';
	return cause.with({
		message: `VisionStory may have made this ${what}${key}: an attempt reached it, but no answer with the video's ID came back. Last error: ${cause.message}`,
		hint: `${again} It may also show in Get Many and the VisionStory Trigger.`,
		mayHaveReachedService: true,
		idempotencyKey,
	});
}
