import { ApiError } from './errors';
import { reportedCreatedAt } from './createdAt';
import { newId } from './ids';
import { IDEMPOTENCY_WINDOW_MS, operationOf, type Account, type EmulatorState } from './state';
import type { Task } from './tasks';
import type { TaskKind } from './types';

export interface TaskSpec {
	kind: TaskKind;
	client_request_id: string | undefined;
	price: number;
	willFail: boolean;
	model_id: string;
	aspect_ratio: string;
	resolution: string;
	duration_sec: number;
}

/**
 * Creates a video task, or returns the one a `client_request_id` already names. Checks run in the
 * order that keeps the promise "nothing created, nothing charged": replay first (a resend must get
 * its task back even when the cap is full), then `admit` (the concurrency cap), then the charge.
 */
export function submitTask(
	state: EmulatorState,
	account: Account,
	spec: TaskSpec,
	admit: () => void = () => undefined,
): string {
	const now = state.now();
	const key =
		spec.client_request_id === undefined ? undefined : `${spec.kind}:${spec.client_request_id}`;
	if (key !== undefined) {
		const earlier = account.idempotency.get(key);
		if (earlier && now - earlier.arrivedAt < IDEMPOTENCY_WINDOW_MS) {
			if (now - earlier.arrivedAt < state.config.registerMs) {
				throw new ApiError(
					409,
					409,
					'A submission with this client_request_id is still being registered',
					{
						hint: 'Wait a few seconds and resend the same request with the same client_request_id; the original task comes back',
					},
				);
			}
			return earlier.videoId;
		}
	}
	admit();
	const video_id = newId(spec.kind === 'talkingVideo' ? 'vid' : 'aiv');
	const seq = state.nextSeq();
	const task: Task = {
		kind: spec.kind,
		video_id,
		account: account.id,
		client_request_id: spec.client_request_id ?? null,
		seq,
		submittedAt: now,
		createdAt: reportedCreatedAt(state.config, now, seq),
		queueMs: state.config.queueMs,
		renderMs: Math.max(state.config.renderMs, state.config.queueMs),
		willFail: spec.willFail,
		price: spec.price,
		settled: false,
		refunded: false,
		model_id: spec.model_id,
		aspect_ratio: spec.aspect_ratio,
		resolution: spec.resolution,
		duration_sec: spec.duration_sec,
	};
	state.ledger.charge(account, now, operationOf(task), spec.price, video_id);
	(spec.kind === 'talkingVideo' ? account.talkingVideos : account.aiVideos).set(video_id, task);
	if (key !== undefined) account.idempotency.set(key, { videoId: video_id, arrivedAt: now });
	return video_id;
}

/** Deleting a task still in flight cancels it, and a cancelled task is not charged. */
export function deleteTask(state: EmulatorState, account: Account, task: Task): void {
	const now = state.now();
	if (!task.settled && !task.refunded && now < task.submittedAt + task.renderMs) {
		task.refunded = true;
		state.ledger.refund(account, now, operationOf(task), task.price, task.video_id);
	}
	task.settled = true;
	(task.kind === 'talkingVideo' ? account.talkingVideos : account.aiVideos).delete(task.video_id);
}
