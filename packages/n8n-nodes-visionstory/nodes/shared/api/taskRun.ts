import { abortedError } from './clock';
import { Slots } from './concurrency';
import { AI_VIDEO_BATCH_MAX } from './contract';
import { isAborted, VisionStoryError } from './errors';
import { Attempt, RULES } from './intents';
import { RenderTimes } from './renderTimes';
import { isPricePending } from './spend';
import type { SpendingClient } from './spendingClient';
import type { CreatedVideo } from './taskCreate';
import { createVideo } from './taskCreate';
import {
	abortedWhileRendering,
	asError,
	goneError,
	isRateLimit,
	maybeCreatedError,
	rateLimitedError,
	refusedError,
	slotTimeoutError,
	taskFailedError,
	timeoutError,
} from './taskErrors';
import type { PollResult } from './taskReads';
import { DEFAULT_CONCURRENCY, readTasks, TalkingVideoList } from './taskReads';
import type {
	FollowJob,
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
 * The wait: many video tasks submitted and waited on together, in one loop for both kinds. Read top
 * to bottom: the loop (`runTasks`, and `followTasks` for videos that exist already), each kind's
 * strategy (how it submits, how it reads), then what a run knows (`Run`). What a read proves is noted
 * in each item's attempt and judged by the rule table (`intents.ts`): a wait ends on a final state or
 * at the item's Timeout, never on read errors or on a video missing from reads.
 */

/**
 * Submits every item first, then waits on all of them together, each read when it should be done.
 * Every request waits for a slot in the credential's budget. An AI-video submission refused by the
 * per-key concurrency cap is queued and sent again once one of our tasks frees a slot, or refused at
 * once (`atLimit`); a submission refused by a rate limit is sent again, slower; one the spend cap
 * holds until an earlier video's price is known is sent after the next read. Each item keeps its own
 * time limit.
 */
export async function runTasks(
	client: SpendingClient,
	kind: TaskKind,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoResult>>> {
	return await waitOn(client, new Run(kind, jobs, options));
}

/**
 * Waits on videos that exist already (n8n's Check Status loop, Node-RED's pick-up after a deploy or a
 * restart): the same loop and reads, nothing submitted; each until its final state or its Timeout
 * counted from `since`.
 */
export async function followTasks(
	client: SpendingClient,
	kind: TaskKind,
	jobs: FollowJob[],
	options: Omit<RunOptions, 'waitForCompletion' | 'atLimit'>,
): Promise<Array<Outcome<VideoResult>>> {
	return await waitOn(
		client,
		new Run(kind, jobs, { ...options, waitForCompletion: true, atLimit: 'queue' }),
	);
}

/** The one loop: give up on items out of time, sleep until the next read is due, read, take it in, send what waits. */
async function waitOn(client: SpendingClient, run: Run): Promise<Array<Outcome<VideoResult>>> {
	const { signal } = run.options;
	const strategy = run.kind === 'talkingVideo' ? talkingVideos(client, run) : aiVideos(client, run);
	try {
		await strategy.submit();
		for (;;) {
			const now = Date.now();
			run.expire(now);
			if (run.done()) break;
			if (signal?.aborted) throw abortedError();
			if (strategy.sendsAtOnce && run.waiting.length > 0) {
				await strategy.submit();
				continue;
			}
			const next = run.next(now);
			if (next && 'sleepMs' in next) await client.sleep(next.sleepMs, signal);
			if (!next || !('due' in next)) continue;
			const readAt = run.roundStarts();
			run.takeReads(next.due, await strategy.read(next.due), readAt);
			run.report();
			// An item held for this read whose time ran out meanwhile is not sent: it would be paid for nothing.
			run.expire(Date.now());
			if (run.waiting.length > 0) await strategy.submit();
		}
	} catch (error) {
		throw run.ended(error);
	}
	run.report(true);
	return run.results();
}

/**
 * What differs between the kinds: how items are sent, and how tasks are read. Each kind's strategy
 * keeps its own type, so go-to-definition from the loop lands on both kinds' code, not on this.
 */
interface Strategy {
	/** Sends the items waiting to be sent, as far as the kind allows now. */
	submit(): Promise<void>;
	/** Items left waiting go out again at once (the budget paces them), rather than after the next read. */
	readonly sendsAtOnce: boolean;
	/** Reads the tasks due; an id missing from the answer was not found. */
	read(due: Due): Promise<Map<string, PollResult>>;
}

/**
 * Talking videos: submitted side by side (`concurrency` at once), a rate-limited one sent again at
 * once (the budget paces it), read from the list when it proved to carry full tasks, else one by one.
 */
function talkingVideos(client: SpendingClient, run: Run) {
	const { signal, budget } = run.options;
	const concurrency = run.options.concurrency ?? DEFAULT_CONCURRENCY;
	const list = new TalkingVideoList();
	return {
		sendsAtOnce: true,
		async submit() {
			const slots = new Slots(concurrency);
			await allAnswered(
				run.waiting.splice(0, run.waiting.length).map(async (index) => {
					await slots.take();
					try {
						const failure = await submitOne(client, run, index);
						if (!failure) return;
						if (!run.hold(index, failure)) run.fail(index, failure);
						else if (isRateLimit(failure)) run.waiting.push(index);
					} finally {
						slots.give();
					}
				}),
			);
		},
		async read(due) {
			const ids = due.map(([, entry]) => entry.id);
			const options = { concurrency, signal, budget, list };
			return await readTasks(client, 'talkingVideo', ids, options, run.known());
		},
	} satisfies Strategy;
}

/**
 * AI videos: submitted one by one, the first refusal by the per-key concurrency cap queueing the rest
 * until one of ours frees a slot (or refusing them, `atLimit`), read 20 ids a call, each call filled
 * with tasks not due yet.
 */
function aiVideos(client: SpendingClient, run: Run) {
	const { signal, budget, atLimit } = run.options;
	const concurrency = run.options.concurrency ?? DEFAULT_CONCURRENCY;
	return {
		sendsAtOnce: false,
		async submit() {
			while (run.waiting.length > 0) {
				// Our own tasks already fill the known cap: sending now would only be refused again.
				const full = run.slotLimit?.limit !== undefined && run.pending.size >= run.slotLimit.limit;
				if (atLimit === 'queue' && full) return;
				const index = run.waiting[0];
				const failure = await submitOne(client, run, index);
				if (failure?.isConcurrencyLimit) {
					run.slotLimit = failure.concurrency;
					if (atLimit === 'queue') return;
					for (const refused of run.waiting.splice(0, run.waiting.length))
						run.fail(refused, refusedError(run.slotLimit));
					return;
				}
				if (failure && run.hold(index, failure)) {
					// Slowed by the budget (a rate limit), or waiting on a price: the rest follow it.
					if (isRateLimit(failure)) return;
					run.waiting.shift();
					continue;
				}
				if (failure) run.fail(index, failure);
				run.waiting.shift();
			}
		},
		async read(due) {
			// A batch call holds 20 ids whoever they are: the rest of a call goes to tasks not due yet.
			const known = run.known();
			const ids = due.map(([, entry]) => entry.id);
			const room = Math.ceil(ids.length / AI_VIDEO_BATCH_MAX) * AI_VIDEO_BATCH_MAX - ids.length;
			const asked = new Set(ids);
			ids.push(...[...known].filter((id) => !asked.has(id)).slice(0, room));
			return await readTasks(client, 'aiVideo', ids, { concurrency, signal, budget }, known);
		},
	} satisfies Strategy;
}

/**
 * Waits for every create sent side by side, then throws the first failure (a cancel): a run that
 * ended on the first would leave the others on their way, to make videos no item knows of.
 */
async function allAnswered(sends: Array<Promise<void>>): Promise<void> {
	const failure = (await Promise.allSettled(sends)).find((s) => s.status === 'rejected');
	if (failure) throw failure.reason;
}

/**
 * Sends one item's create (with its read-back and new attempts); the failure, if any, to act on. A
 * cancel is thrown on, once the run has noted whether the create may have reached the service.
 */
async function submitOne(
	client: SpendingClient,
	run: Run,
	index: number,
): Promise<VisionStoryError | undefined> {
	const { signal, budget, waitForCompletion, pollIntervalMs } = run.options;
	run.submitting++;
	try {
		// Without waiting, the answer is all an item gets: read it back for its state and price.
		const created = await createVideo(client, run.kind, run.jobs[index] as TaskJob, {
			signal,
			budget,
			readBack: !waitForCompletion,
			pollIntervalMs,
		});
		run.submitted(index, created);
		return undefined;
	} catch (error) {
		if (error instanceof VisionStoryError) run.refused(index, error);
		return asError(error);
	} finally {
		run.submitting--;
		run.report();
	}
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
	/** What the service showed of it, in the intent's record: the rules read it. */
	attempt: Attempt;
	/** Reads that showed it created without its link. */
	linkless: number;
	submittedAt: number;
	/** When a poll last saw it still rendering. */
	unfinishedAt?: number;
	/** When it is worth reading next: when it should be done, and never sooner than a poll interval after the last read. */
	dueAt: number;
}

/** The tasks of a read round, by item, earliest due first. */
type Due = Array<[number, PendingTask]>;

const DEFAULT_PROGRESS_EVERY_MS = 30_000;

/** Why an item not yet submitted is held back. */
type Hold =
	/** A rate limit refused it: sent again, slower (the answer kept in case its time runs out). */
	| { reason: 'rateLimit'; error: VisionStoryError }
	/** The spend cap waits on an earlier video's price: sent again after the next read. */
	| { reason: 'price'; error: VisionStoryError };

/**
 * What one run knows while the loop submits and waits: items submitted, refused, held or ended; items
 * out of time given up; what a read says of each task; when the next read is due. It sends nothing.
 */
class Run {
	private readonly started = Date.now();
	private readonly deadlines: number[];
	private readonly outcomes: Array<Outcome<VideoResult> | undefined>;
	/** Items to submit, in order. */
	readonly waiting: number[] = [];
	/** Items whose submission waits for the next read round (the spend cap needs a price first). */
	private readonly afterRead: number[] = [];
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
		readonly jobs: Array<TaskJob | FollowJob>,
		readonly options: RunOptions,
	) {
		this.deadlines = jobs.map(
			(job) => ('videoId' in job ? job.since : this.started) + job.timeoutMs,
		);
		this.outcomes = new Array<Outcome<VideoResult> | undefined>(jobs.length);
		this.lastReport = this.started;
		for (const [index, job] of jobs.entries()) {
			if (!('videoId' in job)) {
				this.waiting.push(index);
				continue;
			}
			// A video that exists: its key is not sent again, so it is never taken as gone.
			const attempt = new Attempt(job.key ?? '');
			attempt.answered(job.videoId, job.since);
			this.watch(index, attempt, job.since, this.started);
			this.finish(index, { video_id: job.videoId });
		}
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

	/** Tells the host how the batch is doing, and writes the progress line when one is due (`force`: now). */
	report(force = false): void {
		const { log, budget, progressEveryMs, reports } = this.options;
		const stats = budget?.stats();
		const progress: Progress = {
			kind: this.kind,
			total: this.jobs.length,
			...this.counts,
			rendering: this.pending.size,
			queued: this.waiting.length + this.afterRead.length,
			...(stats ? { perSecond: stats.perSecond, rateLimited: stats.rateLimited } : {}),
		};
		reports?.progress?.(progress);
		if (!log) return;
		const now = Date.now();
		if (!force && now - this.lastReport < (progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS)) return;
		this.lastReport = now;
		log.to.info(progressLine(log.node, progress));
	}

	/**
	 * What ends the run early, as thrown: a cancel names every video made and still rendering, with its
	 * key, and the key of every create that may have made one without an answer naming it; anything
	 * else (a bug) goes on as it is.
	 */
	ended(cause: unknown): unknown {
		if (!isAborted(cause)) return cause;
		const made = [...this.pending.values()].map((entry) => ({
			id: entry.id,
			key: entry.attempt.key || undefined,
		}));
		const unique = [...new Map(made.map((m) => [m.id, m])).values()];
		const maybe = [...this.reached]
			.filter(([index]) => !this.created.has(index))
			.map(([, key]) => key);
		return abortedWhileRendering(this.kind, cause as VisionStoryError, unique, [...new Set(maybe)]);
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
		const job = this.jobs[index];
		this.outcomes[index] = {
			ok: true,
			value: {
				task,
				existing: created?.existing ?? false,
				idempotencyKey: created?.idempotencyKey ?? ('videoId' in job ? job.key : undefined),
			},
		};
	}

	private watch(index: number, attempt: Attempt, submittedAt: number, now: number): void {
		this.pending.set(index, {
			id: attempt.videoId!,
			attempt,
			linkless: 0,
			submittedAt,
			dueAt: now + (this.renderEstimate() ?? this.options.pollIntervalMs),
		});
	}

	/** An item's create answered: its task is watched from now on, and the host told. */
	submitted(index: number, created: CreatedVideo): void {
		this.created.set(index, created);
		const now = Date.now();
		this.watch(index, created.attempt, now, now);
		this.finish(index, created.task ?? { video_id: created.video_id });
		this.holds.delete(index);
		this.counts.submitted++;
		this.options.reports?.submitted?.(index, created.video_id, created.idempotencyKey);
	}

	/** An item's create failed (or was cancelled); one that may have reached the service is remembered with its key. */
	refused(index: number, failure: VisionStoryError): void {
		if (failure.mayHaveReachedService) this.reached.set(index, failure.idempotencyKey);
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
			if (now < this.deadlines[index]) continue;
			this.fail(index, timeoutError(this.kind, entry.attempt, this.jobs[index].timeoutMs));
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

	/**
	 * What one read says of one item's task, noted in its attempt: still rendering, finished, failed,
	 * not found, or unreadable. Only a final state (or the rules' verdict that it will never come) ends
	 * the item here; a read error or a 404 is noted and the task read again.
	 */
	private takeRead(
		index: number,
		entry: PendingTask,
		result: PollResult,
		readAt: number,
		wasDue: boolean,
	): void {
		const { pollIntervalMs, waitForCompletion } = this.options;
		const { attempt } = entry;
		const notFound = result instanceof VisionStoryError && result.status === 404;
		if (result === undefined && !wasDue) return; // only a task asked for can be missing
		if (result === undefined || notFound) attempt.absent(notFound ? 'notFound' : 'missing', readAt);
		else if (result instanceof VisionStoryError) attempt.readFailed(result, readAt);
		else attempt.seen(result.status, readAt);
		const task = result instanceof VisionStoryError ? undefined : result;
		// Created means its link is set (the contract): one without it is read again a few times first.
		const linkless = task?.status === 'created' && !task.video_url;
		const settled =
			linkless && entry.linkless++ < MAX_LINKLESS_READS
				? undefined
				: RULES.settled(attempt, pollIntervalMs);
		if (!settled && task) {
			entry.unfinishedAt = readAt;
			if (!linkless) this.renders.unfinished(entry, readAt);
		}
		if (!settled) {
			if (!task || wasDue || entry.dueAt <= readAt + pollIntervalMs) {
				const expected = task && !linkless ? (this.renderEstimate() ?? 0) : 0;
				entry.dueAt = Math.max(readAt + pollIntervalMs, entry.submittedAt + expected);
			}
			return;
		}
		if (!task) return this.end(index, goneError(this.kind, entry.id, attempt.key));
		this.renders.finished(entry, readAt);
		if (settled === 'failed') return this.end(index, taskFailedError(this.kind, task));
		this.pending.delete(index);
		if (!waitForCompletion) return;
		this.finish(index, task);
		this.counts.finished++;
	}

	/** A watched item ends with `error` (when its batch waits: otherwise its create's answer stands). */
	private end(index: number, error: VisionStoryError): void {
		this.pending.delete(index);
		if (this.options.waitForCompletion) this.fail(index, error);
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
