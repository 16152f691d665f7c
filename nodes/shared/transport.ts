import type { HttpMethod, OperationSpec } from './contract';
import type { SpeechHeaders } from './contract';
import { ErrorEnvelope } from './contract';
import { defaultHint, redact, redactText, VisionStoryError } from './errors';
import { deriveClientRequestId } from './idempotency';
import type { MediaPart, StreamedBody } from './mediaBody';
import { jsonWithMedia } from './mediaBody';
import { abortedError, delay } from './time';

/** A readable byte stream (a Node.js Readable in both channels). */
export type ByteStream = NodeJS.ReadableStream & AsyncIterable<Uint8Array | string>;

export interface HttpRequest {
	method: HttpMethod;
	url: string;
	query?: Record<string, string>;
	/** JSON-serialisable value, or JSON text already serialised; sent as application/json. */
	body?: unknown;
	/** A JSON body too large to hold in memory, streamed instead of `body`. */
	stream?: StreamedBody;
	timeoutMs: number;
	/** `json`: the body parsed; `stream`: the raw body as a stream, for files. */
	response: 'json' | 'stream';
	/** Attach the API key. The transport sets it only for the API's own origin. */
	withApiKey: boolean;
	followRedirects: boolean;
	signal?: AbortSignal;
}

export interface HttpResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON (or text when not JSON) for `json`, a ByteStream for `stream`. */
	body: unknown;
}

/** The raw HTTP layer: n8n's request helpers in the nodes, undici in scripts and tests. */
export interface HttpChannel {
	/** Resolves for every HTTP status; rejects with NetworkError when there is no answer. */
	send(request: HttpRequest): Promise<HttpResponse>;
}

/** Error codes meaning the request never left this machine, so resending cannot double anything. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

export class NetworkError extends Error {
	readonly code: string;
	readonly aborted: boolean;

	constructor(code: string, message: string, aborted = false) {
		super(message);
		this.name = 'NetworkError';
		this.code = code;
		this.aborted = aborted;
	}

	get mayHaveReachedService(): boolean {
		return !NOT_SENT_CODES.has(this.code);
	}
}

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** No retry is started once this much time has passed since the first attempt. */
	maxElapsedMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxElapsedMs: 120_000 };

export interface TransportOptions {
	baseUrl: string;
	/** Values to scrub from every message (the API key). */
	secrets?: string[];
	retry?: Partial<RetryPolicy>;
	/** Injected for tests; defaults to Math.random. */
	random?: () => number;
}

export interface CallOptions {
	signal?: AbortSignal;
	/** Execution, node and item: makes a create's client_request_id stable across resends in one execution. */
	idempotencyContext?: string;
	timeoutMs?: number;
	/** Files behind the request's media placeholders, by placeholder. */
	media?: Record<string, MediaPart>;
}

export interface AudioResult {
	stream: ByteStream;
	mimeType: string;
	metadata: SpeechHeaders;
}

export interface Download {
	stream: ByteStream;
	mimeType?: string;
	fileName?: string;
	contentLength?: number;
}

type Attempt<T> = { value: T } | { retry: VisionStoryError; retryAfterMs?: number };

const MAX_ERROR_BODY = 64 * 1024;

export class Transport {
	readonly baseUrl: string;
	private readonly apiOrigin: string;
	private readonly secrets: string[];
	private readonly retry: RetryPolicy;
	private readonly random: () => number;

	constructor(
		private readonly channel: HttpChannel,
		options: TransportOptions,
	) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.apiOrigin = new URL(this.baseUrl).origin;
		this.secrets = options.secrets ?? [];
		this.retry = { ...DEFAULT_RETRY, ...options.retry };
		this.random = options.random ?? Math.random;
	}

	/** Sends one operation with an already validated request; returns the envelope's `data`. */
	// Not async, and the attempt is a plain promise chain: every async layer costs microseconds per
	// request, which shows at thousands of requests a second.
	call(name: string, spec: OperationSpec, request: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
		const media = options.media && Object.keys(options.media).length ? options.media : undefined;
		const body = spec.clientRequestId ? this.withClientRequestId(request, options.idempotencyContext, media) : request;
		const http: HttpRequest = {
			method: spec.method,
			url: this.baseUrl + spec.path,
			timeoutMs: options.timeoutMs ?? spec.timeoutMs,
			response: spec.result === 'audio' ? 'stream' : 'json',
			withApiKey: true,
			followRedirects: false,
			signal: options.signal,
			...(spec.in === 'query' ? { query: toQuery(body) } : media ? bodyWithMedia(body, media) : { body }),
		};
		return this.withRetries(name, spec.replay === 'always', options.signal, () =>
			this.channel.send(http).then((response): Attempt<unknown> | Promise<Attempt<unknown>> => {
				if (response.status >= 200 && response.status < 300) {
					return { value: spec.result === 'audio' ? audioResult(response) : this.unwrap(name, response.body) };
				}
				if (spec.result !== 'audio') return this.failure(name, response, response.body);
				return readText(response.body as ByteStream).then((text) => this.failure(name, response, text));
			}),
		);
	}

	/**
	 * Streams a file. The API key goes only to the API's own origin; redirects from there are followed
	 * by hand so the key never travels to the host they point at.
	 */
	async download(url: string, options: CallOptions = {}): Promise<Download> {
		return await this.withRetries('download', true, options.signal, async () => {
			let target = new URL(url, this.baseUrl);
			for (let hop = 0; hop < 5; hop++) {
				const withApiKey = target.origin === this.apiOrigin;
				const response = await this.channel.send({
					method: 'GET',
					url: target.toString(),
					timeoutMs: options.timeoutMs ?? 300_000,
					response: 'stream',
					withApiKey,
					followRedirects: !withApiKey,
					signal: options.signal,
				});
				const location = response.headers.location;
				if (response.status >= 300 && response.status < 400 && location) {
					drain(response.body);
					target = new URL(location, target);
					continue;
				}
				if (response.status >= 200 && response.status < 300) {
					return { value: downloadOf(target, response) };
				}
				const text = await readText(response.body as ByteStream);
				return this.failure('download', response, parseJsonOrText(text), 'The file could not be downloaded');
			}
			throw new VisionStoryError({ kind: 'network', operation: 'download', message: 'The download was redirected too many times' });
		});
	}

	private withClientRequestId(request: Record<string, unknown>, context?: string, media?: Record<string, MediaPart>): Record<string, unknown> {
		if (request.client_request_id) return request;
		// Files count by identity, not bytes: hashing a 100 MB upload just to name it would be wasteful.
		const identities = media ? Object.fromEntries(Object.entries(media).map(([k, v]) => [k, v.identity])) : undefined;
		return { ...request, client_request_id: deriveClientRequestId(identities ? { request, media: identities } : request, context) };
	}

	private unwrap(name: string, body: unknown): unknown {
		// A plain check, not a schema parse: the envelope is only a wrapper, and parsing would copy
		// every answer (voice libraries, long lists) once more on the hot path.
		if (body === null || typeof body !== 'object' || !('data' in body)) {
			throw new VisionStoryError({
				kind: 'response',
				operation: name,
				message: 'VisionStory answered with a body that is not its JSON envelope',
				hint: 'Check the Base URL in your VisionStory credential: it should be https://openapi.visionstory.ai',
			});
		}
		return (body as { data: unknown }).data;
	}

	private failure(name: string, response: HttpResponse, body: unknown, fallbackMessage?: string): Attempt<never> {
		const error = this.apiError(name, response, body, fallbackMessage);
		if (!isRetryableStatus(response.status) || error.isConcurrencyLimit) throw error;
		return { retry: error, retryAfterMs: error.retryAfterMs };
	}

	private apiError(name: string, response: HttpResponse, body: unknown, fallbackMessage?: string): VisionStoryError {
		const parsed = ErrorEnvelope.safeParse(body);
		const error = parsed.success ? parsed.data.error : undefined;
		const details = error?.details ? redact(error.details, this.secrets) : undefined;
		const code = error?.code ?? response.status;
		const concurrency =
			response.status === 429 && details && ('limit' in details || 'in_flight' in details)
				? { limit: numberOrUndefined(details.limit), inFlight: numberOrUndefined(details.in_flight) }
				: undefined;
		const message =
			error?.message ??
			fallbackMessage ??
			(typeof body === 'string' && body.trim() ? body.trim().slice(0, 300) : `VisionStory answered HTTP ${response.status}`);
		return new VisionStoryError({
			kind: 'api',
			operation: name,
			status: response.status,
			code,
			message: redactText(message, this.secrets),
			hint: error?.hint ? redactText(error.hint, this.secrets) : defaultHint(response.status, code),
			details,
			concurrency,
			retryAfterMs: retryAfterMs(response.headers['retry-after']),
		});
	}

	private backoff(attempt: number): number {
		const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
		// Equal jitter: at least half the step, so retries stay spaced while many items retry at once.
		return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
	}

	/**
	 * Runs `attempt` until it yields a value, retrying answers and network errors that are safe to retry.
	 * `replayable` says whether a request that may have reached the service can be sent again.
	 */
	private withRetries<T>(
		name: string,
		replayable: boolean,
		signal: AbortSignal | undefined,
		attempt: () => Promise<Attempt<T>>,
	): Promise<T> {
		if (signal?.aborted) return Promise.reject(abortedError());
		const started = Date.now();
		// The first attempt is a plain promise chain; the retry loop only runs when it is needed.
		return attempt()
			.catch((error: unknown) => this.onNetworkError(name, error, replayable, signal))
			.then((outcome) => ('value' in outcome ? outcome.value : this.retryAfter(outcome, 1, started, name, replayable, signal, attempt)));
	}

	private async retryAfter<T>(
		first: Exclude<Attempt<T>, { value: T }>,
		attempts: number,
		started: number,
		name: string,
		replayable: boolean,
		signal: AbortSignal | undefined,
		attempt: () => Promise<Attempt<T>>,
	): Promise<T> {
		let outcome: Attempt<T> = first;
		for (let n = attempts; ; n++) {
			if ('value' in outcome) return outcome.value;
			if (!replayable && outcome.retry.kind === 'api' && outcome.retry.status !== 429) throw outcome.retry;
			// The service's Retry-After is waited out in full (a resend before it would only be refused
			// again); the elapsed-time budget below bounds it.
			const wait = outcome.retryAfterMs ?? this.backoff(n);
			if (n >= this.retry.maxAttempts || Date.now() - started + wait > this.retry.maxElapsedMs) throw outcome.retry;
			await delay(wait, signal);
			if (signal?.aborted) throw abortedError();
			outcome = await attempt().catch((error: unknown) => this.onNetworkError(name, error, replayable, signal));
		}
	}

	/** A network failure becomes a retry when resending is safe; anything else propagates. */
	private onNetworkError(name: string, error: unknown, replayable: boolean, signal?: AbortSignal): Attempt<never> {
		if (!(error instanceof NetworkError)) return rethrow(error);
		if (error.aborted || signal?.aborted) throw abortedError();
		const failure = this.networkError(name, error, replayable);
		if (!replayable && error.mayHaveReachedService) throw failure;
		return { retry: failure };
	}

	private networkError(name: string, error: NetworkError, replayable: boolean): VisionStoryError {
		const lost = !replayable && error.mayHaveReachedService;
		return new VisionStoryError({
			kind: 'network',
			operation: name,
			code: error.code,
			message: redactText(`The connection to VisionStory failed (${error.code}): ${error.message}`, this.secrets),
			hint: lost
				? 'It was not sent again because VisionStory may have received it and charged it. Check the result or your credits before running it again.'
				: 'Check your network and the Base URL in the VisionStory credential, then try again.',
		});
	}
}

function rethrow(error: unknown): never {
	throw error;
}

export function isRetryableStatus(status: number): boolean {
	return status === 409 || status === 429 || status >= 500;
}

function bodyWithMedia(body: Record<string, unknown>, media: Record<string, MediaPart>): Pick<HttpRequest, 'body' | 'stream'> {
	const encoded = jsonWithMedia(body, media);
	return 'text' in encoded ? { body: encoded.text } : { stream: encoded.stream };
}

function toQuery(request: Record<string, unknown>): Record<string, string> | undefined {
	let query: Record<string, string> | undefined;
	for (const [key, value] of Object.entries(request)) {
		if (value === undefined || value === null) continue;
		query ??= {};
		query[key] = Array.isArray(value) ? value.join(',') : String(value);
	}
	return query;
}

function numberOrUndefined(value: unknown): number | undefined {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function retryAfterMs(header: string | undefined): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function headerNumber(value: string | undefined): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	return Number.isFinite(n) ? n : undefined;
}

function audioResult(response: HttpResponse): AudioResult {
	const h = response.headers;
	return {
		stream: response.body as ByteStream,
		mimeType: h['content-type']?.split(';')[0] || 'audio/mpeg',
		metadata: {
			duration_sec: headerNumber(h['x-audio-duration-sec']),
			characters: headerNumber(h['x-usage-characters']),
			cost_credit: headerNumber(h['x-cost-credit']),
			audio_id: h['x-audio-id'] || undefined,
		},
	};
}

function downloadOf(url: URL, response: HttpResponse): Download {
	const disposition = response.headers['content-disposition'];
	const named = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
	const fromPath = decodeURIComponent(url.pathname.split('/').pop() ?? '');
	return {
		stream: response.body as ByteStream,
		mimeType: response.headers['content-type']?.split(';')[0] || undefined,
		fileName: named ?? (fromPath || undefined),
		contentLength: headerNumber(response.headers['content-length']),
	};
}

/** Reads at most 64 KiB of an error body; the rest is discarded. */
async function readText(stream: ByteStream): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
		if (size < MAX_ERROR_BODY) chunks.push(buffer);
		size += buffer.length;
	}
	return Buffer.concat(chunks).toString('utf8').slice(0, MAX_ERROR_BODY);
}

function drain(body: unknown): void {
	const stream = body as { resume?: () => void } | undefined;
	stream?.resume?.();
}

function parseJsonOrText(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
