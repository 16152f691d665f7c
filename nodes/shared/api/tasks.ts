import type { VisionStoryClient } from './client';
import { abortedError } from './clock';
import { mapConcurrent } from './concurrency';
import type { AiVideoDto, TalkingVideoDto } from './contract';
import { AI_VIDEO_BATCH_MAX, isFinished } from './contract';
import { defaultHint, isAborted, VisionStoryError } from './errors';

export type TaskKind = 'talkingVideo' | 'aiVideo';
export type VideoTask = TalkingVideoDto | AiVideoDto;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: VisionStoryError };

/** What happens to AI videos the per-key concurrency cap refuses. */
export type AtLimit =
	/** Kept queued and sent as soon as one of our renders frees a slot, within the item's time limit. */
	| 'queue'
	/** Returned at once as an error that says so; nothing is created or charged. */
	| 'refuse';

export interface RunOptions {
	/** Wait until every task finishes; otherwise return once every item is submitted (or refused). */
	waitForCompletion: boolean;
	pollIntervalMs: number;
	atLimit: AtLimit;
	signal?: AbortSignal;
	/** Talking-video status requests in flight at once (there is no batch status call for them). */
	concurrency?: number;
}

/** One item to submit, and how long it may take in all: queueing for a slot, and rendering when waited on. */
export interface TaskJob {
	submit: Submission;
	timeoutMs: number;
}

/** A submitted task being watched, keyed by its item. */
interface PendingTask {
	id: string;
	failures: number;
	missing: number;
	submittedAt: number;
	/** When a poll last saw it still rendering. */
	unfinishedAt?: number;
}

function newPending(id: string): PendingTask {
	return { id, failures: 0, missing: 0, submittedAt: Date.now() };
}

/**
 * What the polls so far say about how long a render takes: longer than the longest time a task was
 * seen still rendering, and no longer than the quickest time a task was seen finished. Lets the next
 * wave of slot-bound AI videos be polled when it should be done rather than on the next fixed beat;
 * while the two bounds are far apart, polling at their midpoint narrows them wave by wave.
 */
class RenderTimes {
	private longerThan = 0;
	private atMost = Infinity;

	constructor(private readonly pollIntervalMs: number) {}

	finished(task: PendingTask, seenAt: number): void {
		if (task.unfinishedAt !== undefined) this.longerThan = Math.max(this.longerThan, task.unfinishedAt - task.submittedAt);
		this.atMost = Math.min(this.atMost, seenAt - task.submittedAt);
	}

	private estimate(): number | undefined {
		if (this.atMost === Infinity) return this.longerThan > 0 ? this.longerThan + Math.max(250, this.longerThan * 0.02) : undefined;
		if (this.atMost - this.longerThan <= this.pollIntervalMs / 2) return this.atMost;
		return (this.longerThan + this.atMost) / 2;
	}

	earliestFinish(tasks: Iterable<PendingTask>): number | undefined {
		const estimate = this.estimate();
		if (estimate === undefined) return undefined;
		let earliest: number | undefined;
		for (const task of tasks) earliest = Math.min(earliest ?? Infinity, task.submittedAt + estimate);
		return earliest;
	}
}

/** Submits one item and resolves with its video_id. */
export type Submission = () => Promise<string>;

const DEFAULT_CONCURRENCY = 8;
/** Polls that may fail in a row (after the transport's own retries) before an item gives up. */
const MAX_POLL_FAILURES = 5;
/** Rounds a freshly created AI video may be missing from the batch answer while it registers. */
const MAX_MISSING_ROUNDS = 3;


/** The service's view of one task, or why it could not be read this round. */
export type PollResult = VideoTask | VisionStoryError | undefined;

async function pollAiVideos(client: VisionStoryClient, ids: string[], signal?: AbortSignal): Promise<Map<string, PollResult>> {
	const chunks: string[][] = [];
	for (let i = 0; i < ids.length; i += AI_VIDEO_BATCH_MAX) chunks.push(ids.slice(i, i + AI_VIDEO_BATCH_MAX));
	const results = new Map<string, PollResult>();
	await mapConcurrent(chunks, 4, async (chunk) => {
		try {
			for (const [id, video] of await client.readAiVideos(chunk, { signal })) results.set(id, video);
		} catch (error) {
			for (const id of chunk) results.set(id, asError(error));
		}
	});
	return results;
}

async function pollTalkingVideos(
	client: VisionStoryClient,
	ids: string[],
	concurrency: number,
	signal?: AbortSignal,
): Promise<Map<string, PollResult>> {
	const results = new Map<string, PollResult>();
	await mapConcurrent(ids, concurrency, async (id) => {
		try {
			results.set(id, await client.getTalkingVideo({ video_id: id }, { signal }));
		} catch (error) {
			results.set(id, asError(error));
		}
	});
	return results;
}

/** The current state of tasks by id, read the cheapest way per kind; an id missing from the map was not found. */
export async function readTasks(
	client: VisionStoryClient,
	kind: TaskKind,
	ids: string[],
	options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<Map<string, PollResult>> {
	const unique = [...new Set(ids)];
	return kind === 'aiVideo'
		? await pollAiVideos(client, unique, options.signal)
		: await pollTalkingVideos(client, unique, options.concurrency ?? DEFAULT_CONCURRENCY, options.signal);
}

/** A failure that concerns one item; a cancellation, or a bug, ends the whole wait instead. */
function asError(error: unknown): VisionStoryError {
	if (error instanceof VisionStoryError && !isAborted(error)) return error;
	throw error;
}

export function taskFailedError(kind: TaskKind, task: VideoTask): VisionStoryError {
	const failure = (task as AiVideoDto).error ?? undefined;
	const what = kind === 'aiVideo' ? 'AI video' : 'Talking video';
	const code = failure?.code ?? undefined;
	const reason = failure?.message ? `: ${failure.message}${code !== undefined ? ` (code ${code})` : ''}` : '';
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
	return new VisionStoryError({ category: 'api', status: 404, message: `Video ${id} was not found`, hint: defaultHint(404), videoIds: [id] });
}

function timeoutError(kind: TaskKind, ids: string[], timeoutMs: number): VisionStoryError {
	const what = kind === 'aiVideo' ? 'AI video' : 'talking video';
	return new VisionStoryError({
		category: 'timeout',
		message: `The ${what} ${ids.join(', ')} was still rendering after ${minutesText(timeoutMs)}`,
		hint: "Nothing is lost: the video keeps rendering. Retry the execution in n8n (it picks up the same video, charged once), fetch it later with Get and this id, or raise Timeout (Minutes).",
		videoIds: ids,
	});
}

function slotTimeoutError(timeoutMs: number, concurrency?: { limit?: number }): VisionStoryError {
	return new VisionStoryError({
		category: 'timeout',
		status: 429,
		message: `No AI video slot became free within ${minutesText(timeoutMs)}${concurrency?.limit ? ` (your key renders at most ${concurrency.limit} at once)` : ''}`,
		hint: 'Nothing was created or charged for this item. Run it again later, or raise the time limit.',
		concurrency,
	});
}

function refusedError(concurrency?: { limit?: number; inFlight?: number }): VisionStoryError {
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

/**
 * Submits every item first, then waits on all of them together: AI videos through the batch status
 * call (20 ids a request), talking videos concurrently. An AI-video submission refused by the per-key
 * concurrency cap is queued and sent again once one of our tasks frees a slot, or refused at once
 * (`atLimit`). Each item keeps its own time limit.
 */
export async function runTasks(
	client: VisionStoryClient,
	kind: TaskKind,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoTask | { video_id: string }>>> {
	const { pollIntervalMs, signal, waitForCompletion } = options;
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const started = Date.now();
	const deadlines = jobs.map((job) => started + job.timeoutMs);
	const outcomes = new Array<Outcome<VideoTask | { video_id: string }> | undefined>(jobs.length);
	const waiting: number[] = jobs.map((_, i) => i);
	// By item: two items can share a task (the same idempotency key), each with its own time limit.
	const pending = new Map<number, PendingTask>();
	let slotLimit: { limit?: number; inFlight?: number } | undefined;
	const renders = new RenderTimes(pollIntervalMs);
	let lastPoll = Date.now();

	const submit = async (index: number): Promise<VisionStoryError | undefined> => {
		try {
			const id = await jobs[index].submit();
			pending.set(index, newPending(id));
			outcomes[index] = { ok: true, value: { video_id: id } };
			return undefined;
		} catch (error) {
			return asError(error);
		}
	};

	const submitWaiting = async () => {
		if (kind === 'talkingVideo') {
			const batch = waiting.splice(0, waiting.length);
			await mapConcurrent(batch, concurrency, async (index) => {
				const failure = await submit(index);
				if (failure) outcomes[index] = { ok: false, error: failure };
			});
			return;
		}
		// AI videos one by one: the first concurrency refusal says the remaining ones would be refused too.
		while (waiting.length > 0) {
			// Our own tasks already fill the known cap: sending now would only be refused again.
			if (options.atLimit === 'queue' && slotLimit?.limit !== undefined && pending.size >= slotLimit.limit) return;
			const index = waiting[0];
			const failure = await submit(index);
			if (failure?.isConcurrencyLimit) {
				slotLimit = failure.concurrency;
				if (options.atLimit === 'queue') return;
				for (const refused of waiting.splice(0, waiting.length)) outcomes[refused] = { ok: false, error: refusedError(slotLimit) };
				return;
			}
			if (failure) outcomes[index] = { ok: false, error: failure };
			waiting.shift();
		}
	};

	/** Items whose time is up: queued ones were never sent; rendering ones keep rendering. */
	const expire = (now: number) => {
		for (let i = waiting.length - 1; i >= 0; i--) {
			const index = waiting[i];
			if (deadlines[index] > now) continue;
			outcomes[index] = { ok: false, error: slotTimeoutError(jobs[index].timeoutMs, slotLimit) };
			waiting.splice(i, 1);
		}
		if (!waitForCompletion) return;
		for (const [index, entry] of pending) {
			if (deadlines[index] > now) continue;
			outcomes[index] = { ok: false, error: timeoutError(kind, [entry.id], jobs[index].timeoutMs) };
			pending.delete(index);
		}
	};

	const pollPending = async () => {
		lastPoll = Date.now();
		const results = await readTasks(client, kind, [...pending.values()].map((entry) => entry.id), { concurrency, signal });
		for (const [index, entry] of pending) {
			const result = results.get(entry.id);
			if (result instanceof VisionStoryError) {
				entry.failures++;
				if (result.status === 404 || entry.failures >= MAX_POLL_FAILURES) {
					if (waitForCompletion) outcomes[index] = { ok: false, error: result };
					pending.delete(index);
				}
				continue;
			}
			if (result === undefined) {
				if (++entry.missing >= MAX_MISSING_ROUNDS) {
					if (waitForCompletion) outcomes[index] = { ok: false, error: notFoundError(entry.id) };
					pending.delete(index);
				}
				continue;
			}
			entry.failures = 0;
			if (!isFinished(result)) {
				entry.unfinishedAt = lastPoll;
				continue;
			}
			renders.finished(entry, lastPoll);
			pending.delete(index);
			if (waitForCompletion) {
				outcomes[index] = result.status === 'created' ? { ok: true, value: result } : { ok: false, error: taskFailedError(kind, result) };
			}
		}
	};

	const earliestDeadline = () => {
		let earliest = Infinity;
		for (const index of waiting) earliest = Math.min(earliest, deadlines[index]);
		if (waitForCompletion) for (const index of pending.keys()) earliest = Math.min(earliest, deadlines[index]);
		return earliest;
	};

	await submitWaiting();
	for (;;) {
		expire(Date.now());
		if (waiting.length === 0 && (!waitForCompletion || pending.size === 0)) break;
		if (signal?.aborted) throw abortedError();
		// AI videos come in waves (the concurrency cap): poll when a wave should be done, not on a fixed beat.
		const predicted = kind === 'aiVideo' ? renders.earliestFinish(pending.values()) : undefined;
		const nextPoll = Math.max(lastPoll + pollIntervalMs, predicted ?? 0);
		const wake = Math.min(nextPoll, earliestDeadline());
		await client.sleep(Math.max(0, wake - Date.now()), signal);
		if (Date.now() < nextPoll) continue;
		// Without waiting, polling only serves to notice freed slots for the items still queued.
		if (pending.size > 0) await pollPending();
		if (waiting.length > 0) await submitWaiting();
	}
	return outcomes.map((o) => o!);
}
