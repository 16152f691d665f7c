import { isFinished } from './contract';
import { VisionStoryError } from './errors';
import { RenderTimes } from './renderTimes';
import { isPricePending } from './spend';
import type { CreatedVideo } from './taskCreate';
import { notVisibleError, noteSeen } from './taskCreate';
import {
	isRateLimit,
	maybeCreatedError,
	notFoundError,
	rateLimitedError,
	slotTimeoutError,
	taskFailedError,
	timeoutError,
} from './taskErrors';
import type { PollResult } from './taskReads';
import type {
	Outcome,
	Progress,
	RunOptions,
	TaskJob,
	TaskKind,
	VideoResult,
	VideoTask,
} from './tasks';
import { MAX_LINKLESS_READS } from './tasks';

/**
 * What one batch of video tasks knows while `taskRun.ts` submits and waits on it, and the steps both
 * kinds take alike: an item submitted, refused, held or ended; items out of time given up; what a
 * read says of each task taken in; when the next read is due. No request is sent from here: the
 * runs in `taskRun.ts` send every create and every read, and hand the answers in.
 */

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
export interface PendingTask {
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

/** The tasks of a read round, by item, earliest due first. */
export type Due = Array<[number, PendingTask]>;

/** Polls that may fail in a row (after the transport's own retries) before an item gives up. */
const MAX_POLL_FAILURES = 5;
/**
 * Rounds a task a read has shown may then be missing before it is taken as gone. One never shown
 * is not visible yet (a read replica behind): it is waited for within the item's time limit.
 */
const MAX_MISSING_ROUNDS = 3;
const DEFAULT_PROGRESS_EVERY_MS = 30_000;

/** Why an item not yet submitted is held back. */
type Hold =
	/** A rate limit refused it: sent again, slower (the answer kept in case its time runs out). */
	| { reason: 'rateLimit'; error: VisionStoryError }
	/** The spend cap waits on an earlier video's price: sent again after the next read. */
	| { reason: 'price'; error: VisionStoryError };

export class Batch {
	private readonly started = Date.now();
	private readonly deadlines: number[];
	private readonly outcomes: Array<Outcome<VideoResult> | undefined>;
	/** Items to submit, in order. */
	readonly waiting: number[];
	/** Items whose submission waits for the next read round (the spend cap needs a price first). */
	readonly afterRead: number[] = [];
	// By item: two items can share a task (the same idempotency key), each with its own time limit.
	readonly pending = new Map<number, PendingTask>();
	private readonly created = new Map<number, CreatedVideo>();
	private readonly holds = new Map<number, Hold>();
	/** Items an attempt of which may have reached the service, with the key it went under. */
	private readonly reached = new Map<number, string | undefined>();
	/** The AI-video concurrency cap, as a refusal stated it. */
	slotLimit: { limit?: number; inFlight?: number } | undefined;
	private readonly renders = new RenderTimes();
	private lastRound = -Infinity;
	private readonly counts = { submitted: 0, finished: 0, failed: 0 };
	private lastReport: number;
	/** Creates under way: a video whose price a held item waits on may be among them. */
	submitting = 0;

	constructor(
		readonly kind: TaskKind,
		readonly jobs: TaskJob[],
		readonly options: RunOptions,
	) {
		this.deadlines = jobs.map((job) => this.started + job.timeoutMs);
		this.outcomes = new Array<Outcome<VideoResult> | undefined>(jobs.length);
		this.waiting = jobs.map((_, i) => i);
		this.lastReport = this.started;
	}

	/** Nothing left to send, and (when waiting) nothing left to wait on. */
	done(): boolean {
		const unsent = this.waiting.length + this.afterRead.length;
		return unsent === 0 && (!this.options.waitForCompletion || this.pending.size === 0);
	}

	/** Every item's outcome, once `done`. */
	results(): Array<Outcome<VideoResult>> {
		return this.outcomes.map((o) => o!);
	}

	/** The progress line when one is due (`force`: now), for the run's log. */
	progress(force = false): string | undefined {
		const { log, budget, progressEveryMs } = this.options;
		if (!log) return undefined;
		const now = Date.now();
		if (!force && now - this.lastReport < (progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS))
			return undefined;
		this.lastReport = now;
		const stats = budget?.stats();
		return progressLine(log.node, {
			kind: this.kind,
			total: this.jobs.length,
			...this.counts,
			rendering: this.pending.size,
			queued: this.waiting.length + this.afterRead.length,
			...(stats ? { perSecond: stats.perSecond, rateLimited: stats.rateLimited } : {}),
		});
	}

	/** An item's end as an error; one whose create may have reached the service says so, with its key. */
	fail(index: number, error: VisionStoryError): void {
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

	/** An item's create answered: its task is watched from now on. */
	submitted(index: number, created: CreatedVideo): void {
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
			dueAt: now + (this.renderEstimate() ?? this.options.pollIntervalMs),
		});
		this.finish(index, created.task ?? { video_id: created.video_id });
		this.holds.delete(index);
		this.counts.submitted++;
	}

	/** An item's create failed; one that may have reached the service is remembered with its key. */
	refused(index: number, failure: VisionStoryError): VisionStoryError {
		if (failure.mayHaveReachedService) this.reached.set(index, failure.idempotencyKey);
		return failure;
	}

	/**
	 * Where a refused submission goes: held for a price (waiting, while a video of ours can tell it),
	 * or sent again after a rate limit; anything else ends the item. True when it is held.
	 */
	hold(index: number, failure: VisionStoryError): boolean {
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

	/** Items whose time is up: queued ones were never sent; rendering ones keep rendering. */
	expire(now: number): void {
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

	/**
	 * What the run does next: sleep until a read or a deadline is due, read the tasks due (earliest
	 * first), or nothing (look again).
	 */
	next(now: number): { sleepMs: number } | { due: Due } | undefined {
		const { waitForCompletion, pollIntervalMs } = this.options;
		const roundAt = this.lastRoundAt(this.nextRoundAt());
		// Without waiting, polling only serves to notice freed slots and prices for the items still held.
		const polling = waitForCompletion || this.waiting.length + this.afterRead.length > 0;
		const wake = Math.min(polling ? roundAt : Infinity, this.earliestDeadline());
		if (wake > now) return { sleepMs: wake === Infinity ? pollIntervalMs : wake - now };
		if (!polling || roundAt > now) return undefined;
		// Tasks due within half an interval join this round rather than start a round of their own.
		const horizon = Date.now() + pollIntervalMs / 2;
		const due = [...this.pending]
			.filter(([, entry]) => entry.dueAt <= horizon)
			.sort(([, a], [, b]) => a.dueAt - b.dueAt);
		return { due };
	}

	/** A read round starts: its time, from which the next is counted. */
	roundStarts(): number {
		this.lastRound = Date.now();
		return this.lastRound;
	}

	/** The ids of every task watched: whatever a read shows of them is taken in. */
	known(): Set<string> {
		return new Set([...this.pending.values()].map((entry) => entry.id));
	}

	/** What a round's read says of every task watched, and the items held for it sent next. */
	takeReads(due: Due, results: Map<string, PollResult>, readAt: number): void {
		const dueItems = new Set(due.map(([index]) => index));
		for (const [index, entry] of this.pending)
			this.takeRead(index, entry, results.get(entry.id), readAt, dueItems.has(index));
		this.waiting.push(...this.afterRead.splice(0));
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
