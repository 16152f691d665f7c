/**
 * Video tasks: submitting many and waiting on them together (`taskRun.ts`), one create with its
 * read-back and new attempts (`taskCreate.ts`), reading many statuses (`taskReads.ts`) and the
 * errors an item can end with (`taskErrors.ts`). Operations import from here.
 */
export type { TaskKind, VideoTask } from './taskErrors';
export { notFoundError, taskFailedError } from './taskErrors';
export type { PollResult, ReadOptions } from './taskReads';
export { readTasks, TalkingVideoList } from './taskReads';
export type { CreatedVideo, CreateJob } from './taskCreate';
export { createVideo, MAX_NEW_ATTEMPTS } from './taskCreate';
export type {
	AtLimit,
	Outcome,
	Progress,
	ProgressLog,
	RunOptions,
	TaskJob,
	VideoResult,
} from './taskRun';
export { progressLine, runTasks } from './taskRun';
