/**
 * What Talking Video and AI Video share: Node-RED's side of the core's video pipeline (batches
 * submitted and waited on together, the pick-up after a deploy, Check Status, Get), Get Many, Delete,
 * as operations both nodes list (`videoOperations`) with the properties both end with (`videoFields`).
 * The core waits, reads and downloads; this file reads the node's properties, hands the core how a
 * file is delivered (a Buffer or a file on disk) and the status callbacks, and puts what comes back
 * into the message.
 */
import type { Checked, MadeVideo, Outcome, PipelineHost, TaskKind } from './api';
import {
	VisionStoryError,
	followVideos,
	invalidInput,
	itemTimeoutMs,
	KIND_WORDS,
	makeVideos,
	readVideos,
	repeatedKeyErrors,
	waitSettings,
} from './api';
import type { Context } from './context';
import type { MsgError } from './errors';
import { describe } from './errors';
import type { Field } from './field';
import { downloadFields, idempotencyField, listFields, videoIdField, waitFields } from './fields';
import { collect, statusFilter } from './lists';
import { deliver } from './media';
import type { Operation, Result } from './operation';

type CreateName = 'createTalkingVideo' | 'createAiVideo';
const CREATE: Record<TaskKind, CreateName> = {
	talkingVideo: 'createTalkingVideo',
	aiVideo: 'createAiVideo',
};
/** The node that fetches a video again, as the palette names it. */
const NODE_NAME: Record<TaskKind, string> = { talkingVideo: 'talking video', aiVideo: 'ai video' };

/** The entries of a message: msg.payload as an array is a batch, anything else one entry. */
function entriesOf(context: Context, scriptName: string): Context[] {
	const payload = context.msg.payload;
	if (!Array.isArray(payload)) return [context];
	if (payload.length === 0)
		throw invalidInput(context.operation, [{ field: 'msg.payload', message: 'is an empty batch' }]);
	return payload.map((entry, index) => context.forEntry(entry, scriptName, index));
}

/** The waiting properties by the names the n8n node gives them; Node-RED's nodes always hold an item for a free slot. */
function settingsOf(context: Context) {
	const settings = waitSettings({
		waitForCompletion: context.boolean('waitForCompletion'),
		pollIntervalSeconds: context.number('pollIntervalSeconds'),
		atConcurrencyLimit: 'holdForSlot',
	});
	// One Timeout for both: how long a video is waited on, or held for a slot when not waited on.
	const minutes = context.number('timeoutMinutes');
	const timeoutMs = itemTimeoutMs(
		{ timeoutMinutes: minutes, slotWaitMinutes: minutes ?? 30 },
		settings.waitForCompletion,
	);
	return { ...settings, timeoutMs };
}

/** How the core delivers this message's files (`deliver`: a Buffer, or a file under Output File) and says where to get one later. */
function pipelineHost(context: Context, count: number): PipelineHost<Buffer | string> {
	return {
		store: async (download, videoId, _type, index) =>
			await deliver(context, download, videoId, index, count),
		again: (kind, task) =>
			`Fetch it later with a ${NODE_NAME[kind]} node, operation Get, msg.videoId = "${task.video_id}" and Download result on, or download video_url directly.`,
	};
}

/**
 * Create: every entry checked first (one bad entry refuses the message, nothing sent), then all
 * submitted and, when waiting, waited on together; results in input order. The status ring counts the
 * submissions ("submitting 3/10", then "rendering 10"); each paid video waited on is kept in the
 * node's context until it is delivered.
 */
export async function createVideos(
	context: Context,
	kind: TaskKind,
	scriptName: string,
	build: (entry: Context) => Promise<Checked<CreateName>> | Checked<CreateName>,
): Promise<Result> {
	const entries = entriesOf(context, scriptName);
	const { timeoutMs, ...settings } = settingsOf(context);
	const wait = settings.waitForCompletion;
	const requests: Array<Checked<CreateName>> = [];
	for (const [index, entry] of entries.entries()) {
		try {
			requests.push(await build(entry));
		} catch (error) {
			throw atEntry(error, index, entries.length);
		}
	}
	const keys = requests.map((r) => (r as { client_request_id?: string | null }).client_request_id);
	const [shared] = repeatedKeyErrors(keys, CREATE[kind], {
		field: context.label('idempotencyKey'),
		items: 'batch entries',
	}).values();
	if (shared) throw shared;
	const batch = Array.isArray(context.msg.payload);
	const total = requests.length;
	let submitted = 0;
	context.status('submitting', { done: 0, total });
	const outcomes = await makeVideos(
		context.client,
		kind,
		requests.map((request, index) => ({
			request,
			call: context.options(index),
			timeoutMs,
			download: wait && context.boolean('downloadResult'),
		})),
		{
			...settings,
			signal: context.signal,
			budget: context.budget,
			reports: {
				submitted(_index, videoId) {
					submitted++;
					if (wait) context.host.submitted(kind, [videoId]);
					if (submitted < total || !wait) context.status('submitting', { done: submitted, total });
					else context.status('rendering', { total });
				},
			},
		},
		pipelineHost(context, batch ? total : 1),
	);
	return { ...videoResults(outcomes, batch), submitted: !wait };
}

/**
 * Picks up a video an earlier node with this id was waiting on (after a deploy or a restart): waited on
 * as a create waits (to its end, or the node's Timeout counted from `since`), then fetched when asked.
 */
export async function resumeVideo(
	context: Context,
	kind: TaskKind,
	videoId: string,
	since: number,
): Promise<Result> {
	const { timeoutMs, pollIntervalMs } = settingsOf(context);
	const [outcome] = await followVideos(
		context.client,
		kind,
		[{ videoId, since, timeoutMs, download: context.boolean('downloadResult') }],
		{ pollIntervalMs, signal: context.signal, budget: context.budget },
		pipelineHost(context, 1),
	);
	return videoResults([outcome], false);
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

/**
 * Outcomes into the message: a single entry as it is, a batch as arrays in input order (null where one
 * failed). A video whose file could not be fetched is paid: it is kept, with `downloadError` saying why
 * and how to get the file (a single message leaves by the failure output with it as its payload).
 */
function videoResults(
	outcomes: Array<Outcome<MadeVideo<Buffer | string>>>,
	batch: boolean,
): Result {
	const errors: MsgError[] = [];
	const data: unknown[] = [];
	const payload: unknown[] = [];
	for (const [index, outcome] of outcomes.entries()) {
		if (!outcome.ok) {
			errors.push({ ...describe(outcome.error), index });
			data[index] = payload[index] = null;
			continue;
		}
		const { task, file, downloadError } = outcome.value;
		data[index] = downloadError ? { ...task, downloadError } : task;
		payload[index] = file ?? data[index];
		if (downloadError)
			errors.push({
				message: downloadError,
				index,
				videoIds: [task.video_id],
				category: 'download',
			});
	}
	if (batch) return { payload, data, errors, batch: true };
	const [first] = outcomes;
	if (!first.ok) throw first.error;
	return { payload: payload[0], data: data[0], ...(errors.length ? { failure: errors[0] } : {}) };
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
async function checkVideo(context: Context, kind: TaskKind): Promise<Result> {
	const ids = videoIds(context);
	if (ids.length !== 1)
		context.fail(
			'videoId',
			`Check Status takes one video per message (got ${ids.length}); split the list first`,
		);
	const [read] = await readVideos(
		context.client,
		kind,
		ids,
		{ signal: context.signal, budget: context.budget, failedIsError: true },
		{ ...pipelineHost(context, 1), download: () => context.boolean('downloadResult') },
	);
	if (!read.ok) throw read.error;
	if (!read.finished) return { payload: read.value.task, data: read.value.task, output: 1 };
	return { ...videoResults([read], false), output: 0 };
}

/** Get: one or many videos by ID (AI videos 20 a call), with their files when asked. */
async function getVideos(context: Context, kind: TaskKind): Promise<Result> {
	const ids = videoIds(context);
	const batch = ids.length > 1 || Array.isArray(context.msg.payload);
	const download = context.boolean('downloadResult');
	// Only finished videos have a file; the others come as they are.
	const read = await readVideos(
		context.client,
		kind,
		ids,
		{ signal: context.signal, budget: context.budget, concurrency: 5 },
		{ ...pipelineHost(context, batch ? ids.length : 1), download: () => download },
	);
	return videoResults(read, batch);
}

async function listVideos(context: Context, kind: TaskKind): Promise<Result> {
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

async function deleteVideos(context: Context, kind: TaskKind): Promise<Result> {
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

/** Check Status, Get, Get Many and Delete, the same in both video nodes but for the kind they read. */
export function videoOperations(
	kind: TaskKind,
): Record<'check' | 'get' | 'getMany' | 'delete', Operation> {
	return {
		check: {
			value: 'check',
			label: 'Check Status',
			description:
				'Finished videos leave by output 1 and those still rendering by the last output (loop them through a Delay node back in); a failed render is reported like any failure',
			outputs: ['finished', 'still rendering'],
			run: (c) => checkVideo(c, kind),
		},
		get: {
			value: 'get',
			label: 'Get',
			description: `Read videos by ID${kind === 'aiVideo' ? ' (20 a call)' : ''}`,
			run: (c) => getVideos(c, kind),
		},
		getMany: {
			value: 'getMany',
			label: 'Get Many',
			description: `List your ${KIND_WORDS[kind]}s`,
			run: (c) => listVideos(c, kind),
		},
		delete: {
			value: 'delete',
			label: 'Delete',
			description: 'Delete videos (cancels and refunds one still rendering)',
			run: (c) => deleteVideos(c, kind),
		},
	};
}

/** The properties both video nodes end with: Create's key and waiting, then those of the operations above. */
export function videoFields(): Field[] {
	const create = ['create'];
	return [
		idempotencyField(create),
		...waitFields(create),
		videoIdField(['check', 'get', 'delete']),
		...downloadFields(['create', 'check', 'get']),
		{
			name: 'status',
			label: 'Status',
			type: 'string',
			default: '',
			ops: ['getMany'],
			tip: 'Comma-separated: queued, creating, created, failed. Empty: all.',
		},
		...listFields(['getMany']),
	];
}
