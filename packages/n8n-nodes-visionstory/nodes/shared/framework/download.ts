import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Outcome, TaskKind, VideoTask } from '../api/tasks';
import type { MadeVideo, ResultFile } from '../api/videoPipeline';
import { fetchFile, noLinkText } from '../api/videoPipeline';
import { binaryFromDownload, withBinary } from '../n8n/binary';
import type { ItemOutcome, OperationContext } from './action';
import { videoMoney } from './spend';

/**
 * Paid results into n8n items: the file in a binary property, fetched the way every host fetches it
 * (`fetchFile` in the core: a transfer cut midway fetched again, up to three tries), or the item kept
 * with `downloadError` saying what failed and how to get the file again.
 */

/** What fetching a file needs of the operation's context. */
type Scope = Pick<OperationContext, 'n8n' | 'signal'> & {
	client: Pick<OperationContext['client'], 'download'>;
};

/**
 * Streams a result file (video, image) into a binary property of the item. The result was paid for
 * before its file is fetched, so a failed download keeps the item: its JSON (id, URL, cost) goes on
 * with `downloadError`, rather than an error that would stop the workflow and leave the paid result
 * only in an error message.
 */
export async function withDownload(
	scope: Scope,
	item: INodeExecutionData,
	file: ResultFile & { property: string },
): Promise<INodeExecutionData> {
	const store = binaryFromDownload.bind(undefined, scope.n8n);
	const fetched = await fetchFile(scope.client, file, store, 0, scope.signal);
	if (fetched.ok) return withBinary(item, file.property, fetched.file);
	// A string, as the trigger gives it: what failed, then how to get the file.
	return { ...item, json: { ...item.json, downloadError: fetched.downloadError } };
}

/** How to fetch a finished video again: Get with its id, or its URL while the service keeps it. */
export function againHint(kind: TaskKind, task: VideoTask): string {
	const node = kind === 'aiVideo' ? 'AI Video' : 'Talking Video';
	const kept = kind === 'talkingVideo' ? ' (VisionStory keeps finished talking videos 7 days)' : '';
	return `Nothing is lost: fetch the file later with ${node} → Get with video ID ${task.video_id} and Download Result on, or download video_url directly${kept}.`;
}

/**
 * A task's JSON. One reported created without its link (the contract says the link is set by then)
 * says its file is missing, rather than passing for a finished video.
 */
export function videoJson(kind: TaskKind, task: VideoTask): IDataObject {
	if (task.status !== 'created' || task.video_url) return task as IDataObject;
	const node = kind === 'aiVideo' ? 'AI Video' : 'Talking Video';
	return {
		...task,
		fileMissing: `VisionStory reports video ${task.video_id} as created but gives no link to its file (video_url is empty). Try ${node} → Get with this ID later; if the link stays empty, contact VisionStory support.`,
	};
}

/** `downloadError` of a video reported created without its link: there was nothing to download. */
export function noLinkError(kind: TaskKind, task: VideoTask): string {
	return noLinkText(againHint(kind, task));
}

/** Puts a finished video into the item's binary, named after the task; a failed download keeps the task's JSON. */
export async function attachVideo(
	scope: Scope,
	kind: TaskKind,
	task: VideoTask,
	property: string,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: videoJson(kind, task) };
	if (!task.video_url) {
		if (task.status !== 'created') return item;
		return { ...item, json: { ...item.json, downloadError: noLinkError(kind, task) } };
	}
	return await withDownload(scope, item, {
		url: task.video_url,
		property,
		fallbackName: task.video_id,
		fallbackMime: 'video/mp4',
		made: 'The video was rendered',
		costCredit: task.cost_credit ?? undefined,
		again: againHint(kind, task),
	});
}

/**
 * One video's item from the pipeline's outcome: its JSON (as read right after its create when nothing
 * was waited for), with what is known of its price and whether it was made for this call, its file in
 * binary field `property` when it was fetched, or `downloadError`; a failure stays its item's error.
 * `output`, when given, is the node output it goes to.
 */
export function videoItem(
	kind: TaskKind,
	outcome: Outcome<MadeVideo<IBinaryData>>,
	property: string,
	output?: number,
): ItemOutcome {
	if (!outcome.ok) return outcome;
	const { task, file, downloadError } = outcome.value;
	const json = {
		...('status' in task ? videoJson(kind, task) : (task as IDataObject)),
		...(downloadError ? { downloadError } : {}),
		...videoMoney(outcome.value),
	};
	const item = file ? withBinary({ json }, property, file) : { json };
	return { ok: true, value: [item], output };
}
