import type { Checked } from './client';
import type { AiVideoDto, TalkingVideoDto } from './contract';
import type { VisionStoryError } from './errors';
import type { RequestBudget } from './requestBudget';
import type { CallOptions } from './exchange';

/**
 * The words of video tasks, as every file that creates, waits on, reads or watches them uses them:
 * the two kinds, a task, an item's outcome and a run's settings. The code is in `videoPipeline.ts`
 * (what a host calls), `taskRun.ts` (the wait: `runTasks`), `taskCreate.ts` (`createVideo`),
 * `intents.ts` (what an answer proves), `taskReads.ts` (`readTasks`) and `taskErrors.ts`.
 */

/** The two kinds of video task, and a task as either kind's status answer gives it. */
export type TaskKind = 'talkingVideo' | 'aiVideo';

/** Each kind as a sentence names it: "talking video", "AI video". */
export const KIND_WORDS: Record<TaskKind, string> = {
	talkingVideo: 'talking video',
	aiVideo: 'AI video',
};
export type VideoTask = TalkingVideoDto | AiVideoDto;

export type CreateName = 'createTalkingVideo' | 'createAiVideo';

export interface CreateJob<N extends CreateName = CreateName> {
	request: Checked<N>;
	call?: CallOptions;
	/**
	 * Its key may have been sent before (a caller's own key, a run without an execution id such as an
	 * MCP tool call, n8n's Retry of an execution): the answer is read back to see it is alive.
	 */
	keyMayRepeat?: boolean;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: VisionStoryError };

/** One item's video: its last read, and whether the service made it for this call. */
export interface VideoResult {
	/** Finished when the batch waited; otherwise as read right after the create (just the id when that read failed). */
	task: VideoTask | { video_id: string };
	/** Returned for a key that had already made it: no new video, no new charge. */
	existing: boolean;
	/** The client_request_id it belongs to. */
	idempotencyKey?: string;
}

/** What happens to AI videos the per-key concurrency cap refuses. */
export type AtLimit =
	/** Kept queued and sent as soon as one of our renders frees a slot, within the item's time limit. */
	| 'queue'
	/** Returned at once as an error that says so; nothing is created or charged. */
	| 'refuse';

/** How a batch is doing, for a log line while it runs. */
export interface Progress {
	kind: TaskKind;
	total: number;
	submitted: number;
	finished: number;
	failed: number;
	/** Submitted and not yet seen finished. */
	rendering: number;
	/** Not yet submitted: held for a slot, or sent again after a rate limit. */
	queued: number;
	/** The request budget's rate now, and the rate limits (429) met so far. */
	perSecond?: number;
	rateLimited?: number;
}

export interface RunOptions {
	/** Wait until every task finishes; otherwise return once every item is submitted (or refused). */
	waitForCompletion: boolean;
	pollIntervalMs: number;
	atLimit: AtLimit;
	signal?: AbortSignal;
	/** Talking-video submissions and single status reads in flight at once. */
	concurrency?: number;
	/** The credential's request budget: every status read waits for a slot in it (submissions take theirs in `submit`). */
	budget?: RequestBudget;
	/** Told how the batch is doing (a line naming `node`), at most every `progressEveryMs`, while it runs. */
	log?: { to: ProgressLog; node: string };
	progressEveryMs?: number;
	/** What the host is told as the run goes (its status, its records of paid videos). */
	reports?: RunReports;
}

/** Progress up to the host, through the callbacks it hands down: the core never calls back otherwise. */
export interface RunReports {
	/** An item's create was answered: its video, and the key that returns it within 24 hours. */
	submitted?(index: number, videoId: string, idempotencyKey: string): void;
	/** How the batch is doing, after every create answered and every read taken in. */
	progress?(progress: Progress): void;
}

/** A video that exists already (Check Status's id, a Node-RED pick-up after a deploy): waited on, never created. */
export interface FollowJob {
	videoId: string;
	/** The key it was created under, when known: every ending names it. */
	key?: string;
	/** When it was submitted (ms since the epoch): its Timeout counts from here. */
	since: number;
	timeoutMs: number;
}

/** One item to submit: its checked create request and call options, and how long it may take in all (queueing for a slot, and rendering when waited on). */
export interface TaskJob extends CreateJob {
	request: Checked<CreateName>;
	call?: CallOptions;
	timeoutMs: number;
}

/** What the progress lines are written to: n8n's logger in the nodes. */
export interface ProgressLog {
	info(message: string): void;
}

/** Reads a task reported created may come without its link before it is taken as it is (its file missing). */
export const MAX_LINKLESS_READS = 3;
