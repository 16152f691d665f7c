import type { IExecuteFunctions } from 'n8n-workflow';

import type { CallOptions } from '../api/exchange';
import type { VisionStoryError } from '../api/errors';
import type { RequestBudget } from '../api/requestBudget';
import { DEFAULT_REQUESTS_PER_SECOND } from '../api/requestBudget';
import type { RunOptions, TaskKind } from '../api/tasks';
import type { VideoOrder, WaitSettings as CoreWaitSettings } from '../api/videoPipeline';
import {
	itemTimeoutMs,
	makeVideos,
	readVideos,
	repeatedKeyErrors as repeatedKeysOf,
	waitSettings as coreWaitSettings,
} from '../api/videoPipeline';
import { binaryFromDownload, mediaParts } from '../n8n/binary';
import { requestBudgetOf } from '../n8n/client';
import type {
	ItemOutcome,
	Operation,
	OperationContext,
	OperationDescription,
	Prepared,
} from './action';
import { idempotencyContext } from './action';
import { againHint, videoItem } from './download';
import type { MediaRequest } from './mediaParams';
import { param } from './params';

/**
 * The n8n side of the video pipeline (`api/videoPipeline.ts`): the two video creates and Check Status
 * read their parameters by name here, hand the core their items, how n8n stores a file and its log,
 * and turn what comes back into items, binary and outputs. Nothing here calls back into an operation.
 */

export type CreateName = 'createTalkingVideo' | 'createAiVideo';

/** A video create's items: talking videos or AI videos. */
type CreateItems =
	| Array<Prepared<MediaRequest<'createTalkingVideo'>>>
	| Array<Prepared<MediaRequest<'createAiVideo'>>>;

/**
 * Items given the same Idempotency Key: VisionStory would answer all of them with one video, so
 * each is refused before anything is sent. Keyed by item index.
 */
export function repeatedKeyErrors(
	endpoint: CreateName,
	items: CreateItems,
): Map<number, VisionStoryError> {
	const keys = items.map((item) => item.request.request.client_request_id);
	const byPosition = repeatedKeysOf(keys, endpoint, {
		field: 'idempotencyKey',
		items: 'items',
		numberOf: (position) => items[position].index + 1,
		example: '{{ "order-" + $json.id }}',
	});
	return new Map([...byPosition].map(([position, error]) => [items[position].index, error]));
}

/** The settings one wait spans, for every item: the editor offers no per-item value. */
export interface WaitSettings extends CoreWaitSettings {
	/** How fast this run may submit and check on videos (the credential's budget clamps it). */
	requestsPerSecond: number;
}

/** Reads the wait settings by name, from the first item; their defaults and limits are the core's. */
export function waitSettings(context: IExecuteFunctions): WaitSettings {
	const options = param.collection(context, 'options', 0);
	return {
		...coreWaitSettings({
			waitForCompletion: param.boolean(context, 'waitForCompletion', 0, true),
			pollIntervalSeconds: param.number(context, 'pollIntervalSeconds', 0),
			atConcurrencyLimit: param.string(context, 'atConcurrencyLimit', 0),
		}),
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
	return itemTimeoutMs(
		waitForCompletion
			? { timeoutMinutes: param.number(context, 'timeoutMinutes', index) }
			: { slotWaitMinutes: param.number(context, 'slotWaitMinutes', index) },
		waitForCompletion,
	);
}

/** The binary field item `index` puts a finished video in. */
export function outputFieldOf(context: IExecuteFunctions, index: number): string {
	return param.string(context, 'outputBinaryProperty', index) || 'data';
}

/** Each item's order for the pipeline: its request, files and idempotency context, time limit, and whether its file is wanted. */
export function videoOrders(
	ctx: OperationContext,
	items: CreateItems,
	settings: WaitSettings,
): VideoOrder[] {
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
			download:
				settings.waitForCompletion && param.boolean(ctx.n8n, 'downloadResult', item.index, true),
		};
	});
}

/** How the pipeline waits: the settings, the run's cancel signal, the credential's budget and n8n's log. */
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
 * What both video creates do with their checked items: the core submits every one, waits on all of
 * them together (when waiting) and streams the finished videos into n8n's binary store (Download
 * Result, on by default when waiting, off on the tool variant). The creates differ only in kind and
 * requests.
 */
export async function createVideos(
	ctx: OperationContext,
	kind: TaskKind,
	items: CreateItems,
): Promise<ItemOutcome[]> {
	const settings = waitSettings(ctx.n8n);
	const budget = await requestBudgetOf(ctx.n8n, settings.requestsPerSecond);
	const made = await makeVideos(
		ctx.client,
		kind,
		videoOrders(ctx, items, settings),
		taskRunOptions(ctx, settings, budget),
		// The binary store's own function, bound to this run: nothing of this file runs below the core.
		{ store: binaryFromDownload.bind(undefined, ctx.n8n), again: againHint },
	);
	return made.map((outcome, position) =>
		videoItem(kind, outcome, outputFieldOf(ctx.n8n, items[position].index)),
	);
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
	const read = await readVideos(
		ctx.client,
		kind,
		items.map((item) => item.request),
		{ signal: ctx.signal, budget, failedIsError: true },
		{
			store: binaryFromDownload.bind(undefined, ctx.n8n),
			again: againHint,
			download: (position) => param.boolean(ctx.n8n, 'downloadResult', items[position].index),
		},
	);
	return read.map((video, position) =>
		videoItem(kind, video, outputFieldOf(ctx.n8n, items[position].index), video.finished ? 0 : 1),
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
