import type { IExecuteFunctions } from 'n8n-workflow';

import type { CallOptions } from '../api/exchange';
import { isFinished } from '../api/contract';
import { VisionStoryError } from '../api/errors';
import { repeatedKeys } from '../api/idempotency';
import { DEFAULT_REQUESTS_PER_SECOND } from '../api/requestBudget';
import type { Outcome, RunOptions, TaskJob, TaskKind, VideoResult } from '../api/tasks';
import { notFoundError, taskFailedError } from '../api/taskErrors';
import { readTasks, TalkingVideoList } from '../api/taskReads';
import { runTasks } from '../api/taskRun';
import { mediaParts } from '../n8n/binary';
import { requestBudgetOf } from '../n8n/client';
import type { RequestBudget } from '../api/requestBudget';
import type {
	ItemOutcome,
	Operation,
	OperationContext,
	OperationDescription,
	Prepared,
} from './action';
import { idempotencyContext } from './action';
import { videoItems } from './download';
import type { MediaRequest } from './mediaParams';
import { param } from './params';

/**
 * What the two video creates (talking video, AI video) and their Check Status share: the wait
 * settings, the jobs handed to `runTasks`, and reading many videos' status. Operations call these;
 * nothing here calls back into an operation.
 */

export type CreateName = 'createTalkingVideo' | 'createAiVideo';

const minutes = (value: unknown, fallback: number) =>
	Math.max(1, Number(value ?? fallback) || fallback) * 60_000;

/** "1, 2 and 3"; a long run of items is cut short. */
function itemList(numbers: number[]): string {
	if (numbers.length > 5)
		return `${numbers.slice(0, 3).join(', ')} … ${numbers[numbers.length - 1]} (${numbers.length} items)`;
	return `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/** A video create's items: talking videos or AI videos. */
type CreateItems =
	| Array<Prepared<MediaRequest<'createTalkingVideo'>>>
	| Array<Prepared<MediaRequest<'createAiVideo'>>>;

/**
 * Items given the same Idempotency Key: VisionStory would answer all of them with one video, so
 * each is refused before anything is sent.
 */
export function repeatedKeyErrors(
	endpoint: CreateName,
	items: CreateItems,
): Map<number, VisionStoryError> {
	const errors = new Map<number, VisionStoryError>();
	const keys = items.map((item) => item.request.request.client_request_id);
	for (const [key, positions] of repeatedKeys(keys)) {
		const error = new VisionStoryError({
			category: 'validation',
			operation: endpoint,
			message: 'Invalid input',
			issues: [
				{
					field: 'idempotencyKey',
					message: `"${key}" is the same for items ${itemList(positions.map((p) => items[p].index + 1))}; VisionStory would return one video for all of them`,
				},
			],
			hint: 'Nothing was sent to VisionStory. Give each item its own key with an expression that differs per item, e.g. {{ "order-" + $json.id }}, or leave Idempotency Key empty for automatic keys.',
		});
		for (const position of positions) errors.set(items[position].index, error);
	}
	return errors;
}

/** The settings one wait spans, for every item: the editor offers no per-item value. */
export interface WaitSettings extends Omit<RunOptions, 'signal'> {
	/** How fast this run may submit and check on videos (the credential's budget clamps it). */
	requestsPerSecond: number;
}

/** Reads the wait settings by name, from the first item. */
export function waitSettings(context: IExecuteFunctions): WaitSettings {
	const waitForCompletion = param.boolean(context, 'waitForCompletion', 0, true);
	const options = param.collection(context, 'options', 0);
	return {
		waitForCompletion,
		pollIntervalMs: Math.max(5, param.number(context, 'pollIntervalSeconds', 0) ?? 10) * 1000,
		atLimit:
			waitForCompletion || param.string(context, 'atConcurrencyLimit', 0) === 'holdForSlot'
				? 'queue'
				: 'refuse',
		requestsPerSecond:
			Number(options.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND) ||
			DEFAULT_REQUESTS_PER_SECOND,
	};
}

/** How long item `index` may take: its render when waited on, else the time it may be held for a slot. */
export function timeoutOf(
	context: IExecuteFunctions,
	index: number,
	waitForCompletion: boolean,
): number {
	return waitForCompletion
		? minutes(param.number(context, 'timeoutMinutes', index), 30)
		: minutes(param.number(context, 'slotWaitMinutes', index), 5);
}

/** The binary field item `index` puts a finished video in. */
export function outputFieldOf(context: IExecuteFunctions, index: number): string {
	return param.string(context, 'outputBinaryProperty', index) || 'data';
}

/** The binary field a finished video goes to, or undefined when it is not to be downloaded. */
export function downloadFieldOf(
	context: IExecuteFunctions,
	index: number,
	download: boolean,
): string | undefined {
	return download ? outputFieldOf(context, index) : undefined;
}

/** Each item's submission for `runTasks`: its request, files and idempotency context, and its time limit. */
export function videoJobs(
	ctx: OperationContext,
	items: Array<
		Prepared<MediaRequest<'createTalkingVideo'>> | Prepared<MediaRequest<'createAiVideo'>>
	>,
	settings: WaitSettings,
): TaskJob[] {
	return items.map((item) => {
		const call: CallOptions = {
			idempotencyContext: idempotencyContext(ctx, item.index),
			media: mediaParts(ctx.n8n, item.request.media),
		};
		return {
			request: item.request.request,
			call,
			// A key the user set may have made a video before, in any execution.
			keyMayRepeat: ctx.keysMayRepeat === true || item.request.request.client_request_id != null,
			timeoutMs: timeoutOf(ctx.n8n, item.index, settings.waitForCompletion),
		};
	});
}

/** How `runTasks` waits: the settings, the run's cancel signal, the credential's budget and a log line for n8n's log. */
export function taskRunOptions(
	ctx: OperationContext,
	settings: WaitSettings,
	budget: RequestBudget,
): RunOptions {
	const { logger } = ctx.n8n;
	return {
		...settings,
		signal: ctx.signal,
		budget,
		log: logger ? { to: logger, node: ctx.n8n.getNode().name } : undefined,
	};
}

/**
 * What both video creates do with their checked items: submit every one, wait on all of them
 * together (when waiting), then stream the finished videos into binary (when asked: Download Result,
 * on by default when waiting, off on the tool variant). The creates differ only in kind and requests.
 */
export async function createVideos(
	ctx: OperationContext,
	kind: TaskKind,
	items: CreateItems,
): Promise<ItemOutcome[]> {
	const settings = waitSettings(ctx.n8n);
	const budget = await requestBudgetOf(ctx.n8n, settings.requestsPerSecond);
	const results = await runTasks(
		ctx.client,
		kind,
		videoJobs(ctx, items, settings),
		taskRunOptions(ctx, settings, budget),
	);
	const fields = items.map((item) =>
		downloadFieldOf(
			ctx.n8n,
			item.index,
			settings.waitForCompletion && param.boolean(ctx.n8n, 'downloadResult', item.index, true),
		),
	);
	return await videoItems(ctx, kind, results, fields);
}

/**
 * Check Status: the videos' current state, read together; finished ones go to the first output
 * (downloaded when asked) and those still rendering to the second, so a workflow can wait in n8n's
 * Wait node and loop back without holding a worker. A failed render is an error for its item, as
 * when waiting.
 */
export async function checkVideos(
	ctx: OperationContext,
	kind: TaskKind,
	items: Array<Prepared<string>>,
	budget: RequestBudget,
): Promise<ItemOutcome[]> {
	const ids = items.map((item) => item.request);
	const list = kind === 'talkingVideo' ? new TalkingVideoList() : undefined;
	const tasks = await readTasks(ctx.client, kind, ids, { signal: ctx.signal, budget, list });
	const results = items.map((item): Outcome<VideoResult> => {
		const task = tasks.get(item.request) ?? notFoundError(item.request);
		if (task instanceof VisionStoryError) return { ok: false, error: task };
		if (task.status === 'failed') return { ok: false, error: taskFailedError(kind, task) };
		return { ok: true, value: { task, existing: false } };
	});
	const finished = results.map(
		(result) => result.ok && 'status' in result.value.task && isFinished(result.value.task),
	);
	const fields = items.map((item, position) =>
		downloadFieldOf(
			ctx.n8n,
			item.index,
			finished[position] && param.boolean(ctx.n8n, 'downloadResult', item.index),
		),
	);
	return await videoItems(
		ctx,
		kind,
		results,
		fields,
		finished.map((done) => (done ? 0 : 1)),
	);
}

/** The status read of each kind: the request Check Status checks a video id with. */
const STATUS_READS = { talkingVideo: 'getTalkingVideo', aiVideo: 'getAiVideo' } as const;

/**
 * Check Status of `kind`: the video picked in Video (`videoId`) checked as its status read takes it,
 * then every item's video read together (`checkVideos`); two outputs, Finished and Still Rendering.
 */
export function checkStatusOperation(
	kind: TaskKind,
	stated: OperationDescription,
): Operation<string> {
	return {
		option: stated.option,
		properties: stated.properties,
		outputs: ['Finished', 'Still Rendering'],
		reportsSpend: true,
		async prepare(ctx, index) {
			const request = ctx.client.validate(STATUS_READS[kind], {
				video_id: param.id(ctx.n8n, 'videoId', index),
			});
			return request.video_id ?? '';
		},
		async executeAll(ctx, items) {
			return await checkVideos(ctx, kind, items, await requestBudgetOf(ctx.n8n));
		},
	};
}
