import type { CallOptions, Checked, VisionStoryClient } from './client';
import { abortedError } from './clock';
import { Slots } from './concurrency';
import type { AiVideoDto } from './contract';
import { AI_VIDEO_BATCH_MAX, isFinished } from './contract';
import { defaultHint, VisionStoryError } from './errors';
import type { RequestBudget } from './requestBudget';
import type { TaskKind, VideoTask } from './taskReads';
import { asError, readTasks, TalkingVideoList } from './taskReads';

export type { PollResult, TaskKind, VideoTask } from './taskReads';
export { readTasks, TalkingVideoList } from './taskReads';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: VisionStoryError };

/** What happens to AI videos the per-key concurrency cap refuses. */
export type AtLimit =
	/** Kept queued and sent as soon as one of our renders frees a slot, within the item's time limit. */
	| 'queue'
	/** Returned at once as an error that says so; nothing is created or charged. */
	| 'refuse';

/** How a batch is doing, for a log line while it runs. */
export interface Progress {
	kind: TaskKind;
	total: number;
	submitted: number;
	finished: number;
	failed: number;
	/** Submitted and not yet seen finished. */
	rendering: number;
	/** Not yet submitted: held for a slot, or sent again after a rate limit. */
	queued: number;
	/** The request budget's rate now, and the rate limits (429) met so far. */
	perSecond?: number;
	rateLimited?: number;
}

export interface RunOptions {
	/** Wait until every task finishes; otherwise return once every item is submitted (or refused). */
	waitForCompletion: boolean;
	pollIntervalMs: number;
	atLimit: AtLimit;
	signal?: AbortSignal;
	/** Talking-video submissions and single status reads in flight at once. */
	concurrency?: number;
	/** The credential's request budget: every status read waits for a slot in it (submissions take theirs in `submit`). */
	budget?: RequestBudget;
	/** Told how the batch is doing, at most every `progressEveryMs`, while it runs. */
	/** Told how the batch is doing (a line naming `node`), at most every `progressEveryMs`, while it runs. */
	log?: { to: ProgressLog; node: string };
	progressEveryMs?: number;
}

/** One item to submit: its checked create request and call options, and how long it may take in all (queueing for a slot, and rendering when waited on). */
export interface TaskJob {
	request: Checked<CreateName>;
	call?: CallOptions;
	timeoutMs: number;
}

type CreateName = 'createTalkingVideo' | 'createAiVideo';

const CREATE: Record<TaskKind, CreateName> = { talkingVideo: 'createTalkingVideo', aiVideo: 'createAiVideo' };

/** What the progress lines are written to: n8n's logger in the nodes. */
export interface ProgressLog {
	info(message: string): void;
}

/** A line for the log while a batch runs, so a long execution shows how far it got. */
export function progressLine(node: string, p: Progress): string {
	const what = p.kind === 'aiVideo' ? 'AI videos' : 'talking videos';
	const budget = p.perSecond !== undefined ? `; ${p.perSecond} requests/s${p.rateLimited ? `, ${p.rateLimited} rate limits met` : ''}` : '';
	return `VisionStory ${node}: ${p.submitted} of ${p.total} ${what} submitted, ${p.finished} finished, ${p.failed} failed, ${p.rendering} rendering, ${p.queued} to send${budget}`;
}

/** A submitted task being watched, keyed by its item. */
interface PendingTask {
	id: string;
	failures: number;
	missing: number;
	submittedAt: number;
	/** When a poll last saw it still rendering. */
	unfinishedAt?: number;
	/** When it is worth reading next: when it should be done, and never sooner than a poll interval after the last read. */
	dueAt: number;
}

/**
 * What the polls so far say about how long a render takes: longer than the longest time a task was
 * seen still rendering, and no longer than the quickest time a task was seen finished. Tasks are read
 * when they should be done rather than on a fixed beat (the next wave of slot-bound AI videos, the
 * later part of a large batch); while the two bounds are far apart, reading at their midpoint narrows
 * them round by round.
 */
class RenderTimes {
	private longerThan = 0;
	private atMost = Infinity;

	unfinished(task: PendingTask, seenAt: number): void {
		this.longerThan = Math.max(this.longerThan, seenAt - task.submittedAt);
	}

	finished(task: PendingTask, seenAt: number): void {
		if (task.unfinishedAt !== undefined) this.longerThan = Math.max(this.longerThan, task.unfinishedAt - task.submittedAt);
		this.atMost = Math.min(this.atMost, seenAt - task.submittedAt);
	}

	estimate(): number | undefined {
		if (this.atMost === Infinity) return this.longerThan > 0 ? this.longerThan + Math.max(250, this.longerThan * 0.02) : undefined;
		// Close enough to stop narrowing. Read a little after it: a read that comes too early costs a whole
		// poll interval, one that comes late only the margin (renders vary a little).
		// A task seen unfinished a little past the quickest finish moves the read that little later; a slow outlier does not.
		const tolerance = Math.max(MIN_NARROWING_MS, this.atMost * 0.05);
		if (this.atMost - this.longerThan <= tolerance) {
			const known = this.atMost + Math.min(Math.max(0, this.longerThan - this.atMost), tolerance);
			return known + Math.max(MIN_NARROWING_MS, Math.min(known * 0.03, MAX_MARGIN_MS));
		}
		return (this.longerThan + this.atMost) / 2;
	}
}

const DEFAULT_CONCURRENCY = 8;
/** Polls that may fail in a row (after the transport's own retries) before an item gives up. */
const MAX_POLL_FAILURES = 5;
/** Rounds a freshly created AI video may be missing from the batch answer while it registers. */
const MAX_MISSING_ROUNDS = 3;
const DEFAULT_PROGRESS_EVERY_MS = 30_000;
/** Render-time bounds this close (or within 5 %) are taken as known. */
const MIN_NARROWING_MS = 250;
/** How late a read may come after the render time learned: enough for the service's own jitter. */
const MAX_MARGIN_MS = 1000;

/** A rate limit (429) that is not the AI-video concurrency cap: nothing was created, so the item may be sent again. */
function isRateLimit(error: VisionStoryError): boolean {
	return error.status === 429 && !error.isConcurrencyLimit;
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

function rateLimitedError(timeoutMs: number, cause: VisionStoryError): VisionStoryError {
	return new VisionStoryError({
		category: 'timeout',
		status: 429,
		message: `VisionStory kept answering that the key sends too many requests; not submitted within ${minutesText(timeoutMs)}: ${cause.message}`,
		hint: cause.hint ?? 'Nothing was created or charged for this item. Lower Requests per Second in the node\'s Options, or run it again later.',
	});
}

/**
 * Submits every item first, then waits on all of them together, each read when it should be done:
 * AI videos through the batch status call (20 ids a request), talking videos from the list when the
 * service's answer carries full tasks, else one read each. Every request waits for a slot in the
 * credential's budget. An AI-video submission refused by the per-key concurrency cap is queued and
 * sent again once one of our tasks frees a slot, or refused at once (`atLimit`); a submission refused
 * by a rate limit is sent again, slower. Each item keeps its own time limit.
 */
export async function runTasks(
	client: VisionStoryClient,
	kind: TaskKind,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoTask | { video_id: string }>>> {
	const { pollIntervalMs, signal, waitForCompletion, budget } = options;
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const started = Date.now();
	const deadlines = jobs.map((job) => started + job.timeoutMs);
	const outcomes = new Array<Outcome<VideoTask | { video_id: string }> | undefined>(jobs.length);
	const waiting: number[] = jobs.map((_, i) => i);
	// By item: two items can share a task (the same idempotency key), each with its own time limit.
	const pending = new Map<number, PendingTask>();
	/** Items sent again after a rate limit, with that answer, in case their time runs out. */
	const limitedBy = new Map<number, VisionStoryError>();
	let slotLimit: { limit?: number; inFlight?: number } | undefined;
	const renders = new RenderTimes();
	const list = new TalkingVideoList();
	let lastRound = -Infinity;
	const counts = { submitted: 0, finished: 0, failed: 0 };
	let lastReport = started;

	const report = (force = false) => {
		if (!options.log) return;
		const now = Date.now();
		if (!force && now - lastReport < (options.progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS)) return;
		lastReport = now;
		const stats = budget?.stats();
		options.log.to.info(
			progressLine(options.log.node, {
			kind,
			total: jobs.length,
			...counts,
			rendering: pending.size,
			queued: waiting.length,
			...(stats ? { perSecond: stats.perSecond, rateLimited: stats.rateLimited } : {}),
			}),
		);
	};

	const fail = (index: number, error: VisionStoryError) => {
		outcomes[index] = { ok: false, error };
		counts.failed++;
	};

	const submit = async (index: number): Promise<VisionStoryError | undefined> => {
		try {
			const job = jobs[index];
			const created = await client.send(CREATE[kind], job.request, { ...job.call, signal, budget });
			const id = created.video_id;
			const now = Date.now();
			pending.set(index, { id, failures: 0, missing: 0, submittedAt: now, dueAt: now + (renders.estimate() ?? pollIntervalMs) });
			outcomes[index] = { ok: true, value: { video_id: id } };
			limitedBy.delete(index);
			counts.submitted++;
			return undefined;
		} catch (error) {
			return asError(error);
		} finally {
			report();
		}
	};

	const submitWaiting = async () => {
		if (kind === 'talkingVideo') {
			const batch = waiting.splice(0, waiting.length);
			const slots = new Slots(concurrency);
			await Promise.all(
				batch.map(async (index) => {
					await slots.take();
					try {
						const failure = await submit(index);
						if (failure && isRateLimit(failure)) {
							limitedBy.set(index, failure);
							waiting.push(index);
						} else if (failure) fail(index, failure);
					} finally {
						slots.give();
					}
				}),
			);
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
				for (const refused of waiting.splice(0, waiting.length)) fail(refused, refusedError(slotLimit));
				return;
			}
			if (failure && isRateLimit(failure)) {
				limitedBy.set(index, failure);
				// Slowed by the budget; the rest follow it.
				return;
			}
			if (failure) fail(index, failure);
			waiting.shift();
		}
	};

	/** Items whose time is up: queued ones were never sent; rendering ones keep rendering. */
	const expire = (now: number) => {
		for (let i = waiting.length - 1; i >= 0; i--) {
			const index = waiting[i];
			if (deadlines[index] > now) continue;
			const limited = limitedBy.get(index);
			fail(index, limited ? rateLimitedError(jobs[index].timeoutMs, limited) : slotTimeoutError(jobs[index].timeoutMs, slotLimit));
			waiting.splice(i, 1);
		}
		if (!waitForCompletion) return;
		for (const [index, entry] of pending) {
			if (deadlines[index] > now) continue;
			fail(index, timeoutError(kind, [entry.id], jobs[index].timeoutMs));
			pending.delete(index);
		}
	};

	/** Reads the tasks due, earliest first, and takes in whatever else the answers show. */
	const readRound = async (due: Array<[number, PendingTask]>) => {
		const readAt = Date.now();
		lastRound = readAt;
		const known = new Set([...pending.values()].map((entry) => entry.id));
		const ids = due.map(([, entry]) => entry.id);
		if (kind === 'aiVideo') {
			// A batch call holds 20 ids whoever they are: the rest of a call goes to tasks not due yet.
			const room = Math.ceil(ids.length / AI_VIDEO_BATCH_MAX) * AI_VIDEO_BATCH_MAX - ids.length;
			const asked = new Set(ids);
			ids.push(...[...known].filter((id) => !asked.has(id)).slice(0, room));
		}
		const results = await readTasks(client, kind, ids, { concurrency, signal, budget, list }, known);
		const dueItems = new Set(due.map(([index]) => index));
		for (const [index, entry] of pending) {
			const result = results.get(entry.id);
			if (result instanceof VisionStoryError) {
				// A rate limit says nothing about the task: the budget has slowed down, the read comes again.
				if (!isRateLimit(result)) entry.failures++;
				entry.dueAt = readAt + pollIntervalMs;
				if (result.status === 404 || entry.failures >= MAX_POLL_FAILURES) {
					if (waitForCompletion) fail(index, result);
					pending.delete(index);
				}
				continue;
			}
			if (result === undefined) {
				// Only a task asked for can be missing; the others were simply not on the pages read.
				if (!dueItems.has(index)) continue;
				entry.dueAt = readAt + pollIntervalMs;
				if (++entry.missing >= MAX_MISSING_ROUNDS) {
					if (waitForCompletion) fail(index, notFoundError(entry.id));
					pending.delete(index);
				}
				continue;
			}
			entry.failures = 0;
			if (!isFinished(result)) {
				entry.unfinishedAt = readAt;
				renders.unfinished(entry, readAt);
				if (dueItems.has(index) || entry.dueAt <= readAt + pollIntervalMs) {
					entry.dueAt = Math.max(readAt + pollIntervalMs, entry.submittedAt + (renders.estimate() ?? 0));
				}
				continue;
			}
			renders.finished(entry, readAt);
			pending.delete(index);
			if (!waitForCompletion) continue;
			if (result.status === 'created') {
				outcomes[index] = { ok: true, value: result };
				counts.finished++;
			} else fail(index, taskFailedError(kind, result));
		}
		report();
	};

	const earliestDeadline = () => {
		let earliest = Infinity;
		for (const index of waiting) earliest = Math.min(earliest, deadlines[index]);
		if (waitForCompletion) for (const index of pending.keys()) earliest = Math.min(earliest, deadlines[index]);
		return earliest;
	};

	/** The next read: when the first pending task is due, and no sooner than a poll interval after the last. */
	const nextRoundAt = () => {
		let due = Infinity;
		for (const entry of pending.values()) due = Math.min(due, entry.dueAt);
		// Items held with none of ours rendering: try them again every poll interval.
		if (due === Infinity && waiting.length > 0) due = -Infinity;
		return due === Infinity ? Infinity : Math.max(lastRound + pollIntervalMs, due);
	};

	await submitWaiting();
	for (;;) {
		const now = Date.now();
		expire(now);
		if (waiting.length === 0 && (!waitForCompletion || pending.size === 0)) break;
		if (signal?.aborted) throw abortedError();
		// Talking videos sent again after a rate limit go at once: the budget paces them.
		if (kind === 'talkingVideo' && waiting.length > 0) {
			await submitWaiting();
			continue;
		}
		const roundAt = nextRoundAt();
		// Without waiting, polling only serves to notice freed slots for the items still queued.
		const polling = waitForCompletion || waiting.length > 0;
		const wake = Math.min(polling ? roundAt : Infinity, earliestDeadline());
		if (wake > now) {
			await client.sleep(wake === Infinity ? pollIntervalMs : wake - now, signal);
			continue;
		}
		if (!polling || roundAt > now) continue;
		// Tasks due within half an interval join this round rather than start a round of their own.
		const horizon = Date.now() + pollIntervalMs / 2;
		const due = [...pending].filter(([, entry]) => entry.dueAt <= horizon).sort(([, a], [, b]) => a.dueAt - b.dueAt);
		await readRound(due);
		if (waiting.length > 0) await submitWaiting();
	}
	report(true);
	return outcomes.map((o) => o!);
}
