import type { CallOptions, Checked, VisionStoryClient } from './client';
import { abortedError } from './clock';
import { Slots } from './concurrency';
import type { RequestOf } from './contract';
import { AI_VIDEO_BATCH_MAX, isFinished } from './contract';
import { VisionStoryError } from './errors';
import { RenderTimes } from './renderTimes';
import type { RequestBudget } from './requestBudget';
import type { TaskKind, VideoTask } from './taskErrors';
import {
	asError,
	isClientError,
	isRateLimit,
	notFoundError,
	rateLimitedError,
	refusedError,
	slotTimeoutError,
	taskFailedError,
	timeoutError,
} from './taskErrors';

export type { TaskKind, VideoTask } from './taskErrors';
export { notFoundError, taskFailedError } from './taskErrors';

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

const CREATE: Record<TaskKind, CreateName> = {
	talkingVideo: 'createTalkingVideo',
	aiVideo: 'createAiVideo',
};

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
	failures: number;
	missing: number;
	submittedAt: number;
	/** When a poll last saw it still rendering. */
	unfinishedAt?: number;
	/** When it is worth reading next: when it should be done, and never sooner than a poll interval after the last read. */
	dueAt: number;
}

const DEFAULT_CONCURRENCY = 8;
/** Polls that may fail in a row (after the transport's own retries) before an item gives up. */
const MAX_POLL_FAILURES = 5;
/** Rounds a freshly created AI video may be missing from the batch answer while it registers. */
const MAX_MISSING_ROUNDS = 3;
const DEFAULT_PROGRESS_EVERY_MS = 30_000;

/** The service's view of one task, or why it could not be read this round. */
export type PollResult = VideoTask | VisionStoryError | undefined;

export interface ReadOptions {
	/** Single reads in flight at once. */
	concurrency?: number;
	signal?: AbortSignal;
	budget?: RequestBudget;
	/** What the list of talking videos was found to support, kept across the rounds of one wait. */
	list?: TalkingVideoList;
}

/** Asked of the list; the service may give fewer, or ignore it (its parameters are not in the contract). */
const LIST_PAGE_SIZE = 100;
/** Until a page showed how many it holds: the default of the service's other lists. */
const ASSUMED_PAGE_SIZE = 20;
/** Fewer tasks due than this are read one by one. */
const LIST_MIN_DUE = 4;

/**
 * What `GET /api/v1/videos` turned out to offer, learned from its answers (the contract leaves its
 * parameters and answer unstated). `unknown` until the first read; `unsupported` when it failed with
 * a client error, or when its first page showed none of the run's tasks in a readable entry (no status,
 * say); then whether `limit` and `cursor` had any effect. After that, nothing is concluded from a task
 * missing from the list: such a task is read on its own.
 */
export class TalkingVideoList {
	state: 'unknown' | 'supported' | 'unsupported' = 'unknown';
	/** Whether `limit` was accepted (dropped after a client error, once). */
	sendLimit = true;
	/** Whether following `next_cursor` led to new tasks; false once a page repeated an earlier one. */
	cursorMoves: boolean | undefined;
	/** The most tasks one page held: how many pages the tasks of a run may span. */
	pageSize = 0;
	/** List requests made. */
	requests = 0;

	/**
	 * Whether pages are cheaper than reading `due` tasks one by one, with `known` tasks of the run on
	 * them: a few videos are read the documented way, one by one.
	 */
	worthReading(due: number, known: number): boolean {
		return (
			this.state !== 'unsupported' &&
			due >= LIST_MIN_DUE &&
			due > Math.ceil(known / (this.pageSize || ASSUMED_PAGE_SIZE))
		);
	}

	/**
	 * Reads pages, newest first, until every wanted id was seen (or the pages run out or stop moving,
	 * or enough pages for every known id, plus one, are read). Returns the tasks seen that are among
	 * `known`, fully described.
	 */
	async read(
		client: VisionStoryClient,
		wanted: Set<string>,
		known: Set<string>,
		options: ReadOptions,
	): Promise<Map<string, VideoTask>> {
		const found = new Map<string, VideoTask>();
		if (this.state === 'unsupported') return found;
		const left = new Set(wanted);
		const seen = new Set<string>();
		const firstRead = this.state === 'unknown';
		let sawKnown = false;
		let cursor: number | undefined;
		const maxPages = () => Math.ceil(known.size / (this.pageSize || LIST_PAGE_SIZE)) + 1;
		for (let page = 0; page < maxPages() && left.size > 0; page++) {
			const request: RequestOf<'listTalkingVideos'> = {
				...(this.sendLimit ? { limit: LIST_PAGE_SIZE } : {}),
				...(cursor ? { cursor } : {}),
			};
			let answer: { videos: VideoTask[]; next_cursor?: number | null };
			try {
				this.requests++;
				answer = await client.listTalkingVideos(request, {
					signal: options.signal,
					budget: options.budget,
				});
			} catch (error) {
				const failure = asError(error);
				if (this.state === 'unknown' && this.sendLimit && isClientError(failure)) {
					// Perhaps only `limit` is unknown to it: once more as the official clients ask, with nothing.
					this.sendLimit = false;
					page--;
					continue;
				}
				if (this.state === 'unknown' && (isClientError(failure) || failure.category === 'response'))
					this.state = 'unsupported';
				return found;
			}
			this.state = 'supported';
			this.pageSize = Math.max(this.pageSize, answer.videos.length);
			let repeated = false;
			for (const task of answer.videos) {
				if (seen.has(task.video_id)) repeated = true;
				seen.add(task.video_id);
				if (!known.has(task.video_id)) continue;
				sawKnown = true;
				if (!isComplete(task)) continue;
				found.set(task.video_id, task);
				left.delete(task.video_id);
			}
			if (firstRead && !sawKnown) break;
			if (page > 0) this.cursorMoves = !repeated && (this.cursorMoves ?? true);
			const next = typeof answer.next_cursor === 'number' ? answer.next_cursor : 0;
			if (!next || next === cursor || this.cursorMoves === false) break;
			cursor = next;
		}
		// Entries it could not read (no status, say) are skipped by the lenient parser: a list that
		// showed none of this run's tasks is no use, whatever it answered.
		if (firstRead && !sawKnown) this.state = 'unsupported';
		return found;
	}
}

/** A list entry says as much as a single read: a finished video carries its link. */
function isComplete(task: VideoTask): boolean {
	return task.status !== 'created' || (typeof task.video_url === 'string' && task.video_url !== '');
}

async function readAiVideos(
	client: VisionStoryClient,
	ids: string[],
	options: ReadOptions,
): Promise<Map<string, PollResult>> {
	const chunks: string[][] = [];
	for (let i = 0; i < ids.length; i += AI_VIDEO_BATCH_MAX)
		chunks.push(ids.slice(i, i + AI_VIDEO_BATCH_MAX));
	const results = new Map<string, PollResult>();
	const slots = new Slots(4);
	await Promise.all(
		chunks.map(async (chunk) => {
			await slots.take();
			try {
				for (const [id, video] of await client.readAiVideos(chunk, {
					signal: options.signal,
					budget: options.budget,
				}))
					results.set(id, video);
			} catch (error) {
				for (const id of chunk) results.set(id, asError(error));
			} finally {
				slots.give();
			}
		}),
	);
	return results;
}

async function readTalkingVideos(
	client: VisionStoryClient,
	ids: string[],
	options: ReadOptions,
	known: Set<string>,
): Promise<Map<string, PollResult>> {
	const results = new Map<string, PollResult>();
	let single = ids;
	if (options.list?.worthReading(ids.length, known.size)) {
		// Newest first: the tasks of this run are on the first pages unless others were made since.
		const listed = await options.list.read(client, new Set(ids), known, options);
		for (const [id, task] of listed) results.set(id, task);
		single = ids.filter((id) => !listed.has(id));
	}
	const slots = new Slots(options.concurrency ?? DEFAULT_CONCURRENCY);
	await Promise.all(
		single.map(async (id) => {
			await slots.take();
			try {
				results.set(
					id,
					await client.getTalkingVideo(
						{ video_id: id },
						{ signal: options.signal, budget: options.budget },
					),
				);
			} catch (error) {
				results.set(id, asError(error));
			} finally {
				slots.give();
			}
		}),
	);
	return results;
}

/**
 * The current state of tasks by id, read the cheapest way the service allows: AI videos 20 ids a
 * call; talking videos from the list when it proved to carry full tasks, else one call each. `known`
 * (default: the ids themselves) are the ids whose state is worth keeping when a list page shows them.
 * An id missing from the map was not found.
 */
export async function readTasks(
	client: VisionStoryClient,
	kind: TaskKind,
	ids: string[],
	options: ReadOptions = {},
	known?: Set<string>,
): Promise<Map<string, PollResult>> {
	const unique = [...new Set(ids)];
	return kind === 'aiVideo'
		? await readAiVideos(client, unique, options)
		: await readTalkingVideos(client, unique, options, known ?? new Set(unique));
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
			pending.set(index, {
				id,
				failures: 0,
				missing: 0,
				submittedAt: now,
				dueAt: now + (renders.estimate() ?? pollIntervalMs),
			});
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
			if (
				options.atLimit === 'queue' &&
				slotLimit?.limit !== undefined &&
				pending.size >= slotLimit.limit
			)
				return;
			const index = waiting[0];
			const failure = await submit(index);
			if (failure?.isConcurrencyLimit) {
				slotLimit = failure.concurrency;
				if (options.atLimit === 'queue') return;
				for (const refused of waiting.splice(0, waiting.length))
					fail(refused, refusedError(slotLimit));
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
			fail(
				index,
				limited
					? rateLimitedError(jobs[index].timeoutMs, limited)
					: slotTimeoutError(jobs[index].timeoutMs, slotLimit),
			);
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
		const results = await readTasks(
			client,
			kind,
			ids,
			{ concurrency, signal, budget, list },
			known,
		);
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
					entry.dueAt = Math.max(
						readAt + pollIntervalMs,
						entry.submittedAt + (renders.estimate() ?? 0),
					);
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
		if (waitForCompletion)
			for (const index of pending.keys()) earliest = Math.min(earliest, deadlines[index]);
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
		const due = [...pending]
			.filter(([, entry]) => entry.dueAt <= horizon)
			.sort(([, a], [, b]) => a.dueAt - b.dueAt);
		await readRound(due);
		if (waiting.length > 0) await submitWaiting();
	}
	report(true);
	return outcomes.map((o) => o!);
}
