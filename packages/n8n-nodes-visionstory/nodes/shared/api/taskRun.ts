import type { CallOptions, Checked, VisionStoryClient } from './client';
import { abortedError } from './clock';
import { Slots } from './concurrency';
import { AI_VIDEO_BATCH_MAX, isFinished } from './contract';
import { VisionStoryError } from './errors';
import { RenderTimes } from './renderTimes';
import type { RequestBudget } from './requestBudget';
import { isPricePending } from './spend';
import type { CreatedVideo, CreateJob, CreateName } from './taskCreate';
import { createVideo, notVisibleError, noteSeen } from './taskCreate';
import type { TaskKind, VideoTask } from './taskErrors';
import {
	asError,
	isRateLimit,
	maybeCreatedError,
	notFoundError,
	rateLimitedError,
	refusedError,
	slotTimeoutError,
	taskFailedError,
	timeoutError,
} from './taskErrors';
import type { PollResult } from './taskReads';
import { DEFAULT_CONCURRENCY, readTasks, TalkingVideoList } from './taskReads';

/**
 * Submitting many video tasks and waiting on them together. `runTasks` is the entry; `TaskRun` holds
 * one batch's state and its steps: submit (`submitWaiting`), give up on items out of time
 * (`expire`), read the tasks due (`readRound`) and take in what a read says (`takeRead`).
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: VisionStoryError };

/** One item's video: its last read, and whether the service made it for this call. */
export interface VideoResult {
	/** Finished when the batch waited; otherwise as read right after the create (just the id when that read failed). */
	task: VideoTask | { video_id: string };
	/** Returned for a key that had already made it: no new video, no new charge. */
	existing: boolean;
	/** The client_request_id it belongs to. */
	idempotencyKey?: string;
}

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
	/** Told how the batch is doing (a line naming `node`), at most every `progressEveryMs`, while it runs. */
	log?: { to: ProgressLog; node: string };
	progressEveryMs?: number;
}

/** One item to submit: its checked create request and call options, and how long it may take in all (queueing for a slot, and rendering when waited on). */
export interface TaskJob extends CreateJob {
	request: Checked<CreateName>;
	call?: CallOptions;
	timeoutMs: number;
}

/** What the progress lines are written to: n8n's logger in the nodes. */
export interface ProgressLog {
	info(message: string): void;
}

/** A line for the log while a batch runs, so a long execution shows how far it got. */
export function progressLine(node: string, p: Progress): string {
	const what = p.kind === 'aiVideo' ? 'AI videos' : 'talking videos';
	const budget =
		p.perSecond !== undefined
			? `; ${p.perSecond} requests/s${p.rateLimited ? `, ${p.rateLimited} rate limits met` : ''}`
			: '';
	return `VisionStory ${node}: ${p.submitted} of ${p.total} ${what} submitted, ${p.finished} finished, ${p.failed} failed, ${p.rendering} rendering, ${p.queued} to send${budget}`;
}

/** A submitted task being watched, keyed by its item. */
interface PendingTask {
	id: string;
	/** The key it was created under, told when a read shows it. */
	key?: string;
	/** A read showed it: missing from later reads, it is gone rather than not visible yet. */
	seen: boolean;
	failures: number;
	missing: number;
	/** Reads that showed it created without its link. */
	linkless: number;
	submittedAt: number;
	/** When a poll last saw it still rendering. */
	unfinishedAt?: number;
	/** When it is worth reading next: when it should be done, and never sooner than a poll interval after the last read. */
	dueAt: number;
}

/** Polls that may fail in a row (after the transport's own retries) before an item gives up. */
const MAX_POLL_FAILURES = 5;
/**
 * Rounds a task a read has shown may then be missing before it is taken as gone. One never shown
 * is not visible yet (a read replica behind): it is waited for within the item's time limit.
 */
const MAX_MISSING_ROUNDS = 3;
/** Reads a task reported created may come without its link before it is taken as it is (its file missing). */
export const MAX_LINKLESS_READS = 3;
const DEFAULT_PROGRESS_EVERY_MS = 30_000;

/** Why an item not yet submitted is held back. */
type Hold =
	/** A rate limit refused it: sent again, slower (the answer kept in case its time runs out). */
	| { reason: 'rateLimit'; error: VisionStoryError }
	/** The spend cap waits on an earlier video's price: sent again after the next read. */
	| { reason: 'price'; error: VisionStoryError };

class TaskRun {
	private readonly concurrency: number;
	private readonly started = Date.now();
	private readonly deadlines: number[];
	private readonly outcomes: Array<Outcome<VideoResult> | undefined>;
	/** Items to submit, in order. */
	private readonly waiting: number[];
	/** Items whose submission waits for the next read round (the spend cap needs a price first). */
	private afterRead: number[] = [];
	// By item: two items can share a task (the same idempotency key), each with its own time limit.
	private readonly pending = new Map<number, PendingTask>();
	private readonly created = new Map<number, CreatedVideo>();
	private readonly holds = new Map<number, Hold>();
	/** Items an attempt of which may have reached the service, with the key it went under. */
	private readonly reached = new Map<number, string | undefined>();
	private slotLimit: { limit?: number; inFlight?: number } | undefined;
	private readonly renders = new RenderTimes();
	private readonly list = new TalkingVideoList();
	private lastRound = -Infinity;
	private readonly counts = { submitted: 0, finished: 0, failed: 0 };
	private lastReport: number;
	/** Creates under way: a video whose price a held item waits on may be among them. */
	private submitting = 0;

	constructor(
		private readonly client: VisionStoryClient,
		private readonly kind: TaskKind,
		private readonly jobs: TaskJob[],
		private readonly options: RunOptions,
	) {
		this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
		this.deadlines = jobs.map((job) => this.started + job.timeoutMs);
		this.outcomes = new Array<Outcome<VideoResult> | undefined>(jobs.length);
		this.waiting = jobs.map((_, i) => i);
		this.lastReport = this.started;
	}

	async run(): Promise<Array<Outcome<VideoResult>>> {
		const { signal, waitForCompletion, pollIntervalMs } = this.options;
		await this.submitWaiting();
		for (;;) {
			const now = Date.now();
			this.expire(now);
			const unsent = this.waiting.length + this.afterRead.length;
			if (unsent === 0 && (!waitForCompletion || this.pending.size === 0)) break;
			if (signal?.aborted) throw abortedError();
			// Talking videos sent again after a rate limit go at once: the budget paces them.
			if (this.kind === 'talkingVideo' && this.waiting.length > 0) {
				await this.submitWaiting();
				continue;
			}
			const roundAt = this.lastRoundAt(this.nextRoundAt());
			// Without waiting, polling only serves to notice freed slots and prices for the items still held.
			const polling = waitForCompletion || unsent > 0;
			const wake = Math.min(polling ? roundAt : Infinity, this.earliestDeadline());
			if (wake > now) {
				await this.client.sleep(wake === Infinity ? pollIntervalMs : wake - now, signal);
				continue;
			}
			if (!polling || roundAt > now) continue;
			// Tasks due within half an interval join this round rather than start a round of their own.
			const horizon = Date.now() + pollIntervalMs / 2;
			const due = [...this.pending]
				.filter(([, entry]) => entry.dueAt <= horizon)
				.sort(([, a], [, b]) => a.dueAt - b.dueAt);
			await this.readRound(due);
			this.waiting.push(...this.afterRead.splice(0));
			if (this.waiting.length > 0) await this.submitWaiting();
		}
		this.report(true);
		return this.outcomes.map((o) => o!);
	}

	private report(force = false): void {
		const { log, budget, progressEveryMs } = this.options;
		if (!log) return;
		const now = Date.now();
		if (!force && now - this.lastReport < (progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS)) return;
		this.lastReport = now;
		const stats = budget?.stats();
		log.to.info(
			progressLine(log.node, {
				kind: this.kind,
				total: this.jobs.length,
				...this.counts,
				rendering: this.pending.size,
				queued: this.waiting.length + this.afterRead.length,
				...(stats ? { perSecond: stats.perSecond, rateLimited: stats.rateLimited } : {}),
			}),
		);
	}

	/** An item's end as an error; one whose create may have reached the service says so, with its key. */
	private fail(index: number, error: VisionStoryError): void {
		const reached = this.reached.has(index) && !this.created.has(index);
		this.outcomes[index] = {
			ok: false,
			error: reached ? maybeCreatedError(this.kind, this.reached.get(index), error) : error,
		};
		this.counts.failed++;
	}

	private finish(index: number, task: VideoTask | { video_id: string }): void {
		const created = this.created.get(index);
		this.outcomes[index] = {
			ok: true,
			value: {
				task,
				existing: created?.existing ?? false,
				idempotencyKey: created?.idempotencyKey,
			},
		};
	}

	/** Sends one item's create (with its read-back and new attempts); the failure, if any, to act on. */
	private async submit(index: number): Promise<VisionStoryError | undefined> {
		const { signal, budget, pollIntervalMs } = this.options;
		this.submitting++;
		try {
			// Without waiting, the answer is all an item gets: read it back for its state and price.
			const created = await createVideo(this.client, this.kind, this.jobs[index], {
				signal,
				budget,
				readBack: !this.options.waitForCompletion,
			});
			this.created.set(index, created);
			const now = Date.now();
			this.pending.set(index, {
				id: created.video_id,
				key: created.idempotencyKey,
				seen: created.task !== undefined,
				failures: 0,
				missing: 0,
				linkless: 0,
				submittedAt: now,
				dueAt: now + (this.renderEstimate() ?? pollIntervalMs),
			});
			this.finish(index, created.task ?? { video_id: created.video_id });
			this.holds.delete(index);
			this.counts.submitted++;
			return undefined;
		} catch (error) {
			const failure = asError(error);
			if (failure.mayHaveReachedService) this.reached.set(index, failure.idempotencyKey);
			return failure;
		} finally {
			this.submitting--;
			this.report();
		}
	}

	/**
	 * Where a refused submission goes: held for a price (waiting, while a video of ours can tell it),
	 * or sent again after a rate limit; anything else ends the item. True when it is held.
	 */
	private hold(index: number, failure: VisionStoryError): boolean {
		// Only a video of this batch, rendering or being created, can tell the price it waits on.
		const watched = this.pending.size > 0 || this.submitting > 0;
		if (isPricePending(failure) && this.options.waitForCompletion && watched) {
			this.holds.set(index, { reason: 'price', error: failure });
			this.afterRead.push(index);
			return true;
		}
		if (isRateLimit(failure)) {
			this.holds.set(index, { reason: 'rateLimit', error: failure });
			return true;
		}
		return false;
	}

	private async submitWaiting(): Promise<void> {
		if (this.kind === 'talkingVideo') {
			const batch = this.waiting.splice(0, this.waiting.length);
			const slots = new Slots(this.concurrency);
			await Promise.all(
				batch.map(async (index) => {
					await slots.take();
					try {
						const failure = await this.submit(index);
						if (!failure) return;
						if (!this.hold(index, failure)) this.fail(index, failure);
						else if (isRateLimit(failure)) this.waiting.push(index);
					} finally {
						slots.give();
					}
				}),
			);
			return;
		}
		await this.submitAiVideos();
	}

	/** AI videos one by one: the first concurrency refusal says the remaining ones would be refused too. */
	private async submitAiVideos(): Promise<void> {
		while (this.waiting.length > 0) {
			// Our own tasks already fill the known cap: sending now would only be refused again.
			const full = this.slotLimit?.limit !== undefined && this.pending.size >= this.slotLimit.limit;
			if (this.options.atLimit === 'queue' && full) return;
			const index = this.waiting[0];
			const failure = await this.submit(index);
			if (failure?.isConcurrencyLimit) {
				this.slotLimit = failure.concurrency;
				if (this.options.atLimit === 'queue') return;
				for (const refused of this.waiting.splice(0, this.waiting.length))
					this.fail(refused, refusedError(this.slotLimit));
				return;
			}
			if (failure && this.hold(index, failure)) {
				// Slowed by the budget (a rate limit), or waiting on a price: the rest follow it.
				if (isRateLimit(failure)) return;
				this.waiting.shift();
				continue;
			}
			if (failure) this.fail(index, failure);
			this.waiting.shift();
		}
	}

	/** Items whose time is up: queued ones were never sent; rendering ones keep rendering. */
	private expire(now: number): void {
		for (const queue of [this.waiting, this.afterRead]) {
			for (let i = queue.length - 1; i >= 0; i--) {
				const index = queue[i];
				if (this.deadlines[index] > now) continue;
				const hold = this.holds.get(index);
				const timeoutMs = this.jobs[index].timeoutMs;
				this.fail(
					index,
					hold?.reason === 'rateLimit'
						? rateLimitedError(timeoutMs, hold.error)
						: hold?.reason === 'price'
							? hold.error
							: slotTimeoutError(timeoutMs, this.slotLimit),
				);
				queue.splice(i, 1);
			}
		}
		if (!this.options.waitForCompletion) return;
		for (const [index, entry] of this.pending) {
			if (this.deadlines[index] > now) continue;
			const timeoutMs = this.jobs[index].timeoutMs;
			this.fail(
				index,
				entry.seen
					? timeoutError(this.kind, [entry.id], timeoutMs)
					: notVisibleError(this.kind, entry.id, entry.key, timeoutMs),
			);
			this.pending.delete(index);
		}
	}

	/** Reads the tasks due, earliest first, and takes in whatever else the answers show. */
	private async readRound(due: Array<[number, PendingTask]>): Promise<void> {
		const { signal, budget } = this.options;
		const readAt = Date.now();
		this.lastRound = readAt;
		const known = new Set([...this.pending.values()].map((entry) => entry.id));
		const ids = due.map(([, entry]) => entry.id);
		if (this.kind === 'aiVideo') {
			// A batch call holds 20 ids whoever they are: the rest of a call goes to tasks not due yet.
			const room = Math.ceil(ids.length / AI_VIDEO_BATCH_MAX) * AI_VIDEO_BATCH_MAX - ids.length;
			const asked = new Set(ids);
			ids.push(...[...known].filter((id) => !asked.has(id)).slice(0, room));
		}
		const results = await readTasks(
			this.client,
			this.kind,
			ids,
			{ concurrency: this.concurrency, signal, budget, list: this.list },
			known,
		);
		const dueItems = new Set(due.map(([index]) => index));
		for (const [index, entry] of this.pending)
			this.takeRead(index, entry, results.get(entry.id), readAt, dueItems.has(index));
		this.report();
	}

	/** What one read says of one item's task: still rendering, finished, failed, missing or unreadable. */
	private takeRead(
		index: number,
		entry: PendingTask,
		result: PollResult,
		readAt: number,
		wasDue: boolean,
	): void {
		const { pollIntervalMs, waitForCompletion } = this.options;
		// A task never shown that a read says is not there is not visible yet: waited for, in time.
		const notYet =
			!entry.seen &&
			(result === undefined || (result instanceof VisionStoryError && result.status === 404));
		if (notYet) {
			if (wasDue || result !== undefined) entry.dueAt = readAt + pollIntervalMs;
			return;
		}
		if (result instanceof VisionStoryError) {
			// A rate limit says nothing about the task: the budget has slowed down, the read comes again.
			if (!isRateLimit(result)) entry.failures++;
			entry.dueAt = readAt + pollIntervalMs;
			if (result.status === 404 || entry.failures >= MAX_POLL_FAILURES) {
				if (waitForCompletion) this.fail(index, result);
				this.pending.delete(index);
			}
			return;
		}
		if (result === undefined) {
			// Only a task asked for can be missing; the others were simply not on the pages read.
			if (!wasDue) return;
			entry.dueAt = readAt + pollIntervalMs;
			if (++entry.missing >= MAX_MISSING_ROUNDS) {
				if (waitForCompletion) this.fail(index, notFoundError(entry.id));
				this.pending.delete(index);
			}
			return;
		}
		entry.failures = 0;
		if (!entry.seen) noteSeen(entry.key, entry.id);
		entry.seen = true;
		// Created means its link is set (the contract): one without it is read again a few times first.
		const linkless = result.status === 'created' && !result.video_url;
		if (!isFinished(result) || (linkless && entry.linkless++ < MAX_LINKLESS_READS)) {
			entry.unfinishedAt = readAt;
			if (!linkless) this.renders.unfinished(entry, readAt);
			if (wasDue || entry.dueAt <= readAt + pollIntervalMs) {
				entry.dueAt = Math.max(
					readAt + pollIntervalMs,
					entry.submittedAt + (linkless ? 0 : (this.renderEstimate() ?? 0)),
				);
			}
			return;
		}
		this.renders.finished(entry, readAt);
		this.pending.delete(index);
		if (!waitForCompletion) return;
		if (result.status === 'created') {
			this.finish(index, result);
			this.counts.finished++;
		} else this.fail(index, taskFailedError(this.kind, result));
	}

	/**
	 * When a render should be done. Under a concurrency cap every render still queued is read by it, so
	 * the estimate weighs narrowing it (a read too early costs a poll interval) against those renders.
	 */
	private renderEstimate(): number | undefined {
		if (this.kind !== 'aiVideo' || !this.slotLimit) return this.renders.estimate();
		const slots = Math.max(1, this.slotLimit.limit ?? this.pending.size);
		return this.renders.estimate({
			renders: Math.ceil(this.waiting.length / slots),
			earlyCostMs: this.options.pollIntervalMs,
		});
	}

	private earliestDeadline(): number {
		let earliest = Infinity;
		for (const index of [...this.waiting, ...this.afterRead])
			earliest = Math.min(earliest, this.deadlines[index]);
		if (this.options.waitForCompletion)
			for (const index of this.pending.keys()) earliest = Math.min(earliest, this.deadlines[index]);
		return earliest;
	}

	/**
	 * The last read of a batch (nothing left to submit, every task due within half an interval of the
	 * round) waits for the last of them to be due, so one read finds them all done: read at the first
	 * one's time, the later ones would wait a whole interval more for the next.
	 */
	private lastRoundAt(roundAt: number): number {
		if (roundAt === Infinity || this.waiting.length + this.afterRead.length > 0) return roundAt;
		const horizon = roundAt + this.options.pollIntervalMs / 2;
		let latest = roundAt;
		for (const entry of this.pending.values()) {
			if (entry.dueAt > horizon) return roundAt;
			latest = Math.max(latest, entry.dueAt);
		}
		return latest;
	}

	/** The next read: when the first pending task is due, and no sooner than a poll interval after the last. */
	private nextRoundAt(): number {
		let due = Infinity;
		for (const entry of this.pending.values()) due = Math.min(due, entry.dueAt);
		// Items held with none of ours rendering: try them again every poll interval.
		if (due === Infinity && this.waiting.length + this.afterRead.length > 0) due = -Infinity;
		return due === Infinity
			? Infinity
			: Math.max(this.lastRound + this.options.pollIntervalMs, due);
	}
}

/**
 * Submits every item first, then waits on all of them together, each read when it should be done:
 * AI videos through the batch status call (20 ids a request), talking videos from the list when the
 * service's answer carries full tasks, else one read each. Every request waits for a slot in the
 * credential's budget. An AI-video submission refused by the per-key concurrency cap is queued and
 * sent again once one of our tasks frees a slot, or refused at once (`atLimit`); a submission refused
 * by a rate limit is sent again, slower; one the spend cap holds until an earlier video's price is
 * known is sent after the next read. Each item keeps its own time limit.
 */
export async function runTasks(
	client: VisionStoryClient,
	kind: TaskKind,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoResult>>> {
	return await new TaskRun(client, kind, jobs, options).run();
}
