import { checkedAudio } from './audioBody';
import type { Sleep } from './clock';
import { abortedError, delay } from './clock';
import type { EndpointSpec, SpeechHeaders } from './contract';
import type { ErrorReadOptions } from './errorBody';
import { readErrorAnswer } from './errorBody';
import { redactText, VisionStoryError } from './errors';
import type { ByteStream, Download, HttpChannel, HttpRequest, HttpResponse } from './http';
import { NetworkError } from './http';
import { withClientRequestId } from './idempotency';
import type { MediaPart } from './mediaBody';
import { jsonWithMedia } from './mediaBody';
import type { RequestBudget } from './requestBudget';

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** No retry is started once this much time has passed since the first attempt. */
	maxElapsedMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
	maxElapsedMs: 120_000,
};

export interface TransportOptions {
	baseUrl: string;
	sleep: Sleep;
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
	/** The credential's request budget: every attempt waits for a slot, and a rate-limit 429 slows it. */
	budget?: RequestBudget;
	/** The audio's length where the caller measured it (a file in the workflow): prices an alignment before it is sent. */
	audioSec?: number;
	/** Runs before every attempt after the first (a charged call's floor is checked again); throwing ends the call. */
	beforeResend?: () => Promise<void>;
	/**
	 * This call's price is already held against the balance floor (one part of a long text, admitted
	 * with the others by `SpendingClient.admitAll`): the floor is checked without adding it again, and
	 * this release gives the hold back once the call is answered.
	 */
	floorHold?: () => void;
}

export interface AudioResult {
	stream: ByteStream;
	mimeType: string;
	metadata: SpeechHeaders;
}

const MAX_ERROR_BODY = 64 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Sends requests with retries (backoff with jitter, Retry-After), idempotency keys for creates, and
 * errors a user can act on. A charged call that may have reached the service is never sent again.
 */
export class Transport {
	readonly baseUrl: string;
	private readonly apiOrigin: string;
	private readonly secrets: string[];
	private readonly retry: RetryPolicy;
	private readonly random: () => number;

	constructor(
		private readonly channel: HttpChannel,
		private readonly options: TransportOptions,
	) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.apiOrigin = new URL(this.baseUrl).origin;
		this.secrets = options.secrets ?? [];
		this.retry = { ...DEFAULT_RETRY, ...options.retry };
		this.random = options.random ?? Math.random;
	}

	/** Waits with the host's sleep; ends early when the signal fires. */
	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		await delay(this.options.sleep, ms, signal);
	}

	/** Sends one endpoint's request with an already validated request; returns the envelope's `data` (or the audio). */
	async exchange(
		name: string,
		spec: EndpointSpec,
		request: Record<string, unknown>,
		options: CallOptions = {},
	): Promise<unknown> {
		const media = options.media && Object.keys(options.media).length ? options.media : undefined;
		const body = spec.clientRequestId
			? withClientRequestId(request, options.idempotencyContext, media)
			: request;
		const http: HttpRequest = {
			method: spec.method,
			url: this.baseUrl + spec.path,
			timeoutMs: options.timeoutMs ?? spec.timeoutMs,
			response: spec.result === 'audio' ? 'stream' : 'json',
			withApiKey: true,
			followRedirects: false,
			signal: options.signal,
			...(spec.in === 'query'
				? { query: toQuery(body) }
				: media
					? bodyWithMedia(body, media)
					: { body }),
		};
		const replayable = spec.replay === 'always';
		const key = typeof body.client_request_id === 'string' ? body.client_request_id : undefined;
		return await this.withRetries(
			name,
			replayable,
			options.signal,
			async (attempts) => {
				if (attempts > 1) await options.beforeResend?.();
				// Without a budget (scripts), straight to the channel: one async step less per request.
				const response = options.budget
					? await this.budgeted(name, options.budget, options.signal, http)
					: await this.channel.send(http);
				if (isSuccess(response))
					return spec.result === 'audio'
						? await audioResult(name, response)
						: this.unwrap(name, response);
				const errorBody =
					spec.result === 'audio' ? await readBytes(response.body as ByteStream) : response.body;
				throw this.apiError(name, response, errorBody, { attempts, replayable });
			},
			key,
		);
	}

	/**
	 * Streams a file. The API key goes only to the API's own origin; redirects from there are followed
	 * by hand so the key never travels to the host they point at.
	 */
	async download(url: string, options: CallOptions = {}): Promise<Download> {
		return await this.withRetries('download', true, options.signal, async (attempts) => {
			let target = new URL(url, this.baseUrl);
			for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
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
				if (isSuccess(response)) return downloadOf(target, response);
				const body = await readBytes(response.body as ByteStream);
				throw this.apiError(
					'download',
					response,
					body,
					{ attempts, replayable: true, download: true, source: withApiKey ? 'api' : 'file' },
					'The file could not be downloaded',
				);
			}
			throw new VisionStoryError({
				category: 'network',
				operation: 'download',
				message: 'The download was redirected too many times',
			});
		});
	}

	/** Sends one attempt within the budget, if any; the answer's status tells the budget whether it was a rate limit. */
	private async budgeted(
		name: string,
		budget: RequestBudget,
		signal: AbortSignal | undefined,
		http: HttpRequest,
	): Promise<HttpResponse> {
		const grant = await budget.acquire(this.options.sleep, signal);
		let response: HttpResponse | undefined;
		try {
			response = await this.channel.send(http);
			return response;
		} finally {
			// The AI-video concurrency cap also answers 429, with details; it says nothing about the rate.
			const limited = response?.status === 429 && !isConcurrencyAnswer(name, response);
			grant.answered(
				limited ? { retryAfterMs: retryAfterMs(response!.headers['retry-after']) } : undefined,
			);
		}
	}

	/** Runs `attempt` until it succeeds or fails in a way that must not, or need not, be retried. */
	private async withRetries<T>(
		name: string,
		replayable: boolean,
		signal: AbortSignal | undefined,
		attempt: (n: number) => Promise<T>,
		idempotencyKey?: string,
	): Promise<T> {
		const started = Date.now();
		// Once an attempt may have reached the service (or succeeded), the call's final error says so,
		// whatever came after.
		let reached = false;
		let succeeded = false;
		for (let n = 1; ; n++) {
			if (signal?.aborted) throw abortedError();
			let failure: VisionStoryError;
			try {
				return await attempt(n);
			} catch (error) {
				reached ||= mayHaveReached(error);
				succeeded ||= mayHaveSucceeded(error);
				try {
					failure = this.retryableFailure(name, error, replayable, signal);
				} catch (final) {
					throw marked(final, { reached, succeeded }, idempotencyKey);
				}
			}
			// A Retry-After is waited out in full: the elapsed budget below still bounds it.
			const wait = failure.retryAfterMs ?? this.backoff(n);
			if (n >= this.retry.maxAttempts || Date.now() - started + wait > this.retry.maxElapsedMs)
				throw marked(failure, { reached, succeeded }, idempotencyKey);
			await this.sleep(wait, signal);
		}
	}

	/** The error to retry with, when the failed attempt may be tried again; otherwise the error is thrown. */
	private retryableFailure(
		name: string,
		error: unknown,
		replayable: boolean,
		signal?: AbortSignal,
	): VisionStoryError {
		if (error instanceof NetworkError) {
			if (error.aborted || signal?.aborted) throw abortedError();
			const failure = this.networkError(name, error, replayable);
			if (!replayable && error.mayHaveReachedService) throw failure;
			return failure;
		}
		if (
			!(error instanceof VisionStoryError) ||
			error.category !== 'api' ||
			error.status === undefined
		)
			throw error;
		if (!isRetryableStatus(error.status) || error.isConcurrencyLimit) throw error;
		// A charged call answered 409 or 5xx may have been processed; only a rate limit says it was not.
		if (!replayable && error.status !== 429) throw error;
		return error;
	}

	private backoff(attempt: number): number {
		const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
		// Equal jitter: at least half the step, so retries stay spaced while many items retry at once.
		return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
	}

	private unwrap(name: string, response: HttpResponse): unknown {
		const body = response.body;
		// A plain check, not a schema parse: the client parses `data` with the endpoint's own schema.
		if (body === null || typeof body !== 'object' || !('data' in body)) {
			// A page or text (a captive portal, a proxy's login page) is named for what it is, never shown raw.
			const page =
				typeof body === 'string' && body.trim()
					? readErrorAnswer(response, { secrets: this.secrets }).message
					: undefined;
			throw new VisionStoryError({
				category: 'response',
				operation: name,
				message: page ?? 'VisionStory answered with a body that is not its JSON envelope',
				hint: 'Check the Base URL in your VisionStory credential: it should be https://openapi.visionstory.ai',
			});
		}
		return (body as { data: unknown }).data;
	}

	/** Every failed answer, whatever its body, read by the one error parser. */
	private apiError(
		name: string,
		response: HttpResponse,
		body: unknown,
		read: ErrorReadOptions,
		prefix?: string,
	): VisionStoryError {
		const error = readErrorAnswer(
			{ status: response.status, headers: response.headers, body },
			{ ...read, secrets: this.secrets, baseUrl: this.baseUrl },
		);
		return new VisionStoryError({
			category: 'api',
			operation: name,
			status: response.status,
			code: error.code,
			message: prefix ? `${prefix}: ${lowerFirst(error.message)}` : error.message,
			hint: error.hint,
			details: error.details,
			issues: error.issues.length ? error.issues : undefined,
			// Only an AI-video create has a concurrency cap; a 429 elsewhere is a rate limit, whatever its details.
			concurrency: name === 'createAiVideo' ? error.concurrency : undefined,
			retryAfterMs: retryAfterMs(response.headers['retry-after']),
		});
	}

	private networkError(name: string, error: NetworkError, replayable: boolean): VisionStoryError {
		const lost = !replayable && error.mayHaveReachedService;
		return new VisionStoryError({
			category: 'network',
			operation: name,
			code: error.code,
			message: redactText(
				`The connection to VisionStory failed (${error.code}): ${error.message}`,
				this.secrets,
			),
			hint: lost
				? 'It was not sent again because VisionStory may have received it and charged it. Check the result or your credits before running it again.'
				: 'Check your network and the Base URL in the VisionStory credential, then try again.',
		});
	}
}

function isSuccess(response: HttpResponse): boolean {
	return response.status >= 200 && response.status < 300;
}

export function isRetryableStatus(status: number): boolean {
	return status === 409 || status === 429 || status >= 500;
}

function bodyWithMedia(
	body: Record<string, unknown>,
	media: Record<string, MediaPart>,
): Pick<HttpRequest, 'body' | 'stream'> {
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

/** An AI-video create's 429 naming the concurrency cap (details.in_flight), read as the error parser reads it. */
function isConcurrencyAnswer(name: string, response: HttpResponse): boolean {
	return (
		name === 'createAiVideo' &&
		readErrorAnswer({ status: response.status, headers: response.headers, body: response.body })
			.concurrency !== undefined
	);
}

/**
 * Whether a failed attempt may have reached the service and been processed: a connection lost after
 * the request left, a 5xx or 409 (processed or not, the answer does not say), a 2xx that could not be
 * read. A 429 or another 4xx refused it.
 */
function mayHaveReached(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	if (!(error instanceof VisionStoryError)) return false;
	if (error.category === 'response') return true;
	return (
		error.category === 'api' &&
		error.status !== undefined &&
		(error.status >= 500 || error.status === 409)
	);
}

/**
 * Whether a failed attempt may have been a success the service charged: its answer was lost after
 * the request left, or was a 2xx that could not be read. An error answer (5xx, 409) is not a success.
 */
function mayHaveSucceeded(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	return error instanceof VisionStoryError && error.category === 'response';
}

/** A refusal: a 4xx that is not a timeout, a registration still under way (409) or a rate limit. */
function isRefusal(error: VisionStoryError): boolean {
	const status = error.status ?? 0;
	return (
		error.category === 'api' && status >= 400 && status < 500 && ![408, 409, 429].includes(status)
	);
}

/**
 * The final error of a call, saying whether an attempt may have reached the service (or succeeded),
 * and the create's key. A keyed create the service refused outright made nothing under that key,
 * whatever an earlier attempt met (a reset, an empty 503): the service's words stay first, and the
 * key's note comes after them.
 */
function marked(
	error: unknown,
	attempts: { reached: boolean; succeeded: boolean },
	idempotencyKey?: string,
): unknown {
	const { reached, succeeded } = attempts;
	if (!(error instanceof VisionStoryError) || (!reached && !idempotencyKey)) return error;
	if (idempotencyKey && isRefusal(error)) {
		const note = reached
			? `Idempotency key ${idempotencyKey}: an earlier attempt under it got no answer, and this refusal shows VisionStory made nothing under it, so nothing was charged for it. Run the item again with the same key (within 24 hours) once this is fixed: VisionStory makes the video then, charged once.`
			: undefined;
		return error.with({
			idempotencyKey,
			...(note ? { hint: error.hint ? `${error.hint.replace(/\.?$/, '.')} ${note}` : note } : {}),
		});
	}
	return error.with({
		...(reached ? { mayHaveReachedService: true } : {}),
		...(succeeded ? { mayHaveSucceeded: true } : {}),
		...(idempotencyKey ? { idempotencyKey } : {}),
	});
}

/** "VisionStory answered…" reads on after a colon; a service's own sentence keeps its capital. */
function lowerFirst(message: string): string {
	return /^(The file host|VisionStory) /.test(message) ? message.replace(/^The/, 'the') : message;
}

/** Retry-After as seconds or as an HTTP date. */
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

async function audioResult(name: string, response: HttpResponse): Promise<AudioResult> {
	const h = response.headers;
	return {
		stream: await checkedAudio(name, response.body as ByteStream, h['content-type']),
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
	const named = disposition
		? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1]
		: undefined;
	const fromPath = decodeURIComponent(url.pathname.split('/').pop() ?? '');
	return {
		stream: response.body as ByteStream,
		mimeType: response.headers['content-type']?.split(';')[0] || undefined,
		fileName: named ?? (fromPath || undefined),
		contentLength: headerNumber(response.headers['content-length']),
	};
}

/** Reads at most 64 KiB of an error body, as bytes (the parser tells text from garbage); the rest is discarded. */
async function readBytes(stream: ByteStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.from(chunk);
		if (size < MAX_ERROR_BODY) chunks.push(buffer);
		size += buffer.length;
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY);
}

function drain(body: unknown): void {
	(body as { resume?: () => void } | undefined)?.resume?.();
}
