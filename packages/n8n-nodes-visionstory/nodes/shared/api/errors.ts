/**
 * The one error every layer below the nodes throws. It carries only redacted, user-facing data:
 * never the request options, headers or the original library error (those hold the API key).
 */
export type ErrorCategory =
	/** The service answered with an error envelope. */
	| 'api'
	/** No usable answer: connection refused, reset, timed out. */
	| 'network'
	/** Input rejected locally; nothing was sent. */
	| 'validation'
	/** The service answered 2xx with a body we could not read. */
	| 'response'
	/** A wait for tasks ran out of time. */
	| 'timeout'
	/** A task ended in status failed. */
	| 'taskFailed'
	| 'aborted';

export interface FieldIssue {
	/** Dotted path of the API field, e.g. `text_script.voice_id` or `inputs.8`. */
	field: string;
	message: string;
}

export interface VisionStoryErrorInit {
	category: ErrorCategory;
	message: string;
	hint?: string;
	/** The endpoint (createTalkingVideo) or node operation (synthesize) the error came from. */
	operation?: string;
	status?: number;
	code?: number | string;
	details?: Record<string, unknown>;
	issues?: FieldIssue[];
	/** Task ids the error is about (timeouts and failed tasks), so the user can resume with Get. */
	videoIds?: string[];
	retryAfterMs?: number;
	/** For concurrency 429s: the per-key cap and how many tasks hold a slot now. */
	concurrency?: { limit?: number; inFlight?: number };
	/** An attempt of this call may have reached VisionStory (and been processed, and charged). */
	mayHaveReachedService?: boolean;
	/**
	 * An attempt may have succeeded (so been charged), whatever the last one answered: its answer was
	 * lost after the request reached VisionStory, or was a 2xx that could not be read.
	 */
	mayHaveSucceeded?: boolean;
	/** The create's client_request_id: sent again within 24 hours, it returns what the call made. */
	idempotencyKey?: string;
}

export class VisionStoryError extends Error {
	readonly category: ErrorCategory;
	readonly hint?: string;
	readonly operation?: string;
	readonly status?: number;
	readonly code?: number | string;
	readonly details?: Record<string, unknown>;
	readonly issues?: FieldIssue[];
	readonly videoIds?: string[];
	readonly retryAfterMs?: number;
	readonly concurrency?: { limit?: number; inFlight?: number };
	readonly mayHaveReachedService?: boolean;
	readonly mayHaveSucceeded?: boolean;
	readonly idempotencyKey?: string;

	constructor(init: VisionStoryErrorInit) {
		super(init.message);
		this.name = 'VisionStoryError';
		this.category = init.category;
		this.hint = init.hint;
		this.operation = init.operation;
		this.status = init.status;
		this.code = init.code;
		this.details = init.details;
		this.issues = init.issues;
		this.videoIds = init.videoIds;
		this.retryAfterMs = init.retryAfterMs;
		this.concurrency = init.concurrency;
		this.mayHaveReachedService = init.mayHaveReachedService;
		this.mayHaveSucceeded = init.mayHaveSucceeded;
		this.idempotencyKey = init.idempotencyKey;
	}

	/** The same error with some of its fields changed. */
	with(changes: Partial<VisionStoryErrorInit>): VisionStoryError {
		return new VisionStoryError({ ...this.init(), ...changes });
	}

	private init(): VisionStoryErrorInit {
		return {
			category: this.category,
			message: this.message,
			hint: this.hint,
			operation: this.operation,
			status: this.status,
			code: this.code,
			details: this.details,
			issues: this.issues,
			videoIds: this.videoIds,
			retryAfterMs: this.retryAfterMs,
			concurrency: this.concurrency,
			mayHaveReachedService: this.mayHaveReachedService,
			mayHaveSucceeded: this.mayHaveSucceeded,
			idempotencyKey: this.idempotencyKey,
		};
	}

	/** A concurrency 429 is not a failure: the submission waits for a free slot. */
	get isConcurrencyLimit(): boolean {
		return this.status === 429 && this.concurrency !== undefined;
	}
}

/** Input refused before anything was sent: the one factory for it, whoever checks. */
export function invalidInput(source: string, issues: FieldIssue[]): VisionStoryError {
	const text = issues.map((i) => (i.field ? `${i.field} ${i.message}` : i.message)).join('; ');
	return new VisionStoryError({
		category: 'validation',
		operation: source,
		message: `Invalid input: ${text}`,
		hint: 'Nothing was sent to VisionStory. Fix the value and run again.',
		issues,
	});
}

export function isAborted(error: unknown): boolean {
	return error instanceof VisionStoryError && error.category === 'aborted';
}

const API_KEY_PATTERN = /sk-vs-[A-Za-z0-9_-]{4,}/g;
/** Long base64 runs are inline media: useless in a message and possibly private. */
const BASE64_RUN = /[A-Za-z0-9+/]{120,}={0,2}/g;

/** Removes API keys (given ones and anything shaped like one) and base64 payloads. */
export function redactText(text: string, secrets: readonly string[] = []): string {
	let out = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 6) out = out.split(secret).join('[redacted]');
	}
	return out
		.replace(API_KEY_PATTERN, 'sk-vs-[redacted]')
		.replace(BASE64_RUN, (run) => `[base64, ${run.length} characters]`);
}

export function redact<T>(value: T, secrets: readonly string[] = []): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (Array.isArray(value)) return value.map((v) => redact(v, secrets)) as T;
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) {
			// Keys too: a service may echo the key as a field name.
			out[redactText(key, secrets)] = /^(x-api-key|api_?key|authorization)$/i.test(key)
				? '[redacted]'
				: redact(v, secrets);
		}
		return out as T;
	}
	return value;
}

/** What to do next, for answers that arrive without the service's own hint. */
export function defaultHint(
	status: number | undefined,
	code?: number | string,
): string | undefined {
	if (code === 37100)
		return 'The request was refused by content moderation. Rephrase the prompt or use other media; nothing was charged.';
	if (code === 37101)
		return 'A reference image could not be read. Check that the URL is public or the file is a valid image.';
	switch (status) {
		case 400:
			return 'Check the values against the model list (List Models shows what each model accepts).';
		case 401:
			return 'Check the API key in your VisionStory credential: it starts with sk-vs- and needs a Pro plan or higher.';
		case 402:
			return 'Your VisionStory account has too few credits. Top up, then run the workflow again.';
		case 403:
			return 'The service refused this request; nothing was charged. Check your plan (AI video needs an active paid subscription) and the input.';
		case 404:
			return 'Check the id. It may have been deleted, belong to another account or have expired (videos are kept 7 days).';
		case 409:
			return 'The same request is still being registered. Run again in a few seconds; the original task will be returned.';
		case 413:
			return 'The file is too large for this operation. Use a smaller file or pass it by URL.';
		case 422:
			return 'Fix the fields listed above and run again.';
		case 429:
			return 'Too many requests at once. Wait a minute, or lower the batch size.';
		default:
			return status !== undefined && status >= 500
				? 'VisionStory had a temporary problem. Try again in a few minutes.'
				: undefined;
	}
}
