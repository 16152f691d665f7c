import type { VisionStoryClient } from '../client';
import type { CallOptions } from '../exchange';
import { mapConcurrent } from '../concurrency';
import type { TaskStatus } from '../contract';
import { AI_VIDEO_BATCH_MAX, AiVideoDto, TalkingVideoDto } from '../contract';
import { VisionStoryError } from '../errors';
import type { TaskKind, VideoTask } from '../tasks';
import { LIMITS } from './cursor';

/**
 * An entry of a list: the whole task, or only its id (and perhaps its creation time) when the list
 * gives no status. The contract does not show `GET /api/v1/videos`'s answer, so both are plausible.
 */
export type Listed =
	| VideoTask
	| { video_id: string; created_at?: number | null; status?: undefined };

export function hasStatus(entry: Listed): entry is VideoTask {
	return typeof entry.status === 'string';
}

export interface Page {
	videos: Listed[];
	next_cursor?: number | null;
}

export interface ListRequest {
	cursor?: number;
	limit: number;
	status?: TaskStatus[];
}

/** How a kind's tasks are seen, and the endpoints that say it in a warning. */
export interface Endpoints {
	/** 'talking videos', 'AI videos'. */
	noun: string;
	list: string;
	/** How tasks are read by id when the list cannot tell their status. */
	read: string;
}

/** One kind of task as the trigger sees it: a newest-first list and a status lookup by id. */
export interface TaskSource {
	kind: TaskKind;
	endpoints: Endpoints;
	/** A page of the list; throws `UnusableList` when the service has no such list or answers it in no readable shape. */
	list(request: ListRequest): Promise<Page>;
	/** The current state of known tasks; an id missing from the answer could not be read this time. */
	check(ids: string[]): Promise<Map<string, VideoTask>>;
	/** Ids read by id in one poll at most. */
	checksPerPoll: number;
	/** Ids one status request reads. */
	checkBatch: number;
}

/** A call's outcome, so its failure can be looked at (and passed on) outside a catch clause. */
export async function settled<T>(call: Promise<T>): Promise<{ value: T } | { error: unknown }> {
	return await call.then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
}

/** The list cannot be used at all (no such endpoint, parameters refused, an answer without a list), as opposed to failing this time. */
export class UnusableList extends Error {
	constructor(readonly reason: string) {
		super(reason);
		this.name = 'UnusableList';
	}
}

function apiStatus(error: unknown): number | undefined {
	return error instanceof VisionStoryError && error.category === 'api' ? error.status : undefined;
}

/** Statuses that say the endpoint is not there (or not for GET), not that it failed this time. */
const ABSENT = [404, 405, 410, 501];
const REFUSED = [400, 422];

function describe(error: unknown): string {
	const status = apiStatus(error);
	const message = error instanceof Error ? error.message : String(error);
	return status !== undefined ? `HTTP ${status}: ${message}` : message;
}

/**
 * A list whose parameters are a guess: a refused status filter is asked again without it, and a list
 * that refuses the rest too is asked once more with nothing, as the official clients ask. What can
 * never be used (no endpoint, every form refused, no list in the answer) throws `UnusableList`;
 * anything else (5xx, network, 401) is a failure of this poll and is thrown as it came.
 */
export async function listTolerant(
	call: (request: Partial<ListRequest>) => Promise<Page>,
	request: ListRequest,
): Promise<Page> {
	const forms: Array<Partial<ListRequest>> = [request];
	if (request.status) forms.push({ cursor: request.cursor, limit: request.limit });
	forms.push({});
	let last: unknown;
	for (const form of forms) {
		const outcome = await settled(call(form));
		if ('value' in outcome) return outcome.value;
		const { error } = outcome;
		last = error;
		const status = apiStatus(error);
		if (error instanceof VisionStoryError && error.category === 'response')
			throw new UnusableList(describe(error));
		if (status !== undefined && ABSENT.includes(status)) throw new UnusableList(describe(error));
		if (status === undefined || !REFUSED.includes(status)) throw error;
	}
	throw new UnusableList(describe(last));
}

/** One list entry: a task as the contract shapes it, else its id alone; unreadable entries are skipped. */
function readEntry(kind: TaskKind, entry: unknown): Listed | undefined {
	const task = (kind === 'talkingVideo' ? TalkingVideoDto : AiVideoDto).safeParse(entry);
	if (task.success) return task.data as VideoTask;
	if (!entry || typeof entry !== 'object') return undefined;
	const { video_id: id, created_at: at } = entry as Record<string, unknown>;
	const videoId = typeof id === 'number' ? String(id) : id;
	if (typeof videoId !== 'string' || videoId === '') return undefined;
	const createdAt = typeof at === 'number' ? at : typeof at === 'string' ? Number(at) : undefined;
	return {
		video_id: videoId,
		...(createdAt !== undefined && Number.isFinite(createdAt) ? { created_at: createdAt } : {}),
	};
}

/**
 * A list answer's `data` read here rather than by the client, whose typed answer skips entries
 * without a status: the trigger needs their ids to read them one by one. A bare array is read as
 * the list itself; an answer without a list is a VisionStoryError of category `response`.
 */
export function readPage(kind: TaskKind, data: unknown): Page {
	const videos = Array.isArray(data) ? data : (data as { videos?: unknown } | null)?.videos;
	if (!Array.isArray(videos)) {
		throw new VisionStoryError({
			category: 'response',
			operation: kind === 'talkingVideo' ? 'listTalkingVideos' : 'listAiVideos',
			message: `VisionStory's list of ${kind === 'talkingVideo' ? 'talking' : 'AI'} videos has no videos field`,
		});
	}
	const next = Array.isArray(data) ? 0 : (data as { next_cursor?: unknown }).next_cursor;
	const nextCursor = typeof next === 'string' ? Number(next) : next;
	return {
		videos: videos.flatMap((entry) => readEntry(kind, entry) ?? []),
		next_cursor: typeof nextCursor === 'number' && Number.isFinite(nextCursor) ? nextCursor : 0,
	};
}

async function readList(
	client: VisionStoryClient,
	kind: TaskKind,
	request: Partial<ListRequest>,
	options: CallOptions,
): Promise<Page> {
	const name = kind === 'talkingVideo' ? 'listTalkingVideos' : 'listAiVideos';
	const checked = client.validate(name, request);
	return readPage(kind, await client.sendRaw(name, checked, options));
}

function isNotFound(error: unknown): boolean {
	return apiStatus(error) === 404;
}

/** Each kind's source over `client`; `options` go with every request (a host's abort signal, its request budget). */
export function taskSources(
	client: VisionStoryClient,
	options: CallOptions = {},
): Record<TaskKind, TaskSource> {
	return {
		talkingVideo: {
			kind: 'talkingVideo',
			endpoints: {
				noun: 'talking videos',
				list: 'GET /api/v1/videos',
				read: 'one by one (GET /api/v1/video)',
			},
			list: async (request) =>
				await listTolerant(
					async (r) => await readList(client, 'talkingVideo', r, options),
					request,
				),
			check: async (ids) => {
				const found = new Map<string, VideoTask>();
				await mapConcurrent(ids, LIMITS.checkConcurrency, async (id) => {
					// Gone (deleted, or past the 7-day retention): counted as a miss, not a failed poll.
					const task = await client
						.getTalkingVideo({ video_id: id }, options)
						.catch(async (error: unknown) => {
							if (isNotFound(error)) return undefined;
							return await Promise.reject(error);
						});
					if (task) found.set(id, task);
				});
				return found;
			},
			checksPerPoll: LIMITS.talkingChecksPerPoll,
			checkBatch: 1,
		},
		aiVideo: {
			kind: 'aiVideo',
			endpoints: {
				noun: 'AI videos',
				list: 'GET /api/v1/ai_videos',
				read: `by id, ${AI_VIDEO_BATCH_MAX} a request (GET /api/v1/ai_video?video_ids=)`,
			},
			list: async (request) =>
				await listTolerant(async (r) => await readList(client, 'aiVideo', r, options), request),
			check: async (ids) => {
				const found = new Map<string, VideoTask>();
				for (let i = 0; i < ids.length; i += AI_VIDEO_BATCH_MAX) {
					const videos = await client.getAiVideos(
						{ video_ids: ids.slice(i, i + AI_VIDEO_BATCH_MAX) },
						options,
					);
					for (const video of videos) found.set(video.video_id, video);
				}
				return found;
			},
			checksPerPoll: LIMITS.aiChecksPerPoll,
			checkBatch: AI_VIDEO_BATCH_MAX,
		},
	};
}
