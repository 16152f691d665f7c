import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RequestOf } from './contract';
import { VisionStoryError } from './errors';
import { binaryFromDownload, withBinary } from './media';
import type { ItemOutcome, MediaRefs, OperationDef, OperationMeta, Params, Scope } from './operations';
import type { RunOptions, TaskKind, VideoTask } from './wait';
import { isFinished, mapConcurrent, notFoundError, readTasks, runTasks, taskFailedError } from './wait';

type CreateName = 'createTalkingVideo' | 'createAiVideo';

const CREATE: Record<TaskKind, CreateName> = { talkingVideo: 'createTalkingVideo', aiVideo: 'createAiVideo' };

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

/** How long one item may take: its render when waited on, else the time it may be held for a slot. */
function itemTimeoutMs(params: Params, waitForCompletion: boolean): number {
	return waitForCompletion ? minutes(params.timeoutMinutes, 30) : minutes(params.slotWaitMinutes, 5);
}

/** Streams a result file (video, image) into a binary property of the item. */
export async function withDownload(
	scope: Scope,
	item: INodeExecutionData,
	url: string,
	property: string,
	fallbackName: string,
	fallbackMime: string,
): Promise<INodeExecutionData> {
	const download = await scope.client.download(url, { signal: scope.signal });
	return withBinary(item, property, await binaryFromDownload(scope.context, download, fallbackName, fallbackMime));
}

/** Puts a finished video into the item's binary, named after the task. */
export async function attachVideo(scope: Scope, task: VideoTask, property: string): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: task as IDataObject };
	return task.video_url ? await withDownload(scope, item, task.video_url, property, task.video_id, 'video/mp4') : item;
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
		run: async (scope, items) => {
			const options = runOptions(items[0]?.params ?? {});
			const jobs = items.map((item) => ({
				submit: async () => {
					const created = await scope.client.call(create, item.request as RequestOf<CreateName>, {
						signal: scope.signal,
						idempotencyContext: scope.idempotencyContext(item.index),
						media: scope.media(item),
					});
					return created.video_id;
				},
				timeoutMs: itemTimeoutMs(item.params, options.waitForCompletion),
			}));
			const results = await runTasks(scope.client, meta.kind, jobs, { ...options, signal: scope.signal });
			return await mapConcurrent(results, DOWNLOAD_CONCURRENCY, async (result, position): Promise<ItemOutcome> => {
				if (!result.ok) return result;
				const task = result.value as VideoTask;
				const { params } = items[position];
				try {
					const download = options.waitForCompletion && params.downloadResult !== false;
					const output = download ? await attachVideo(scope, task, String(params.outputBinaryProperty || 'data')) : { json: task as IDataObject };
					return { ok: true, value: [output] };
				} catch (error) {
					return { ok: false, error: error as VisionStoryError };
				}
			});
		},
	};
}

/**
 * Check Status: the videos' current state, finished ones to the first output (downloaded when asked)
 * and those still rendering to the second, so a workflow can wait in n8n's Wait node and loop back
 * without holding a worker. A failed render is an error for its item, as when waiting.
 */
export function checkStatusOperation(meta: OperationMeta & { kind: TaskKind; validateAs: 'getTalkingVideo' | 'getAiVideo' }): OperationDef {
	return {
		...meta,
		outputs: ['Finished', 'Still Rendering'],
		request: (params) => ({ video_id: String(params.videoId ?? '') }),
		run: async (scope, items) => {
			const ids = items.map((item) => String(item.request?.video_id ?? ''));
			const tasks = await readTasks(scope.client, meta.kind, ids, { signal: scope.signal });
			return await mapConcurrent(items, DOWNLOAD_CONCURRENCY, async (item, position): Promise<ItemOutcome> => {
				const id = ids[position];
				const task = tasks.get(id) ?? notFoundError(id);
				if (task instanceof VisionStoryError) return { ok: false, error: task };
				if (task.status === 'failed') return { ok: false, error: taskFailedError(meta.kind, task) };
				if (!isFinished(task)) return { ok: true, value: [{ json: task as IDataObject }], output: 1 };
				try {
					const { params } = item;
					const output = params.downloadResult === true ? await attachVideo(scope, task, String(params.outputBinaryProperty || 'data')) : { json: task as IDataObject };
					return { ok: true, value: [output], output: 0 };
				} catch (error) {
					return { ok: false, error: error as VisionStoryError };
				}
			});
		},
	};
}
