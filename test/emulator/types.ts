// Public types of the emulator: everything other test suites and the CLI code against.

export interface EmulatorOptions {
	port?: number;
	mediaPort?: number;
	renderMs?: number;
	queueMs?: number;
	aiConcurrencyCap?: number;
	registerMs?: number;
	clock?: 'real' | 'manual';
	seed?: number;
	accounts?: Array<{ apiKey: string; credits: number }>;
	/** Start in drift mode (see `EmulatorConfig.drift`). */
	drift?: boolean;
}

/** Behaviour knobs that can change while the emulator runs; they apply to submissions made afterwards. */
export interface EmulatorConfig {
	renderMs: number;
	queueMs: number;
	aiConcurrencyCap: number;
	registerMs: number;
	/** 0 serves rendered videos as the sample MP4; above 0, as a generated stream of that many bytes. */
	videoBytes: number;
	concurrencyDetailsAsString: boolean;
	/**
	 * Links to rendered videos, covers and generated images point at the API origin's `/media/...`,
	 * which answers 302 to the same path on the media origin (as an API that hands out links on its
	 * own domain and redirects them to a CDN): downloads then cross from the API's origin to another.
	 */
	redirectMedia: boolean;
	/**
	 * Drift mode (`drift.ts`): unknown fields everywhere, other shapes for what the contract leaves
	 * open, odd model entries, an unknown non-final status before the real one, extensionless media
	 * links served as application/octet-stream.
	 */
	drift: boolean;
	/** With `drift`: proxy HTML 502s and empty 503s on the first GETs of each path, list-shaped 422 details, plain-text 401s. */
	driftErrors: boolean;
	/** Per-key rate limit: API requests an account may send in any second (emulator clock); above it, 429 with Retry-After. 0: none. */
	rateLimitPerSecond: number;
	/**
	 * What `GET /api/v1/videos` offers (the contract leaves it unstated): `paged` (cursor, limit, status,
	 * full tasks), `ignoresCursor` (always the newest page of 20, whatever cursor and limit say),
	 * `idsOnly` (entries of `video_id` and `created_at` only, paged), `absent` (404, no such endpoint).
	 */
	talkingVideoList: 'paged' | 'ignoresCursor' | 'idsOnly' | 'absent';
	/** Video tasks report `cost_credit` 0 (the contract's default) until they finish, instead of from submission on. */
	lateCost: boolean;
	/** A finished video shows status created with `video_url` empty for this long (ms) before its link appears. */
	videoUrlDelayMs: number;
	/** Tasks submitted from now on report a `created_at` up to this many seconds before their submission (`createdAt.ts`). 0: none. */
	createdAtSkewSeconds: number;
	/**
	 * Align and transcribe answer word timings as real aligners may: the second word ends 20 ms before
	 * it starts, and the third word (and any word holding a digit) has `start_sec` and `end_sec` null.
	 */
	oddWordTimings: boolean;
}

export type FaultKind =
	| 'http500'
	| 'http503'
	| 'http429'
	| 'http409'
	| 'resetBefore'
	| 'resetAfter'
	/** API origin: the request is processed (created, charged) and no answer ever comes; the connection stays open until the client gives up. */
	| 'hangAfter'
	/** Media origin: send the headers and half of the body, then reset the connection. */
	| 'truncateBody'
	/** Either origin: answer with the entry's `respond` (any status, headers and body) without processing the request. */
	| 'respond'
	/** Media origin: refuse the file as a CDN does for an expired or withheld link (403) or a removed one (404). */
	| 'http403'
	| 'http404'
	/** API origin: process the request (create, charge), then answer with the entry's `rewrite` applied to `data`. */
	| 'rewriteAnswer'
	/** API origin: the request waits `delayMs` (real time) before it is handled as usual: a slow create while reads stay fast. */
	| 'slow';

/** What a `respond` fault answers: any status, headers and body, e.g. a proxy's HTML 502 or an envelope of another shape. */
export interface FaultResponse {
	status: number;
	headers?: Record<string, string>;
	/** A string is sent as is (`text/plain` unless a Content-Type is given); any other value as JSON. Absent: an empty body. */
	body?: unknown;
	/** Raw bytes instead of `body`, as base64 (binary garbage). */
	bodyBase64?: string;
}

export interface FaultScript {
	method?: string;
	/** Exact pathname, e.g. '/api/v1/video'. Absent matches every path. */
	path?: string;
	kind: FaultKind;
	/** How many matching requests this entry hits; default 1. */
	count?: number;
	/** Seconds for the Retry-After header of an http429; default 1. */
	retryAfter?: number;
	/** How Retry-After is written: `seconds` (default) or `date`, an HTTP date that many seconds from now (wall clock, Date.now). */
	retryAfterAs?: 'seconds' | 'date';
	/** Which origin the entry targets; default 'api'. */
	origin?: 'api' | 'media';
	/** For kind `respond`: the answer to send. */
	respond?: FaultResponse;
	/** For kind `rewriteAnswer`: fields of the answer's `data` to drop, and fields to set (e.g. `cost_credit: 0`). */
	rewrite?: { drop?: string[]; set?: Record<string, unknown> };
	/**
	 * Another program using the same account spends this many credits when the entry hits, before
	 * the entry's own fault (the ledger shows it as operation `elsewhere`); never more than the balance.
	 */
	spendElsewhere?: number;
	/** For kind `slow`: how long the request waits before it is handled, ms; default 1000. */
	delayMs?: number;
}

export interface Faults {
	/** Probability (0..1) that an API request is answered 500 or 503 without being processed. */
	rate5xx: number;
	/** Probability that an API request is answered with a general 429 (Retry-After: 1, no details). */
	rate429: number;
	/** Probability that an API request's connection is reset before processing. */
	resetRate: number;
	/** Delay added before every API request is processed. */
	latencyMs: number;
	/**
	 * A read replica behind the primary: a video task created while this is above 0 is missing from
	 * its first `readLag` status reads (`GET /api/v1/video` and `/api/v1/ai_video` answer 404, the
	 * AI-video batch read and both lists leave it out). 0: every read shows it at once.
	 */
	readLag: number;
	failNext: FaultScript[];
}

export interface LedgerEntry {
	seq: number;
	/** Emulator clock, ms. */
	at: number;
	/** Account id (never the API key). */
	account: string;
	operation: string;
	kind: 'charge' | 'refund';
	/** Always positive; `kind` gives the direction. */
	credits: number;
	/** Id of what was charged for: a video id, image id, audio id or request id. */
	refId: string;
	/** Account balance right after this entry. */
	balance: number;
}

export interface RequestLogEntry {
	seq: number;
	/** Emulator clock, ms, when the request arrived. */
	at: number;
	origin: 'api' | 'media';
	method: string;
	path: string;
	query: Record<string, string>;
	/** Whether an X-API-Key header was sent and matched an account; the key itself is never recorded. */
	apiKey: 'valid' | 'invalid' | 'absent';
	account?: string;
	/** Status sent, or for a reset: 0 when reset before processing, the status that would have been sent when reset after. */
	status: number;
	/** `unanswered`: a hangAfter fault; the request was processed and the answer withheld. */
	outcome: 'answered' | 'reset' | 'unanswered';
	bodyBytes: number;
	/** The JSON body's top-level `text` (TTS, align), so a test can tell which part of a script a call carried. */
	text?: string;
	/** The JSON body's other short top-level scalars (voice_id, locale, model_id, flags…). */
	settings?: Record<string, string | number | boolean>;
}

export type TaskKind = 'talkingVideo' | 'aiVideo';
export type TaskStatus = 'queued' | 'creating' | 'created' | 'failed';

export interface TaskRecord {
	kind: TaskKind;
	video_id: string;
	account: string;
	client_request_id: string | null;
	submittedAt: number;
	/** When rendering began; null while still queued. */
	startedAt: number | null;
	/** When the task reached created or failed; null until then. */
	finishedAt: number | null;
	status: TaskStatus;
}

export interface Emulator {
	baseUrl: string;
	mediaBaseUrl: string;
	apiKey: string;
	addAccount(apiKey: string, credits: number): void;
	setConfig(c: Partial<EmulatorConfig>): void;
	setFaults(f: Partial<Faults>): void;
	clearFaults(): void;
	advance(ms: number): void;
	now(): number;
	ledger(apiKey?: string): LedgerEntry[];
	balance(apiKey?: string): number;
	requests(filter?: {
		origin?: 'api' | 'media';
		method?: string;
		path?: string;
	}): RequestLogEntry[];
	tasks(apiKey?: string): TaskRecord[];
	clearLog(): void;
	reset(): void;
	stop(): Promise<void>;
	/** Additions beyond the agreed interface. */
	config(): EmulatorConfig;
	faults(): Faults;
	accountId(apiKey: string): string | undefined;
}
