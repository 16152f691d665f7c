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

/** Puts a finished video into the item's binary, named after the task. */
export async function attachVideo(scope: Scope, task: VideoTask, property: string): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: task as IDataObject };
	if (!task.video_url) return item;
	const download = await scope.client.download(task.video_url, { signal: scope.signal });
	const binary = await binaryFromDownload(scope.context, download, task.video_id, 'video/mp4');
	return withBinary(item, property, binary);
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
			const outcomes = new Map<number, ItemOutcome>();
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
			await mapConcurrent(items, DOWNLOAD_CONCURRENCY, async (item, position) => {
				const result = results[position];
				if (!result.ok) return outcomes.set(item.index, result);
				const task = result.value as VideoTask;
				try {
					const output = wait.downloadResult ? await attachVideo(scope, task, wait.outputBinaryProperty) : { json: task as IDataObject };
					outcomes.set(item.index, { ok: true, value: [output] });
				} catch (error) {
					outcomes.set(item.index, { ok: false, error: error as VisionStoryError });
				}
				return undefined;
			});
			return items.map((item) => outcomes.get(item.index)!);
		},
	};
}
