import type { FieldIssue } from './api';
import { VisionStoryError, redact, redactText } from './api';
import type { Texts } from './texts';

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
	/** The batch entry it is about, as it came in. */
	input?: unknown;
	category?: string;
	/** What the error is about in numbers: a spend limit's value, the balance, the credits spent. */
	details?: Record<string, unknown>;
}

/** The calls a spend limit can refuse, as a flow's author would name them. */
const CHARGED_CALLS: Record<string, string> = {
	createTalkingVideo: 'Creating a talking video',
	createAiVideo: 'Creating an AI video',
	generateImage: 'Generating an image',
	synthesizeSpeech: 'Text to speech',
	alignAudio: 'Aligning audio',
	transcribeAudio: 'Transcribing audio',
	understandMedia: 'Understanding media',
	cloneVoice: 'Cloning a voice',
	createAvatar: 'Creating an avatar',
};

/** A spend limit's refusal starts with what it refused: the shared client says only "this call". */
function refused(error: VisionStoryError, message: string): string {
	const limit = error.details?.keepAtLeastCredits ?? error.details?.maxCreditsPerExecution;
	const call = error.operation ? CHARGED_CALLS[error.operation] : undefined;
	return limit !== undefined && call ? `${call} was refused: ${message}` : message;
}

/** The shared client speaks of executions (n8n's word); here the cap is per message. */
function inNodeRedWords(text: string): string {
	return text
		.replace(/Max Credits per Execution/g, 'Max credits per message')
		.replace(/this execution/g, 'this message')
		.replace(/in a new execution/g, 'in a new message')
		.replace(/n8n-nodes-visionstory maintainers/g, 'node-red-visionstory maintainers');
}

/** The cap's numbers under the config field's name. */
function detailsInNodeRedWords(details: Record<string, unknown>): Record<string, unknown> {
	if (!('maxCreditsPerExecution' in details)) return details;
	const { maxCreditsPerExecution, ...rest } = details;
	return { maxCreditsPerMessage: maxCreditsPerExecution, ...rest };
}

export function describe(error: unknown, secrets: readonly string[] = []): MsgError {
	if (error instanceof VisionStoryError) {
		return {
			message: refused(error, inNodeRedWords(redactText(error.message, secrets))),
			...(error.hint ? { hint: inNodeRedWords(redactText(error.hint, secrets)) } : {}),
			...(error.status !== undefined ? { status: error.status } : {}),
			...(error.code !== undefined ? { code: error.code } : {}),
			...(error.issues ? { issues: error.issues } : {}),
			...(error.videoIds ? { videoIds: error.videoIds } : {}),
			...(error.details ? { details: detailsInNodeRedWords(redact(error.details, secrets)) } : {}),
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
export function batchError(failed: MsgError[], total: number, texts: Texts): FlowError {
	const first = failed[0];
	return new FlowError({
		message: texts('error.batch', {
			failed: failed.length,
			total,
			number: (first.index ?? 0) + 1,
			message: first.message,
		}),
		hint: first.hint,
		status: first.status,
		code: first.code,
		videoIds: failed.flatMap((f) => f.videoIds ?? []),
		...(first.details ? { details: first.details } : {}),
	});
}
