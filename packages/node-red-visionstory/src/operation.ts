import type { Context } from './context';
import type { MsgError } from './errors';

/** What an operation hands back for the message it was given. */
export interface Result {
	/** Becomes msg.payload: the file (Buffer or path) when one was fetched, else the API's data. */
	payload: unknown;
	/** Becomes msg.visionstory: the API's data (tasks with their links) beside a file in payload. */
	data?: unknown;
	/** Result output it leaves by, of `Operation.outputs` (Check Status: 0 finished, 1 still rendering). */
	output?: number;
	/** A batch (msg.payload as an array in): payload and data hold one entry per item, in input order. */
	batch?: boolean;
	/** Entries of a batch that failed, by position (payload and data hold null there). */
	errors?: MsgError[];
	/**
	 * The message failed but what was made and charged is kept (a long text cut short after some parts):
	 * it leaves by the failure output with that payload and this error, one outcome for the message.
	 */
	failure?: MsgError;
	/** Submitted and not waited on: the videos still render. */
	submitted?: boolean;
}

export interface Operation {
	value: string;
	label: string;
	/** One line for the editor and the help. */
	description: string;
	/** Labels of the result outputs when the operation has more than one (failures have their own). */
	outputs?: readonly string[];
	run(context: Context): Promise<Result>;
}
