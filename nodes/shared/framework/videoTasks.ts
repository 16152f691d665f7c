import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../api/client';
import { mapConcurrent } from '../api/concurrency';
import type { RequestOf } from '../api/contract';
import { isFinished } from '../api/contract';
import { VisionStoryError } from '../api/errors';
import { DEFAULT_REQUESTS_PER_SECOND } from '../api/requestBudget';
import { repeatedKeys } from '../api/idempotency';
import type { RunOptions, TaskKind, VideoTask } from '../api/tasks';
import { notFoundError, readTasks, runTasks, TalkingVideoList, taskFailedError } from '../api/tasks';
import { requestBudgetOf } from '../n8n/client';
import { attachVideo, finishedItem } from './download';

export { attachVideo, finishedItem } from './download';
import { optionsOf, outputFieldOf } from './mapping';
import { param } from './params';
import type { ItemOutcome, MediaRefs, OperationDef, OperationMeta, Params, Prepared, Scope } from './operation';

export type CreateName = 'createTalkingVideo' | 'createAiVideo';

export const CREATE: Record<TaskKind, CreateName> = { talkingVideo: 'createTalkingVideo', aiVideo: 'createAiVideo' };

/** Downloads at once: large files, so few. */
const DOWNLOAD_CONCURRENCY = 3;

const minutes = (value: unknown, fallback: number) => Math.max(1, Number(value ?? fallback) || fallback) * 60_000;

/** The settings one wait spans: read from the first item, since the editor offers no per-item value. */
function runOptions(params: Params): Omit<RunOptions, 'signal'> {
	const waitForCompletion = params.waitForCompletion !== false;
	return {
		waitForCompletion,
		pollIntervalMs: Math.max(5, Number(params.pollIntervalSeconds ?? 10)) * 1000,
		atLimit: waitForCompletion || params.atConcurrencyLimit === 'holdForSlot' ? 'queue' : 'refuse',
	};
}

/** The Requests per Second option: how fast this run may submit and check on videos (the budget clamps it). */
function requestsPerSecond(params: Params): number {
	return Number(optionsOf(params).requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND) || DEFAULT_REQUESTS_PER_SECOND;
}

/** How long one item may take: its render when waited on, else the time it may be held for a slot. */
function itemTimeoutMs(params: Params, waitForCompletion: boolean): number {
	return waitForCompletion ? minutes(params.timeoutMinutes, 30) : minutes(params.slotWaitMinutes, 5);
}

/** "1, 2 and 3"; a long run of items is cut short. */
function itemList(numbers: number[]): string {
	if (numbers.length > 5) return `${numbers.slice(0, 3).join(', ')} … ${numbers[numbers.length - 1]} (${numbers.length} items)`;
	return `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/**
 * Items given the same Idempotency Key: VisionStory would answer all of them with one video, so
 * each is refused before anything is sent.
 */
export function repeatedKeyErrors(operation: string, items: Array<{ index: number; key?: string | null }>): Map<number, VisionStoryError> {
	const errors = new Map<number, VisionStoryError>();
	const keys = items.map((item) => item.key);
	for (const [key, positions] of repeatedKeys(keys)) {
		const error = new VisionStoryError({
			category: 'validation',
			operation,
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

/**
 * An asynchronous create: every item is submitted first, then all are waited on together, and the
 * finished videos are downloaded.
 */
export function videoTaskOperation(
	meta: OperationMeta & {
		kind: TaskKind;
		request: (params: Params, media: MediaRefs) => RequestOf<CreateName>;
	},
): OperationDef {
	const create = CREATE[meta.kind];
	return {
		...meta,
		validateAs: create,
		check: async (scope, items) => {
			const repeated = repeatedKeyErrors(create, items.map((item) => ({ index: item.index, key: item.request?.client_request_id as string | null | undefined })));
			const rest = items.filter((item) => !repeated.has(item.index));
			const more = meta.check && rest.length ? await meta.check(scope, rest) : new Map<number, VisionStoryError>();
			return new Map([...repeated, ...more]);
		},
		run: async (scope, items) => {
			const options = runOptions(items[0]?.params ?? {});
			const budget = await requestBudgetOf(scope.context, requestsPerSecond(items[0]?.params ?? {}));
			const node = scope.context.getNode().name;
			const jobs = items.map((item) => ({
				request: item.request as Checked<CreateName>,
				call: { idempotencyContext: scope.idempotencyContext(item.index), media: scope.media(item) },
				timeoutMs: itemTimeoutMs(item.params, options.waitForCompletion),
			}));
			const results = await runTasks(scope.client, meta.kind, jobs, {
				...options,
				signal: scope.signal,
				budget,
				log: scope.context.logger ? { to: scope.context.logger, node } : undefined,
			});
			return await mapConcurrent(results, DOWNLOAD_CONCURRENCY, async (result, position): Promise<ItemOutcome> => {
				if (!result.ok) return result;
				const { params } = items[position];
				return await finishedItem(scope, meta.kind, result.value as VideoTask, options.waitForCompletion && params.downloadResult !== false ? outputFieldOf(params) : undefined);
			});
		},
	};
}

/**
 * Check Status: the videos' current state, finished ones to the first output (downloaded when asked)
 * and those still rendering to the second, so a workflow can wait in n8n's Wait node and loop back
 * without holding a worker. A failed render is an error for its item, as when waiting.
 */
export function checkStatusOperation(kind: TaskKind, properties: INodeProperties[]): OperationDef {
	return {
		value: 'check',
		name: 'Check Status',
		action: `Check the status of ${kind === 'aiVideo' ? 'an AI video' : 'a talking video'}`,
		description: 'Route finished videos to the first output and those still rendering to the second, to wait in a loop with n8n’s Wait node',
		toolDescription: `Check a ${kind === 'aiVideo' ? 'AI' : 'talking'} video by video_id: status (queued, creating: still rendering, call again in a minute; created: done, video_url is the MP4; failed: error says why, refunded), duration_sec and cost_credit. Free.`,
		validateAs: kind === 'aiVideo' ? 'getAiVideo' : 'getTalkingVideo',
		fieldParameters: { video_id: 'videoId' },
		properties,
		outputs: ['Finished', 'Still Rendering'],
		request: (params) => ({ video_id: String(params.videoId ?? '') }),
		run: async (scope, items) => {
			const ids = items.map((item) => String(item.request?.video_id ?? ''));
			const budget = await requestBudgetOf(scope.context);
			const tasks = await readTasks(scope.client, kind, ids, { signal: scope.signal, budget, list: new TalkingVideoList() });
			return await mapConcurrent(items, DOWNLOAD_CONCURRENCY, async (item, position): Promise<ItemOutcome> => {
				const id = ids[position];
				const task = tasks.get(id) ?? notFoundError(id);
				if (task instanceof VisionStoryError) return { ok: false, error: task };
				if (task.status === 'failed') return { ok: false, error: taskFailedError(kind, task) };
				if (!isFinished(task)) return { ok: true, value: [{ json: task as IDataObject }], output: 1 };
				return await finishedItem(scope, kind, task, item.params.downloadResult === true ? outputFieldOf(item.params) : undefined, 0);
			});
		},
	};
}

/** Get one video task; with Download Result, a finished video comes along as binary. */
export function getVideo(kind: TaskKind) {
	return async (scope: Scope, item: Prepared): Promise<INodeExecutionData[]> => {
		const videoId = String(item.request?.video_id ?? '');
		const task: VideoTask =
			kind === 'aiVideo'
				? await scope.client.getAiVideo({ video_id: videoId }, { signal: scope.signal })
				: await scope.client.getTalkingVideo({ video_id: videoId }, { signal: scope.signal });
		if (item.params.downloadResult === true && task.status === 'created') return [await attachVideo(scope, kind, task, outputFieldOf(item.params))];
		return [{ json: task as IDataObject }];
	};
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
		atLimit: waitForCompletion || param.string(context, 'atConcurrencyLimit', 0) === 'holdForSlot' ? 'queue' : 'refuse',
		requestsPerSecond: Number(options.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND) || DEFAULT_REQUESTS_PER_SECOND,
	};
}

/** How long item `index` may take: its render when waited on, else the time it may be held for a slot. */
export function timeoutOf(context: IExecuteFunctions, index: number, waitForCompletion: boolean): number {
	return waitForCompletion ? minutes(param.number(context, 'timeoutMinutes', index), 30) : minutes(param.number(context, 'slotWaitMinutes', index), 5);
}

/** The binary field a finished video goes to, or undefined when it is not to be downloaded. */
export function downloadFieldOf(context: IExecuteFunctions, index: number, download: boolean): string | undefined {
	if (!download) return undefined;
	return param.string(context, 'outputBinaryProperty', index) || 'data';
}
