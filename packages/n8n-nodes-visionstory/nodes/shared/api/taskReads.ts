import { Slots } from './concurrency';
import type { RequestOf } from './contract';
import { AI_VIDEO_BATCH_MAX } from './contract';
import type { VisionStoryError } from './errors';
import type { RequestBudget } from './requestBudget';
import type { SpendingClient } from './spendingClient';
import { asError, isClientError } from './taskErrors';
import type { TaskKind, VideoTask } from './tasks';

/**
 * Reading the status of many video tasks the cheapest way the service allows: AI videos 20 ids a
 * call, talking videos from the list when its answer proved to carry full tasks, else one by one.
 */

/** Talking-video reads in flight at once, unless the caller says otherwise. */
export const DEFAULT_CONCURRENCY = 8;

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
		client: SpendingClient,
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
				// `send`, not the typed method: a spending client notes what the answer shows, without a detour.
				answer = await client.send(
					'listTalkingVideos',
					client.validate('listTalkingVideos', request),
					{ signal: options.signal, budget: options.budget },
				);
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
export function isComplete(task: VideoTask): boolean {
	return task.status !== 'created' || (typeof task.video_url === 'string' && task.video_url !== '');
}

async function readAiVideos(
	client: SpendingClient,
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
	client: SpendingClient,
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
					await client.send(
						'getTalkingVideo',
						client.validate('getTalkingVideo', { video_id: id }),
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
	client: SpendingClient,
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
