import type { Context } from './context';
import type { MsgError } from './errors';

/** What an operation hands back for the message it was given. */
export interface Result {
	/** Becomes msg.payload: the file (Buffer or path) when one was fetched, else the API's data. */
	payload: unknown;
	/** Becomes msg.visionstory: the API's data (tasks with their links) beside a file in payload. */
	data?: unknown;
	/** Output the message leaves by (Check Status: 0 finished, 1 still rendering). */
	output?: number;
	/** Entries of a batch that failed, by position; the others are in payload. */
	errors?: MsgError[];
	/** Credits this message has spent so far (all VisionStory nodes it passed). */
	spent?: number;
}

export interface Operation {
	value: string;
	label: string;
	/** One line for the editor and the help. */
	description: string;
	/** Labels of the outputs when the operation has more than one. */
	outputs?: readonly string[];
	run(context: Context): Promise<Result>;
}
