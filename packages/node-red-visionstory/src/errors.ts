import type { FieldIssue } from './api';
import { VisionStoryError, redactText } from './api';

/** An error as a flow sees it in msg.error / msg.errors: the service's own words first. */
export interface MsgError {
	message: string;
	hint?: string;
	status?: number;
	code?: number | string;
	issues?: FieldIssue[];
	videoIds?: string[];
	/** Position in a batch. */
	index?: number;
	category?: string;
}

/** The shared client speaks of executions (n8n's word); here the cap is per message. */
function inNodeRedWords(text: string): string {
	return text
		.replace(/Max Credits per Execution/g, 'Max credits per message')
		.replace(/this execution/g, 'this message')
		.replace(/in a new execution/g, 'in a new message');
}

export function describe(error: unknown, secrets: readonly string[] = []): MsgError {
	if (error instanceof VisionStoryError) {
		return {
			message: inNodeRedWords(redactText(error.message, secrets)),
			...(error.hint ? { hint: inNodeRedWords(redactText(error.hint, secrets)) } : {}),
			...(error.status !== undefined ? { status: error.status } : {}),
			...(error.code !== undefined ? { code: error.code } : {}),
			...(error.issues ? { issues: error.issues } : {}),
			...(error.videoIds ? { videoIds: error.videoIds } : {}),
			category: error.category,
		};
	}
	const message = error instanceof Error ? error.message : String(error);
	return { message: redactText(message, secrets) };
}

/**
 * The Error a node passes to done(): Node-RED's Catch node copies its text, `code` and `cause`, so the
 * text carries the message and the hint, `cause` the whole description.
 */
export class FlowError extends Error {
	readonly code?: number | string;
	readonly cause: MsgError;

	constructor(described: MsgError) {
		super(
			described.hint
				? `${described.message.replace(/\.$/, '')}. ${described.hint}`
				: described.message,
		);
		this.name = 'VisionStoryError';
		if (described.code !== undefined || described.status !== undefined)
			this.code = described.code ?? described.status;
		this.cause = described;
	}

	/** What Node-RED shows and Catch nodes get as msg.error.message: no "Error:" prefix. */
	override toString(): string {
		return this.message;
	}
}

/** A batch where some entries failed: one error naming how many, and the first reason. */
export function batchError(failed: MsgError[], total: number): FlowError {
	const first = failed[0];
	return new FlowError({
		message: `${failed.length} of ${total} failed; the first (#${(first.index ?? 0) + 1}): ${first.message}`,
		hint: first.hint,
		status: first.status,
		code: first.code,
		videoIds: failed.flatMap((f) => f.videoIds ?? []),
	});
}
