import { Slots } from './concurrency';
import { invalidInput, isAborted, redactText, VisionStoryError } from './errors';
import type { Download } from './http';
import { repeatedKeys } from './idempotency';
import type { SpendingClient } from './spendingClient';
import { notFoundError, taskFailedError } from './taskErrors';
import type { ReadOptions } from './taskReads';
import { readTasks, TalkingVideoList } from './taskReads';
import { followTasks, runTasks } from './taskRun';
import type {
	AtLimit,
	CreateName,
	FollowJob,
	Outcome,
	RunOptions,
	TaskJob,
	TaskKind,
	VideoResult,
	VideoTask,
} from './tasks';

/**
 * The video pipeline both hosts call: the wait settings and their limits, the check that no two items
 * share a key, then submit, wait (`taskRun.ts`) and download, or wait on videos that exist already
 * (Check Status, Node-RED's pick-up after a deploy). A host keeps only what is its own: n8n its items,
 * pairedItem and binary; Node-RED its messages, Buffers, status and context. It hands down how to store
 * a file (`FileStore`), how to fetch one later in its own words (`again`), and callbacks for progress.
 */

/** The waiting settings' defaults and limits, for every host (the parameters have the same names in both). */
export const WAITING = {
	/** Status reads no closer than this (the service asks for 5 to 10 s). */
	minPollIntervalSeconds: 5,
	pollIntervalSeconds: 10,
	timeoutMinutes: 30,
	/** How long an item not waited on may be held for an AI-video slot. */
	slotWaitMinutes: 5,
} as const;

/** The waiting parameters as a host read them by name (`waitForCompletion`, `pollIntervalSeconds`, `atConcurrencyLimit`). */
export interface WaitParameters {
	waitForCompletion: boolean;
	pollIntervalSeconds?: unknown;
	/** `holdForSlot` keeps an item not waited on for a free AI-video slot; anything else refuses it at once. */
	atConcurrencyLimit?: unknown;
}

export interface WaitSettings {
	waitForCompletion: boolean;
	pollIntervalMs: number;
	atLimit: AtLimit;
}

const number = (value: unknown): number | undefined => {
	const n = typeof value === 'string' && value.trim() === '' ? NaN : Number(value ?? NaN);
	return Number.isFinite(n) ? n : undefined;
};

/** The settings one wait spans: polls at least 5 s apart (10 s unset), a held or waited-on item queued for a slot. */
export function waitSettings(given: WaitParameters): WaitSettings {
	const seconds = number(given.pollIntervalSeconds) ?? WAITING.pollIntervalSeconds;
	return {
		waitForCompletion: given.waitForCompletion,
		pollIntervalMs: Math.max(WAITING.minPollIntervalSeconds, seconds) * 1000,
		atLimit:
			given.waitForCompletion || given.atConcurrencyLimit === 'holdForSlot' ? 'queue' : 'refuse',
	};
}

/**
 * How long an item may take: Timeout (Minutes) when waited on (30 unset or 0), else the time it may be
 * held for a slot (Slot Wait, 5 unset or 0); at least a minute.
 */
export function itemTimeoutMs(
	given: { timeoutMinutes?: unknown; slotWaitMinutes?: unknown },
	waitForCompletion: boolean,
): number {
	const minutes = waitForCompletion
		? number(given.timeoutMinutes) || WAITING.timeoutMinutes
		: number(given.slotWaitMinutes) || WAITING.slotWaitMinutes;
	return Math.max(1, minutes) * 60_000;
}

/** "1, 2 and 3"; a long run cut short ("1, 2, 3 … 9 (9 items)"). */
function listed(numbers: number[], noun: string): string {
	if (numbers.length > 5)
		return `${numbers.slice(0, 3).join(', ')} … ${numbers[numbers.length - 1]} (${numbers.length} ${noun})`;
	return `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/**
 * Items given the same Idempotency Key, by position: VisionStory would answer all of them with one
 * video, so each is refused before anything is sent. `label` names the key's field as the host's
 * editor shows it, what the host calls its items ("items", "batch entries") and how it numbers them
 * (from 1 by position, unless `numberOf` says otherwise).
 */
export function repeatedKeyErrors(
	keys: ReadonlyArray<string | null | undefined>,
	operation: CreateName,
	label: {
		field: string;
		items: string;
		numberOf?: (position: number) => number;
		example?: string;
	},
): Map<number, VisionStoryError> {
	const numberOf = label.numberOf ?? ((position: number) => position + 1);
	const errors = new Map<number, VisionStoryError>();
	for (const [key, positions] of repeatedKeys(keys)) {
		const error = invalidInput(operation, [
			{
				field: label.field,
				message: `"${key}" is the same for ${label.items} ${listed(positions.map(numberOf), label.items)}; VisionStory would return one video for all of them`,
			},
		]).with({
			hint: `Nothing was sent to VisionStory. Give each its own key${label.example ? ` with an expression that differs per item, e.g. ${label.example}` : ''}, or leave Idempotency Key empty for automatic keys.`,
		});
		for (const position of positions) errors.set(position, error);
	}
	return errors;
}

/**
 * How the host keeps a downloaded file: n8n's binary store, a Buffer, a file on disk. Called with the
 * name and type to use when the download names none, and the item's position.
 */
export type FileStore<F> = (
	download: Download,
	fallbackName: string,
	fallbackMime: string,
	index: number,
) => Promise<F>;

/** What the pipeline needs of the host beyond the run's options. */
export interface PipelineHost<F> {
	/** Where files go; without it nothing is downloaded. */
	store?: FileStore<F>;
	/** How to fetch a finished video's file later, in the host's words ("Get with video ID …"). */
	again(kind: TaskKind, task: VideoTask): string;
}

/** An item's video: its result, and its file, or why the file could not be fetched (the video is paid: it is kept). */
export interface MadeVideo<F> extends VideoResult {
	file?: F;
	downloadError?: string;
}

/** One item to make: its create and its time limit, and whether its file is wanted once it is done. */
export interface VideoOrder extends TaskJob {
	download?: boolean;
}

/**
 * Submits every item, waits on them together when the settings say so (`runTasks`), then fetches the
 * finished videos' files where asked. Results in input order.
 */
export async function makeVideos<F>(
	client: SpendingClient,
	kind: TaskKind,
	orders: VideoOrder[],
	options: RunOptions,
	host: PipelineHost<F>,
): Promise<Array<Outcome<MadeVideo<F>>>> {
	const results = await runTasks(client, kind, orders, options);
	const wanted = orders.map((order) => order.download === true);
	return await withFiles(client, kind, results, wanted, host, options.signal);
}

/**
 * Waits on videos made earlier (Node-RED's pick-up after a deploy or a restart), each until its final
 * state or its Timeout, then fetches the files of the finished ones where asked.
 */
export async function followVideos<F>(
	client: SpendingClient,
	kind: TaskKind,
	jobs: Array<FollowJob & { download?: boolean }>,
	options: Omit<RunOptions, 'waitForCompletion' | 'atLimit'>,
	host: PipelineHost<F>,
): Promise<Array<Outcome<MadeVideo<F>>>> {
	const results = await followTasks(client, kind, jobs, options);
	const wanted = jobs.map((job) => job.download === true);
	return await withFiles(client, kind, results, wanted, host, options.signal);
}

/** A video as one read found it: finished (created or failed) or still rendering. */
export type CheckedVideo<F> = Outcome<MadeVideo<F>> & { finished: boolean };

/**
 * One read of each video (Check Status, Get): the cheapest reads the service allows; a finished one's
 * file fetched where `download(position)` asks. A video not found, or a read that failed, is its
 * item's error (nothing is waited for here); so is a failed render when `failedIsError` (Check Status,
 * as when waiting), else it comes as it is (Get).
 */
export async function readVideos<F>(
	client: SpendingClient,
	kind: TaskKind,
	ids: string[],
	options: ReadOptions & { failedIsError?: boolean },
	host: PipelineHost<F> & { download(position: number): boolean },
): Promise<Array<CheckedVideo<F>>> {
	const { failedIsError, ...reading } = options;
	const list = kind === 'talkingVideo' ? new TalkingVideoList() : undefined;
	const tasks = await readTasks(client, kind, ids, { list, ...reading });
	const read = ids.map((id): CheckedVideo<F> => {
		const task = tasks.get(id) ?? notFoundError(id);
		if (task instanceof VisionStoryError) return { ok: false, error: task, finished: false };
		const finished = task.status === 'created' || task.status === 'failed';
		if (task.status === 'failed' && failedIsError)
			return { ok: false, error: taskFailedError(kind, task), finished };
		return { ok: true, value: { task, existing: false }, finished };
	});
	const wanted = read.map((video, position) => video.finished && host.download(position));
	const fetched = await withFiles(client, kind, read, wanted, host, options.signal);
	return fetched.map((outcome, position) => ({ ...outcome, finished: read[position].finished }));
}

/** Video files fetched at once: large files, so few. */
const DOWNLOADS_AT_ONCE = 3;

/** Each finished video's file where wanted, fetched a few at a time; a failed download keeps its video with why. */
async function withFiles<F>(
	client: Pick<SpendingClient, 'download'>,
	kind: TaskKind,
	results: Array<Outcome<VideoResult>>,
	wanted: boolean[],
	host: PipelineHost<F>,
	signal?: AbortSignal,
): Promise<Array<Outcome<MadeVideo<F>>>> {
	const slots = new Slots(DOWNLOADS_AT_ONCE);
	return await Promise.all(
		results.map(async (result, index): Promise<Outcome<MadeVideo<F>>> => {
			if (!result.ok || !wanted[index] || !host.store) return result;
			const { task } = result.value;
			if (!('status' in task) || task.status !== 'created') return result;
			if (!task.video_url)
				return {
					ok: true,
					value: { ...result.value, downloadError: noLinkText(host.again(kind, task)) },
				};
			await slots.take();
			try {
				const fetched = await fetchFile(
					client,
					{
						url: task.video_url,
						fallbackName: task.video_id,
						fallbackMime: 'video/mp4',
						made: 'The video was rendered',
						costCredit: task.cost_credit ?? undefined,
						again: host.again(kind, task),
					},
					host.store,
					index,
					signal,
				);
				return {
					ok: true,
					value: { ...result.value, ...(fetched.ok ? { file: fetched.file } : fetched) },
				};
			} finally {
				slots.give();
			}
		}),
	);
}

/** A paid result's file: where it is, what to call it when the answer names nothing, and how to get it later. */
export interface ResultFile {
	url: string;
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

/**
 * Fetches a paid result's file into the host's store, the same on every host: a transfer cut midway
 * (not an answer refusing the file) is fetched again from the start, up to three tries. A failure
 * keeps the result: `downloadError` says what failed and how to get the file again. A cancel is thrown.
 */
export async function fetchFile<F>(
	client: Pick<SpendingClient, 'download'>,
	file: ResultFile,
	store: FileStore<F>,
	index: number,
	signal?: AbortSignal,
): Promise<{ ok: true; file: F } | { ok: false; downloadError: string }> {
	const once = async () =>
		await client
			.download(file.url, { signal })
			.then(async (download) => await store(download, file.fallbackName, file.fallbackMime, index))
			.then(
				(stored) => ({ ok: true as const, file: stored }),
				(error: unknown) => ({ ok: false as const, error }),
			);
	let outcome = await once();
	for (
		let attempt = 1;
		attempt < TRANSFER_ATTEMPTS &&
		!outcome.ok &&
		!(outcome.error instanceof VisionStoryError) &&
		!signal?.aborted;
		attempt++
	)
		outcome = await once();
	if (outcome.ok) return outcome;
	// A cancelled run is not a failed download: it stops as any cancel does.
	if (isAborted(outcome.error) || signal?.aborted) throw outcome.error;
	const cost = file.costCredit
		? ` and charged (${file.costCredit} credit${file.costCredit === 1 ? '' : 's'})`
		: '';
	return {
		ok: false,
		downloadError: `${file.made}${cost}, but its file could not be downloaded: ${reasonOf(outcome.error)}. ${file.again}`,
	};
}

/** `downloadError` of a video reported created without its link: there was nothing to download. */
export function noLinkText(again: string): string {
	return `The video was rendered, but VisionStory gave no link to its file (video_url is empty), so there was nothing to download. ${again}`;
}
