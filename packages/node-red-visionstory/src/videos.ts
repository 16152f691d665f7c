/** What Talking Video and AI Video share: batches submitted and waited on together, Check, Get, Get Many, Delete. */
import type { Checked, Outcome, TaskJob, TaskKind, VideoTask } from './api';
import {
	TalkingVideoList,
	VisionStoryError,
	invalidInput,
	isFinished,
	notFoundError,
	readTasks,
	runTasks,
	taskFailedError,
} from './api';
import type { Context } from './context';
import type { MsgError } from './errors';
import { describe } from './errors';
import { collect, statusFilter } from './lists';
import { deliver } from './media';
import type { Result } from './operation';

type CreateName = 'createTalkingVideo' | 'createAiVideo';
const CREATE: Record<TaskKind, CreateName> = {
	talkingVideo: 'createTalkingVideo',
	aiVideo: 'createAiVideo',
};
const DOWNLOADS_AT_ONCE = 3;

/** The entries of a message: msg.payload as an array is a batch, anything else one entry. */
function entriesOf(context: Context, scriptName: string): Context[] {
	const payload = context.msg.payload;
	if (!Array.isArray(payload)) return [context];
	if (payload.length === 0)
		throw invalidInput(context.operation, [{ field: 'msg.payload', message: 'is an empty batch' }]);
	return payload.map((entry, index) => context.forEntry(entry, scriptName, index));
}

/**
 * Create: every entry checked first (one bad entry refuses the message, nothing sent), then all
 * submitted and, when waiting, waited on together; results in input order.
 */
export async function createVideos(
	context: Context,
	kind: TaskKind,
	scriptName: string,
	build: (entry: Context) => Promise<Checked<CreateName>> | Checked<CreateName>,
): Promise<Result> {
	const entries = entriesOf(context, scriptName);
	const wait = context.boolean('waitForCompletion');
	const pollIntervalMs = (context.number('pollIntervalSeconds') ?? 10) * 1000;
	const timeoutMs = (context.number('timeoutMinutes') ?? 30) * 60_000;
	const requests: Array<Checked<CreateName>> = [];
	for (const [index, entry] of entries.entries()) {
		try {
			requests.push(await build(entry));
		} catch (error) {
			throw atEntry(error, index, entries.length);
		}
	}
	const keys = requests.map((r) => (r as { client_request_id?: string | null }).client_request_id);
	const shared = keys.find((key, i) => key && keys.indexOf(key) !== i);
	if (shared)
		throw invalidInput(CREATE[kind], [
			{
				field: context.label('idempotencyKey'),
				message: `"${shared}" is shared by several entries of the batch; each video needs its own key (or leave it empty)`,
			},
		]);
	const jobs: TaskJob[] = requests.map((request, index) => ({
		request,
		call: context.options(index),
		timeoutMs,
	}));
	const outcomes = await runTasks(counting(context, kind, jobs.length, wait), kind, jobs, {
		waitForCompletion: wait,
		pollIntervalMs,
		atLimit: 'queue',
		signal: context.signal,
		budget: context.budget,
		log: { to: { info: () => undefined }, node: context.nodeId },
	});
	return {
		...(await videoResults(
			context,
			outcomes,
			wait && context.boolean('downloadResult'),
			Array.isArray(context.msg.payload),
		)),
		submitted: !wait,
	};
}

/**
 * The client, with its creates counted into the node's status ("submitting 3/10", then "rendering 10")
 * and, when waited on, told to the node as paid videos in flight.
 */
function counting(
	context: Context,
	kind: TaskKind,
	total: number,
	wait: boolean,
): typeof context.client {
	let submitted = 0;
	context.status('submitting', { done: 0, total });
	return new Proxy(context.client, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver) as unknown;
			if (property !== 'send' || typeof value !== 'function') return value;
			return async (...args: unknown[]) => {
				const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
				if (args[0] === CREATE.talkingVideo || args[0] === CREATE.aiVideo) {
					submitted++;
					const id = (answer as { video_id?: unknown } | undefined)?.video_id;
					if (wait && typeof id === 'string') context.host.submitted(kind, [id]);
					if (submitted < total || !wait) context.status('submitting', { done: submitted, total });
					else context.status('rendering', { total });
				}
				return answer;
			};
		},
	});
}

function atEntry(error: unknown, index: number, total: number): unknown {
	if (total === 1 || !(error instanceof VisionStoryError)) return error;
	return new VisionStoryError({
		category: error.category,
		operation: error.operation,
		message: `Batch entry #${index + 1}: ${error.message}`,
		hint: error.hint,
		issues: error.issues,
	});
}

/** Outcomes into the message: a single entry as it is, a batch as arrays in input order (null where one failed). */
async function videoResults(
	context: Context,
	outcomes: Array<Outcome<VideoTask | { video_id: string }>>,
	download: boolean,
	batch: boolean,
): Promise<Result> {
	const errors: MsgError[] = [];
	const data: unknown[] = [];
	const payload: unknown[] = [];
	let next = 0;
	const fetchOne = async () => {
		for (;;) {
			const index = next++;
			if (index >= outcomes.length) return;
			const outcome = outcomes[index];
			if (!outcome.ok) {
				errors.push({ ...describe(outcome.error), index });
				data[index] = null;
				payload[index] = null;
				continue;
			}
			const task = outcome.value as VideoTask;
			data[index] = task;
			payload[index] = task;
			const url = (task as { video_url?: string | null }).video_url;
			if (download && url) {
				try {
					const file = await context.client.download(url, { signal: context.signal });
					payload[index] = await deliver(
						context,
						file,
						task.video_id,
						index,
						batch ? outcomes.length : 1,
					);
				} catch (error) {
					// The video is made and paid: keep it, with why its file is missing.
					data[index] = { ...task, downloadError: describe(error).message };
					errors.push({ ...describe(error), index, videoIds: [task.video_id] });
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, outcomes.length) }, fetchOne));
	errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
	if (!batch) {
		if (errors.length) throw outcomes[0].ok ? errorFrom(errors[0]) : outcomes[0].error;
		return { payload: payload[0], data: data[0] };
	}
	return { payload, data, errors, batch: true };
}

function errorFrom(described: MsgError): VisionStoryError {
	return new VisionStoryError({
		category: 'api',
		message: described.message,
		hint: described.hint,
		videoIds: described.videoIds,
	});
}

/** Video IDs of the message: the property, msg.videoId, or what a create left in msg.payload. */
export function videoIds(context: Context): string[] {
	const ids = context.ids('videoId');
	if (ids.length) return ids;
	const payload = context.msg.payload;
	const fromPayload = (Array.isArray(payload) ? payload : [payload])
		.map((p) => (p && typeof p === 'object' ? (p as { video_id?: unknown }).video_id : undefined))
		.filter((id): id is string => typeof id === 'string' && id !== '');
	if (fromPayload.length) return fromPayload;
	return context.fail(
		'videoId',
		'is required (set it, send msg.videoId, or a msg.payload with video_id)',
	);
}

/** Check Status: finished videos leave by the first output, those still rendering by the second; a failed render is an error. */
export async function checkVideo(context: Context, kind: TaskKind): Promise<Result> {
	const ids = videoIds(context);
	if (ids.length !== 1)
		context.fail(
			'videoId',
			`Check Status takes one video per message (got ${ids.length}); split the list first`,
		);
	const [id] = ids;
	const tasks = await readTasks(context.client, kind, [id], {
		signal: context.signal,
		budget: context.budget,
		...(kind === 'talkingVideo' ? { list: new TalkingVideoList() } : {}),
	});
	const task = tasks.get(id);
	if (task === undefined) throw notFoundError(id);
	if (task instanceof VisionStoryError) throw task;
	if (!isFinished(task)) return { payload: task, data: task, output: 1 };
	if (task.status === 'failed') throw taskFailedError(kind, task);
	return {
		...(await videoResults(
			context,
			[{ ok: true, value: task }],
			context.boolean('downloadResult'),
			false,
		)),
		output: 0,
	};
}

/** Get: one or many videos by ID (AI videos 20 a call), with their files when asked. */
export async function getVideos(context: Context, kind: TaskKind): Promise<Result> {
	const ids = videoIds(context);
	const tasks = await readTasks(context.client, kind, ids, {
		signal: context.signal,
		budget: context.budget,
		concurrency: 5,
	});
	const outcomes = ids.map((id): Outcome<VideoTask> => {
		const task = tasks.get(id);
		if (task instanceof VisionStoryError) return { ok: false, error: task };
		if (!task) return { ok: false, error: notFoundError(id) };
		return { ok: true, value: task };
	});
	const download = context.boolean('downloadResult');
	// Only finished videos have a file; the others come as they are.
	return await videoResults(
		context,
		outcomes,
		download,
		ids.length > 1 || Array.isArray(context.msg.payload),
	);
}

export async function listVideos(context: Context, kind: TaskKind): Promise<Result> {
	const status = statusFilter(context) as
		| Array<'queued' | 'creating' | 'created' | 'failed'>
		| undefined;
	const videos = await collect(
		context,
		async (cursor, limit) =>
			kind === 'talkingVideo'
				? await context.call('listTalkingVideos', { cursor, limit, status })
				: await context.call('listAiVideos', { cursor, limit, status }),
		['videos'],
	);
	return { payload: videos };
}

export async function deleteVideos(context: Context, kind: TaskKind): Promise<Result> {
	const results = [];
	for (const id of videoIds(context)) {
		const answer =
			kind === 'talkingVideo'
				? await context.call('deleteTalkingVideo', { video_id: id })
				: await context.call('deleteAiVideo', { video_id: id });
		results.push({ video_id: id, ...answer });
	}
	return { payload: results.length === 1 ? results[0] : results };
}
