import type { Checked } from './client';
import { isAborted, VisionStoryError } from './errors';
import { attemptKey, withClientRequestId } from './idempotency';
import type { Attempt, Intent } from './intents';
import { intents, RULES } from './intents';
import type { SpendingClient } from './spendingClient';
import { asError, deadTaskError, madeEarlierError, notedIn } from './taskErrors';
import type { CreateJob, CreateName, TaskKind, VideoTask } from './tasks';
import type { CallOptions } from './exchange';

/**
 * One video create as an item sees it: the create under the intent's key, and, where the answer may
 * be a video made before (a key sent before: n8n's Retry On Fail, a caller's own key, an MCP call
 * repeated), reads of it until the rules (`intents.ts`) can tell. A video a read shows failed, or gone,
 * gets a new attempt under a new key, a bounded number of times; anything less (a read error, a 404
 * alone, a video no read has shown yet) never does. A create whose answer was lost is sent again under
 * the same key, so it never pays twice.
 */

export const CREATE: Record<TaskKind, CreateName> = {
	talkingVideo: 'createTalkingVideo',
	aiVideo: 'createAiVideo',
};

/** New attempts (new keys) after the service answered with a video that will never come; then the item fails. */
export const MAX_NEW_ATTEMPTS = 2;

export interface CreatedVideo {
	video_id: string;
	/** The task as read right after the create; absent when that read failed or did not show it yet. */
	task?: VideoTask;
	/** The service returned a video its key had already made: no new video, no new charge. */
	existing: boolean;
	/** The client_request_id the video belongs to: sent again within 24 hours, it returns this video. */
	idempotencyKey: string;
	/** New attempts made because the service answered with a failed or deleted task. */
	newAttempts: number;
	/** What the service showed of it: the wait goes on noting it there. */
	attempt: Attempt;
}

export interface CreateOptions extends CallOptions {
	/** Read the answer back even when its key is new (a create not waited on: its state and price). */
	readBack?: boolean;
	/** How far apart the reads that may find a video gone are. */
	pollIntervalMs: number;
}

/** The job's intent (its key: the caller's or derived from the body, its files and the context) and its request. */
export function intentOf(job: CreateJob): { intent: Intent; request: Record<string, unknown> } {
	const keyed = withClientRequestId(
		job.request as Record<string, unknown>,
		job.call?.idempotencyContext,
		job.call?.media,
	);
	const key = String(keyed.client_request_id);
	return { intent: intents.intent(key, (n) => attemptKey(key, n)), request: keyed };
}

/** One read of the video: its task, `undefined` when the read did not find it, or the read's error. */
async function readOnce(
	client: SpendingClient,
	kind: TaskKind,
	id: string,
	options: CallOptions,
): Promise<VideoTask | undefined | VisionStoryError> {
	try {
		if (kind === 'talkingVideo') {
			return await client.send(
				'getTalkingVideo',
				client.validate('getTalkingVideo', { video_id: id }),
				options,
			);
		}
		// The batch form, as the waits read AI videos: a task that does not exist is left out.
		return (await client.readAiVideos([id], options)).get(id);
	} catch (error) {
		const failure = asError(error);
		return failure.status === 404 ? undefined : failure;
	}
}

/**
 * Reads the video an attempt was answered with until a read shows it, or until the rules can tell it
 * apart: not visible yet (never shown: handed back to be waited for), gone (a read showed it before,
 * and reads spread over poll intervals since do not). Each read is noted in the attempt. A read error
 * stops the reading: it proves nothing, and is handed back.
 */
async function readBack(
	client: SpendingClient,
	kind: TaskKind,
	attempt: Attempt,
	options: CreateOptions,
): Promise<VideoTask | 'unseen' | 'gone' | VisionStoryError> {
	const call = { signal: options.signal, budget: options.budget };
	for (;;) {
		const read = await readOnce(client, kind, attempt.videoId!, call);
		const at = Date.now();
		if (read instanceof VisionStoryError) {
			attempt.readFailed(read, at);
			return read;
		}
		if (read !== undefined) {
			attempt.seen(read.status, at);
			return read;
		}
		attempt.absent('missing', at);
		if (RULES.notVisibleYet(attempt)) return 'unseen';
		if (RULES.gone(attempt, options.pollIntervalMs)) return 'gone';
		await client.sleep(options.pollIntervalMs, options.signal);
	}
}

/**
 * Creates one video and, where the answer may be a video made before (`readBack`, or a key sent
 * before), reads it back. A video that will never come (`RULES.neverComes`) gets a new attempt under
 * a new key (at most MAX_NEW_ATTEMPTS); one never seen is handed back without its state, to be waited
 * for. A fresh key is not read back: its answer is a new task, and the caller's next read sees it.
 * Every failure after an attempt may have reached the service names the key that returns its video.
 */
export async function createVideo(
	client: SpendingClient,
	kind: TaskKind,
	job: CreateJob,
	options: CreateOptions,
): Promise<CreatedVideo> {
	const always = options.readBack === true;
	const call: CallOptions = { signal: options.signal, budget: options.budget };
	const { intent, request } = intentOf(job);
	for (let n = 0; ; n++) {
		const attempt = intent.attempt(n);
		const key = attempt.key;
		const sentAt = Date.now();
		const before = attempt.videoId;
		attempt.sent(sentAt);
		let id: string;
		try {
			const keyed = { ...request, client_request_id: key } as Checked<CreateName>;
			id = (await client.send(CREATE[kind], keyed, { ...job.call, ...call })).video_id;
		} catch (error) {
			throw notedIn(intent, n, asError(error));
		}
		const answeredBefore = attempt.answered(id, Date.now());
		// The answer may be a video made before under this key: a new attempt's key was sent before too.
		const repeatable = job.keyMayRepeat === true || before !== undefined || n > 0;
		const fresh = { video_id: id, existing: answeredBefore, idempotencyKey: key, newAttempts: n };
		if (!repeatable && !always) return { ...fresh, attempt };
		const read = await readBack(client, kind, attempt, options).catch((error: unknown) => {
			// A cancel while reading it back: the answer named the video, and the run names it in turn.
			if (isAborted(error)) return 'cancelled' as const;
			throw error;
		});
		if (read === 'cancelled') return { ...fresh, attempt };
		if (read instanceof VisionStoryError) {
			// Read errors prove nothing. Waiting, the wait reads it again; without, nothing tells a dead
			// video made earlier from a live one: the item says so, with the id and the key.
			if (repeatable && always) throw madeEarlierError(kind, id, key, read);
			return { ...fresh, attempt };
		}
		if (read === 'unseen') return { ...fresh, attempt };
		if (read === 'gone' || RULES.failed(attempt)) {
			if (n < MAX_NEW_ATTEMPTS) continue;
			throw deadTaskError(kind, id, read, key, MAX_NEW_ATTEMPTS);
		}
		const task = read;
		const madeAt = typeof task.created_at === 'number' ? task.created_at * 1000 : 0;
		const existing = RULES.existing(answeredBefore, task.status, madeAt, sentAt);
		return { video_id: id, task, existing, idempotencyKey: key, newAttempts: n, attempt };
	}
}
