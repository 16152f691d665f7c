import type { Checked } from './client';
import { VisionStoryError } from './errors';
import { AnsweredKeys, attemptKey, withClientRequestId } from './idempotency';
import type { SpendingClient } from './spendingClient';
import { asError } from './taskErrors';
import type { CreateJob, CreateName, TaskKind, VideoTask } from './tasks';
import type { CallOptions } from './exchange';

/**
 * One video create as an item sees it: the create, then one read of the task it answered with. A
 * create answered with a task that was seen failed, or was seen and is gone since (its key was used
 * before: n8n's Retry On Fail after a failed render, an MCP call repeated after a Delete), is made
 * again under a new key, a bounded number of times. A task the service confirmed and no read has
 * shown yet is not visible yet (a read replica behind the primary), never gone: it is waited for,
 * never made anew. A create whose answer was lost is sent again under the same key, so it never
 * pays twice.
 */

export const CREATE: Record<TaskKind, CreateName> = {
	talkingVideo: 'createTalkingVideo',
	aiVideo: 'createAiVideo',
};

/** New attempts (new keys) after the service answered with a dead task; then the item fails. */
export const MAX_NEW_ATTEMPTS = 2;
/** A task missing right after its create may still be registering: read once more after this. */
const MISSING_RECHECK_MS = 2000;
/** A task created this long before its create was sent was made by an earlier call, whatever the clocks say. */
const OLD_TASK_MS = 10 * 60_000;

/** Keys this process got answers for: a repeat that gets the same video back was not a new video. */
const answered = new AnsweredKeys();

/** A status read showed the video its key was answered with: from now on, missing means gone. */
export function noteSeen(key: string | undefined, videoId: string): void {
	if (key !== undefined) answered.seen(key, videoId);
}

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
}

/** The job's request with the key of attempt `n`: the caller's key or the derived one, then `.a1`, `.a2`. */
function attempt(job: CreateJob, n: number): { request: Checked<CreateName>; key: string } {
	const keyed = withClientRequestId(
		job.request as Record<string, unknown>,
		job.call?.idempotencyContext,
		job.call?.media,
	);
	const key = attemptKey(String(keyed.client_request_id), n);
	return { request: { ...keyed, client_request_id: key } as Checked<CreateName>, key };
}

/** The task right after its create: 'missing' when two reads did not show it, the read's error when it could not be read. */
async function readBack(
	client: SpendingClient,
	kind: TaskKind,
	id: string,
	options: CallOptions,
): Promise<VideoTask | 'missing' | VisionStoryError> {
	for (let read = 0; read < 2; read++) {
		try {
			if (kind === 'talkingVideo') {
				return await client.send(
					'getTalkingVideo',
					client.validate('getTalkingVideo', { video_id: id }),
					options,
				);
			}
			// The batch form, as the waits read AI videos: a task that does not exist is left out.
			const task = (await client.readAiVideos([id], options)).get(id);
			if (task !== undefined) return task;
		} catch (error) {
			const failure = asError(error);
			if (failure.status !== 404) return failure;
		}
		if (read === 0) await client.sleep(MISSING_RECHECK_MS, options.signal);
	}
	return 'missing';
}

/** A video whose key was used before, and whose state could not be read: it may be a failed or deleted one. */
function unconfirmedError(
	kind: TaskKind,
	id: string,
	key: string,
	cause: VisionStoryError,
): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	return cause.with({
		message: `VisionStory answered with ${what} ${id}, made earlier for the same request (idempotency key ${key}), but its state could not be read to tell whether it failed or was deleted: ${cause.message}`,
		hint: `Check it with Get and this ID before using it; run the item again to make a new one if it failed or is gone.`,
		videoIds: [id],
		idempotencyKey: key,
	});
}

function deadTaskError(
	kind: TaskKind,
	id: string,
	state: VideoTask | 'gone',
	key: string,
): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	const how = state === 'gone' ? 'was deleted' : 'had failed';
	// A deleted video was made, and charged, when it was made; only a failed render is refunded.
	const paid =
		state === 'gone'
			? 'Each deleted video was charged when it was made; nothing more was charged for answering with it.'
			: 'Nothing was charged for a failed render (VisionStory refunds it).';
	return new VisionStoryError({
		category: 'taskFailed',
		message: `VisionStory answered this create ${MAX_NEW_ATTEMPTS + 1} times with a ${what} that ${how} (last ${id}); no new attempt was made`,
		hint: `${paid} Change the input (script, prompt, media) or set another Idempotency Key, then run again.`,
		videoIds: [id],
		idempotencyKey: key,
	});
}

/**
 * A video VisionStory confirmed creating that no status read showed within the item's time: it
 * exists and may be charged; the key gets it back.
 */
export function notVisibleError(
	kind: TaskKind,
	id: string,
	key: string | undefined,
	timeoutMs: number,
): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	const minutes = Math.round((timeoutMs / 60000) * 10) / 10;
	const again = key
		? ` Set Options → Idempotency Key to ${key} and run this item again within 24 hours: VisionStory returns this video without charging again.`
		: '';
	return new VisionStoryError({
		category: 'timeout',
		message: `VisionStory confirmed creating ${what} ${id}${key ? ` (idempotency key ${key})` : ''}, but no status read showed it within ${minutes} minute${minutes === 1 ? '' : 's'}`,
		hint: `It was made and may be charged; no other was created for this item. Check it later with Get and this ID.${again}`,
		videoIds: [id],
		...(key ? { idempotencyKey: key } : {}),
	});
}

/**
 * Creates one video and, where the answer may be a task made before (`readBack`, or a key this
 * process sent already), reads it back. A task seen failed, or seen before and missing now (gone),
 * gets a new attempt under a new key (at most MAX_NEW_ATTEMPTS); one never seen is not visible yet
 * and is handed back without its state, for the caller to wait on. A fresh key is not read back:
 * its answer is a new task, and the caller's next read sees it.
 */
export async function createVideo(
	client: SpendingClient,
	kind: TaskKind,
	job: CreateJob,
	options: CallOptions & { readBack?: boolean },
): Promise<CreatedVideo> {
	const { readBack: always, ...call } = options;
	for (let n = 0; ; n++) {
		const { request, key } = attempt(job, n);
		const sentAt = Date.now();
		const before = answered.get(key);
		const created = await client.send(CREATE[kind], request, { ...job.call, ...call });
		const id = created.video_id;
		answered.set(key, id);
		// The answer may be a task made before under this key: a new attempt's key was sent before too.
		const repeatable = job.keyMayRepeat === true || before !== undefined || n > 0;
		const returned = before?.videoId === id;
		const fresh = { video_id: id, existing: returned, idempotencyKey: key, newAttempts: n };
		if (!repeatable && !always) return fresh;
		const read = await readBack(client, kind, id, {
			signal: call.signal,
			budget: call.budget,
		});
		if (read instanceof VisionStoryError) {
			if (repeatable) throw unconfirmedError(kind, id, key, read);
			return fresh;
		}
		if (read === 'missing') {
			// Only a task a read showed before is gone; one never shown may still be registering.
			if (!(returned && before.seen)) return fresh;
			if (n < MAX_NEW_ATTEMPTS) continue;
			throw deadTaskError(kind, id, 'gone', key);
		}
		const state = read;
		answered.seen(key, id);
		if (state.status === 'failed') {
			if (n < MAX_NEW_ATTEMPTS) continue;
			throw deadTaskError(kind, id, state, key);
		}
		const createdAt = typeof state.created_at === 'number' ? state.created_at * 1000 : 0;
		const existing =
			returned || state.status === 'created' || (createdAt > 0 && createdAt < sentAt - OLD_TASK_MS);
		return { video_id: id, task: state, existing, idempotencyKey: key, newAttempts: n };
	}
}
