import type { AiVideoDto } from './contract';
import { defaultHint, isAborted, VisionStoryError } from './errors';
import type { Attempt, Intent } from './intents';
import { isRefusalStatus } from './statusCodes';
import type { TaskKind, VideoTask } from './tasks';
import { KIND_WORDS } from './tasks';

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

/** How a re-run gets a video its key made: within the service's 24 hours, without a new charge. */
function keyReturnsIt(key: string | undefined, what = 'this video'): string {
	return key
		? ` Set Options → Idempotency Key to ${key} and run this item again within 24 hours: VisionStory returns ${what} without charging again.`
		: '';
}

/** "(idempotency key k)", or nothing without a key. */
function keyNoted(key: string | undefined): string {
	return key ? ` (idempotency key ${key})` : '';
}

/**
 * A wait that reached the item's Timeout on a video VisionStory confirmed creating: it was made and may
 * be charged, it keeps rendering, and its key returns it. One no read has shown is not visible yet,
 * never gone; reads failing or missing it at the end are named: they proved nothing.
 */
export function timeoutError(
	kind: TaskKind,
	attempt: Pick<Attempt, 'videoId' | 'key' | 'readErrors' | 'absences' | 'firstSeen'>,
	timeoutMs: number,
): VisionStoryError {
	const id = attempt.videoId!;
	const key = attempt.key || undefined;
	const lastError = attempt.readErrors[attempt.readErrors.length - 1];
	const missed = attempt.absences.length;
	const unread = lastError
		? `; the last status reads failed (${lastError.message})`
		: missed && attempt.firstSeen
			? `; the last ${missed === 1 ? 'status read' : `${missed} status reads`} did not find it`
			: '';
	const what = KIND_WORDS[kind];
	return new VisionStoryError({
		category: 'timeout',
		message: attempt.firstSeen
			? `The ${what} ${id}${keyNoted(key)} was still rendering after ${minutesText(timeoutMs)}${unread}`
			: `VisionStory confirmed creating ${what} ${id}${keyNoted(key)}, but no status read showed it within ${minutesText(timeoutMs)}${unread}`,
		hint: attempt.firstSeen
			? `It was made and may be charged; nothing is lost: it keeps rendering. Fetch it later with Get and this ID, or raise Timeout (Minutes).${keyReturnsIt(key)}`
			: `It was made and may be charged; no other was created for this item. Check it later with Get and this ID.${keyReturnsIt(key)}`,
		videoIds: [id],
		...(key ? { idempotencyKey: key } : {}),
	});
}

/**
 * A video made earlier under the item's key (its key was answered again) that reads have not found
 * since, over several poll intervals: deleted or expired. Nothing new was made for it.
 */
export function goneError(kind: TaskKind, id: string, key: string): VisionStoryError {
	return new VisionStoryError({
		category: 'taskFailed',
		status: 404,
		message: `VisionStory answered with ${KIND_WORDS[kind]} ${id}, made earlier for the same request (idempotency key ${key}), but no status read has found it since: it was deleted or has expired`,
		hint: 'It was charged when it was made; nothing more was charged. Run the item again to make a new one.',
		videoIds: [id],
		idempotencyKey: key,
	});
}

/** The service answered a create several times with a video that will never come (failed, or gone). */
export function deadTaskError(
	kind: TaskKind,
	id: string,
	state: VideoTask | 'gone',
	key: string,
	newAttempts: number,
): VisionStoryError {
	const how = state === 'gone' ? 'was deleted' : 'had failed';
	// A deleted video was made, and charged, when it was made; only a failed render is refunded.
	const paid =
		state === 'gone'
			? 'Each deleted video was charged when it was made; nothing more was charged for answering with it.'
			: 'Nothing was charged for a failed render (VisionStory refunds it).';
	return new VisionStoryError({
		category: 'taskFailed',
		message: `VisionStory answered this create ${newAttempts + 1} times with a ${KIND_WORDS[kind]} that ${how} (last ${id}); no new attempt was made`,
		hint: `${paid} Change the input (script, prompt, media) or set another Idempotency Key, then run again.`,
		videoIds: [id],
		idempotencyKey: key,
	});
}

/** A video whose key was used before, and whose state could not be read: it may be a failed or deleted one. */
export function madeEarlierError(
	kind: TaskKind,
	id: string,
	key: string,
	cause: VisionStoryError,
): VisionStoryError {
	return cause.with({
		message: `VisionStory answered with ${KIND_WORDS[kind]} ${id}, made earlier for the same request (idempotency key ${key}), but its state could not be read to tell whether it failed or was deleted: ${cause.message}`,
		hint: `Check it with Get and this ID before using it; run the item again to make a new one if it failed or is gone.`,
		videoIds: [id],
		idempotencyKey: key,
	});
}

/**
 * A create's failure as the intent knows it: one that may have reached the service names the key
 * that returns what it made (a 200 without an id included); one of a new attempt names the video
 * the earlier attempt was answered with.
 */
export function notedIn(intent: Intent, n: number, error: VisionStoryError): VisionStoryError {
	let noted = error;
	if (error.mayHaveReachedService && error.idempotencyKey === undefined)
		noted = noted.with({ idempotencyKey: intent.attempt(n).key });
	const earlier = n > 0 ? intent.attempt(n - 1) : undefined;
	if (earlier?.videoId && !noted.videoIds?.length)
		noted = noted.with({
			videoIds: [earlier.videoId],
			idempotencyKey: noted.idempotencyKey ?? earlier.key,
		});
	return noted;
}

/**
 * A cancel (the execution stopped, the Node-RED flow closed) while videos render: every video made
 * is named with its key, so none is lost, and so is the key of every create that may have made one
 * whose answer never came (a resend after its answer was lost, cut short by the cancel); it keeps
 * the category that ends the run.
 */
export function abortedWhileRendering(
	kind: TaskKind,
	cause: VisionStoryError,
	made: Array<{ id: string; key?: string }>,
	maybe: Array<string | undefined> = [],
): VisionStoryError {
	if (!made.length && !maybe.length) return cause;
	const what = KIND_WORDS[kind];
	const message = [cause.message.replace(/\.$/, '')];
	const hint: string[] = [];
	if (made.length) {
		const list = made.map(({ id, key }) => `${id}${keyNoted(key)}`).join(', ');
		const many = made.length > 1;
		message.push(
			` while ${many ? `${made.length} ${what}s were` : `${what} was`} rendering: ${list}`,
		);
		hint.push(
			`${many ? 'They were' : 'It was'} made and may be charged, and keep${many ? '' : 's'} rendering: fetch ${many ? 'them' : 'it'} later with Get, or run again with the same Idempotency Key within 24 hours (VisionStory returns ${many ? 'them' : 'it'} without charging again).`,
		);
	}
	if (maybe.length) {
		const many = maybe.length > 1;
		const keys = maybe.filter((key): key is string => key !== undefined);
		const named = keys.length
			? ` (idempotency key${keys.length > 1 ? 's' : ''} ${keys.join(', ')})`
			: '';
		message.push(
			`${made.length ? ';' : ''} after ${many ? `${maybe.length} creates of ${what}s` : `a create of a ${what}`} reached VisionStory with no answer naming the video${named}`,
		);
		hint.push(
			many
				? `VisionStory may have made them, and may charge them: run each item again with its Idempotency Key within 24 hours, and VisionStory returns the video it made without charging again.`
				: `VisionStory may have made it, and may charge it: set Options → Idempotency Key to ${keys[0] ?? 'the same key'} and run this item again within 24 hours: VisionStory returns that video, if it made it, without charging again.`,
		);
	}
	const keys = [...made.map((m) => m.key), ...maybe];
	return cause.with({
		message: message.join(''),
		hint: hint.join(' '),
		...(made.length ? { videoIds: made.map((m) => m.id) } : {}),
		...(keys.length === 1 && keys[0] ? { idempotencyKey: keys[0] } : {}),
		...(maybe.length ? { mayHaveReachedService: true } : {}),
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
	const what = KIND_WORDS[kind];
	const key = keyNoted(idempotencyKey);
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
