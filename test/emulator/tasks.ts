import type { TaskKind, TaskRecord, TaskStatus } from './types';

/**
 * A video task's state is never stored: it follows from the clock. queued for queueMs after
 * submission, creating until renderMs after submission, then created or failed.
 */
export interface Task {
	kind: TaskKind;
	video_id: string;
	account: string;
	client_request_id: string | null;
	/** Position marker for keyset pagination. */
	seq: number;
	submittedAt: number;
	/** Unix seconds the service reports as `created_at` (`createdAt.ts`). */
	createdAt: number;
	queueMs: number;
	renderMs: number;
	/** Set by a `[fail]` marker: the task ends failed and is refunded. */
	willFail: boolean;
	/** Credits charged at submission. */
	price: number;
	/** True once the task's end (and any refund) has been booked. */
	settled: boolean;
	/** True when the charge went back, on failure or when deleted in flight. */
	refunded: boolean;
	model_id: string;
	aspect_ratio: string;
	resolution: string;
	duration_sec: number;
}

export const IN_FLIGHT: readonly TaskStatus[] = ['queued', 'creating'];

export function finishesAt(task: Task): number {
	return task.submittedAt + task.renderMs;
}

export function statusAt(task: Task, now: number): TaskStatus {
	if (now < task.submittedAt + task.queueMs) return 'queued';
	if (now < finishesAt(task)) return 'creating';
	return task.willFail ? 'failed' : 'created';
}

export function isInFlight(task: Task, now: number): boolean {
	return IN_FLIGHT.includes(statusAt(task, now));
}

export function taskRecord(task: Task, now: number): TaskRecord {
	const status = statusAt(task, now);
	return {
		kind: task.kind,
		video_id: task.video_id,
		account: task.account,
		client_request_id: task.client_request_id,
		submittedAt: task.submittedAt,
		startedAt: status === 'queued' ? null : task.submittedAt + task.queueMs,
		finishedAt: IN_FLIGHT.includes(status) ? null : finishesAt(task),
		status,
	};
}

export function videoUrl(mediaBaseUrl: string, videoId: string): string {
	return `${mediaBaseUrl}/media/videos/${videoId}.mp4`;
}

export function coverUrl(mediaBaseUrl: string, videoId: string): string {
	return `${mediaBaseUrl}/media/images/cover-${videoId}.png`;
}

/** How a service may fill in a task's answer where the contract allows (config `lateCost`, `videoUrlDelayMs`). */
export interface TaskAnswerStyle {
	lateCost: boolean;
	videoUrlDelayMs: number;
}

/** What a task's answer says it cost: its charge (0 once failed or refunded), or 0 until it finished under `lateCost`. */
function reportedCost(task: Task, status: TaskStatus, style?: TaskAnswerStyle): number {
	if (status === 'failed' || task.refunded) return 0;
	return style?.lateCost && status !== 'created' ? 0 : task.price;
}

/** The link of a finished video, empty for `videoUrlDelayMs` after it finished. */
function reportedUrl(
	task: Task,
	now: number,
	mediaBaseUrl: string,
	style?: TaskAnswerStyle,
): string | null {
	if (statusAt(task, now) !== 'created') return null;
	if (style?.videoUrlDelayMs && now < finishesAt(task) + style.videoUrlDelayMs) return '';
	return videoUrl(mediaBaseUrl, task.video_id);
}

export function talkingVideoDto(
	task: Task,
	now: number,
	mediaBaseUrl: string,
	style?: TaskAnswerStyle,
): Record<string, unknown> {
	const status = statusAt(task, now);
	return {
		video_id: task.video_id,
		model_id: task.model_id,
		status,
		created_at: task.createdAt,
		aspect_ratio: task.aspect_ratio,
		resolution: task.resolution,
		cost_credit: reportedCost(task, status, style),
		video_url: reportedUrl(task, now, mediaBaseUrl, style),
	};
}

export const AI_FAILURE = {
	code: 5001,
	message: 'Generation failed upstream; the credits were refunded',
};

export function aiVideoDto(
	task: Task,
	now: number,
	mediaBaseUrl: string,
	style?: TaskAnswerStyle,
): Record<string, unknown> {
	const status = statusAt(task, now);
	const dto: Record<string, unknown> = {
		video_id: task.video_id,
		model_id: task.model_id,
		status,
		video_url: reportedUrl(task, now, mediaBaseUrl, style),
		cover_url: status === 'created' ? coverUrl(mediaBaseUrl, task.video_id) : null,
		duration_sec: task.duration_sec,
		resolution: task.resolution,
		aspect_ratio: task.aspect_ratio,
		cost_credit: reportedCost(task, status, style),
		created_at: task.createdAt,
	};
	if (status === 'failed') dto.error = { ...AI_FAILURE };
	return dto;
}
