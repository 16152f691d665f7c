import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RequestOf } from './contract';
import type { VisionStoryError } from './errors';
import { binaryFromDownload, withBinary } from './media';
import type { ItemOutcome, MediaRefs, OperationDef, OperationMeta, Params, Scope } from './operations';
import type { TaskKind, VideoTask } from './wait';
import { mapConcurrent, runTasks } from './wait';

type CreateName = 'createTalkingVideo' | 'createAiVideo';

const CREATE: Record<TaskKind, CreateName> = { talkingVideo: 'createTalkingVideo', aiVideo: 'createAiVideo' };

/** Downloads at once: large files, so few. */
const DOWNLOAD_CONCURRENCY = 3;

export interface WaitParams {
	waitForCompletion: boolean;
	downloadResult: boolean;
	outputBinaryProperty: string;
	pollIntervalMs: number;
	timeoutMs: number;
}

/** The waiting knobs; one wait spans all items, so the first item's values apply to the batch. */
export function waitParams(params: Params): WaitParams {
	const waitForCompletion = params.waitForCompletion !== false;
	return {
		waitForCompletion,
		downloadResult: waitForCompletion && params.downloadResult !== false,
		outputBinaryProperty: String(params.outputBinaryProperty || 'data'),
		pollIntervalMs: Math.max(5, Number(params.pollIntervalSeconds ?? 10)) * 1000,
		timeoutMs: Math.max(1, Number(params.timeoutMinutes ?? 30)) * 60_000,
	};
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
			const wait = waitParams(items[0]?.params ?? {});
			const submissions = items.map((item) => async () => {
				const created = await scope.client.call(create, item.request as RequestOf<CreateName>, {
					signal: scope.signal,
					idempotencyContext: scope.idempotencyContext(item.index),
					media: scope.media(item),
				});
				return created.video_id;
			});
			const results = await runTasks(scope.client, meta.kind, submissions, { ...wait, signal: scope.signal });
			return await mapConcurrent(results, DOWNLOAD_CONCURRENCY, async (result): Promise<ItemOutcome> => {
				if (!result.ok) return result;
				const task = result.value as VideoTask;
				try {
					const output = wait.downloadResult ? await attachVideo(scope, task, wait.outputBinaryProperty) : { json: task as IDataObject };
					return { ok: true, value: [output] };
				} catch (error) {
					return { ok: false, error: error as VisionStoryError };
				}
			});
		},
	};
}
