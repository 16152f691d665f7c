import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isAborted, redactText, VisionStoryError } from '../api/errors';
import { binaryFromDownload, withBinary } from '../n8n/binary';
import { Slots } from '../api/concurrency';
import type { Outcome, TaskKind, VideoResult, VideoTask } from '../api/tasks';
import type { ItemOutcome, OperationContext } from './action';
import { videoMoney } from './spend';

/** What fetching a file needs of the operation's context. */
type Scope = Pick<OperationContext, 'n8n' | 'signal'> & {
	client: Pick<OperationContext['client'], 'download'>;
};

/** What a result file is, and how the user gets it again when it cannot be fetched now. */
export interface ResultFile {
	url: string;
	property: string;
	fallbackName: string;
	fallbackMime: string;
	/** "The image was generated", "The video was rendered": what happened before the download. */
	made: string;
	/** Credits the result cost, when known. */
	costCredit?: number;
	/** How to get the file later, e.g. Get with the id. */
	again: string;
}

/** Tries at a file whose transfer breaks off midway; the transport already retries failures before the answer. */
const TRANSFER_ATTEMPTS = 3;

/** Why a download failed, in one line, with anything shaped like a key removed. */
function reasonOf(error: unknown): string {
	if (!(error instanceof VisionStoryError)) {
		const message = (error instanceof Error ? error.message : String(error)).replace(
			/^Error: /,
			'',
		);
		return redactText(`the transfer broke off (${message})`);
	}
	const message = error.message.replace(/\.+$/, '');
	return redactText(
		error.status !== undefined && !message.includes(String(error.status))
			? `${message} (HTTP ${error.status})`
			: message,
	);
}

async function fetchOnce(scope: Scope, file: ResultFile) {
	return await scope.client
		.download(file.url, { signal: scope.signal })
		.then(
			async (download) =>
				await binaryFromDownload(scope.n8n, download, file.fallbackName, file.fallbackMime),
		)
		.then(
			(binary) => ({ ok: true as const, binary }),
			(error: unknown) => ({ ok: false as const, error }),
		);
}

/**
 * Streams a result file (video, image) into a binary property of the item. The result was paid
 * for before its file is fetched, so a failed download keeps the item: its JSON (id, URL, cost)
 * goes on with `downloadError` saying what failed and how to get the file again, rather than an
 * error that would stop the workflow and leave the paid result only in an error message.
 */
export async function withDownload(
	scope: Scope,
	item: INodeExecutionData,
	file: ResultFile,
): Promise<INodeExecutionData> {
	let outcome = await fetchOnce(scope, file);
	// A transfer cut midway (not an answer refusing the file) is fetched again from the start.
	for (
		let attempt = 1;
		attempt < TRANSFER_ATTEMPTS &&
		!outcome.ok &&
		!(outcome.error instanceof VisionStoryError) &&
		!scope.signal?.aborted;
		attempt++
	) {
		outcome = await fetchOnce(scope, file);
	}
	if (outcome.ok) return withBinary(item, file.property, outcome.binary);
	// A cancelled execution is not a failed download: it stops the item as any cancel does.
	if (isAborted(outcome.error) || scope.signal?.aborted) throw outcome.error;
	const cost = file.costCredit
		? ` and charged (${file.costCredit} credit${file.costCredit === 1 ? '' : 's'})`
		: '';
	// A string, as the trigger gives it: what failed, then how to get the file.
	const downloadError = `${file.made}${cost}, but its file could not be downloaded: ${reasonOf(outcome.error)}. ${file.again}`;
	return { ...item, json: { ...item.json, downloadError } };
}

/** How to fetch a finished video again: Get with its id, or its URL while the service keeps it. */
function againHint(kind: TaskKind, task: VideoTask): string {
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
		const downloadError = `The video was rendered, but VisionStory gave no link to its file (video_url is empty), so there was nothing to download. ${againHint(kind, task)}`;
		return { ...item, json: { ...item.json, downloadError } };
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

/** A finished video's item: with its file (in binary field `property`) when asked, else its JSON. */
export async function finishedItem(
	scope: Scope,
	kind: TaskKind,
	task: VideoTask,
	property: string | undefined,
	output?: number,
): Promise<ItemOutcome> {
	try {
		const item =
			property !== undefined
				? await attachVideo(scope, kind, task, property)
				: { json: videoJson(kind, task) };
		return { ok: true, value: [item], output };
	} catch (error) {
		return { ok: false, error: error as VisionStoryError };
	}
}

/** Video files fetched at once: large files, so few. */
const DOWNLOAD_CONCURRENCY = 3;

/**
 * Each video's item, in order: a failure stays its item's error; a video comes with its file when
 * `fields[i]` names the binary field for it (a finished video), else as its JSON (as read right after
 * its create when nothing was waited for), with what is known of its price and whether it was made
 * for this call; `outputs[i]`, when given, is the node output it goes to.
 */
export async function videoItems(
	scope: Scope,
	kind: TaskKind,
	results: Array<Outcome<VideoResult>>,
	fields: Array<string | undefined>,
	outputs: Array<number | undefined> = [],
): Promise<ItemOutcome[]> {
	const downloads = new Slots(DOWNLOAD_CONCURRENCY);
	return await Promise.all(
		results.map(async (result, position): Promise<ItemOutcome> => {
			if (!result.ok) return result;
			const output = outputs[position];
			const { task } = result.value;
			const money = videoMoney(result.value);
			if (!('status' in task))
				return { ok: true, value: [{ json: { ...task, ...money } }], output };
			await downloads.take();
			try {
				const outcome = await finishedItem(scope, kind, task, fields[position], output);
				if (!outcome.ok) return outcome;
				return {
					...outcome,
					value: outcome.value.map((item) => ({ ...item, json: { ...item.json, ...money } })),
				};
			} finally {
				downloads.give();
			}
		}),
	);
}
