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
import { isRefusalStatus, isTransientStatus, mayHaveProcessedStatus } from './statusCodes';

/**
 * The exchange with VisionStory, read top to bottom: a checked request becomes the HTTP request (a
 * create's idempotency key, the query or JSON body, files streamed in); each attempt goes through the
 * host's channel within the request budget; a failed attempt is sent again only when that cannot
 * charge twice, after backoff or Retry-After; the answer is read (the envelope's `data`, the audio, a
 * file) or becomes the one error, saying whether an attempt may have reached the service. What an
 * error status means is the one table in `statusCodes.ts`.
 */

/** What a caller may add to one call. */
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

export interface ExchangeOptions {
	baseUrl: string;
	sleep: Sleep;
	/** Values to scrub from every message (the API key). */
	secrets?: string[];
	retry?: Partial<RetryPolicy>;
	/** Injected for tests; defaults to Math.random. */
	random?: () => number;
}

/** Text to Speech's answer: the audio itself, with what its headers tell. */
export interface AudioResult {
	stream: ByteStream;
	mimeType: string;
	metadata: SpeechHeaders;
}

const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY = 64 * 1024;

export class Exchange {
	readonly baseUrl: string;
	private readonly apiOrigin: string;
	private readonly secrets: string[];
	private readonly retry: RetryPolicy;
	private readonly random: () => number;

	constructor(
		private readonly channel: HttpChannel,
		private readonly options: ExchangeOptions,
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

	/** Sends one endpoint's already validated request; returns the envelope's `data` (or the audio). */
	async send(
		name: string,
		spec: EndpointSpec,
		request: Record<string, unknown>,
		options: CallOptions = {},
	): Promise<unknown> {
		const { http, key } = httpRequestOf(this.baseUrl, spec, request, options);
		const replayable = spec.replay === 'always';
		return await this.withRetries(
			name,
			replayable,
			options.signal,
			async (attempts) => {
				if (attempts > 1) await options.beforeResend?.();
				// Without a budget (scripts), straight to the channel: one async step less per request.
				const response = options.budget
					? await this.budgeted(name, options.budget, options.signal, http)
					: await this.channel.send(notCancelled(http, options.signal));
				if (isSuccess(response))
					return spec.result === 'audio'
						? await audioResult(name, response)
						: envelopeData(name, response, this.secrets);
				const errorBody =
					spec.result === 'audio' ? await readBytes(response.body as ByteStream) : response.body;
				throw answerError(name, response, errorBody, {
					attempts,
					replayable,
					secrets: this.secrets,
					baseUrl: this.baseUrl,
				});
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
				throw answerError(
					'download',
					response,
					body,
					{
						attempts,
						replayable: true,
						download: true,
						source: withApiKey ? 'api' : 'file',
						secrets: this.secrets,
						baseUrl: this.baseUrl,
					},
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
			response = await this.channel.send(notCancelled(http, signal));
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
		// A cancel after an attempt may have reached the service says so, with the key that returns its work.
		const cancelled = (error: unknown) =>
			marked(error, { reached, succeeded }, reached ? idempotencyKey : undefined);
		for (let n = 1; ; n++) {
			if (signal?.aborted) throw cancelled(abortedError());
			let failure: VisionStoryError;
			try {
				return await attempt(n);
			} catch (error) {
				reached ||= mayHaveReached(error);
				succeeded ||= mayHaveSucceeded(error);
				try {
					failure = retryableFailure(name, error, replayable, signal, this.secrets);
				} catch (final) {
					throw marked(final, { reached, succeeded }, idempotencyKey);
				}
			}
			// A Retry-After is waited out in full: the elapsed budget below still bounds it.
			const wait = failure.retryAfterMs ?? this.backoff(n);
			if (n >= this.retry.maxAttempts || Date.now() - started + wait > this.retry.maxElapsedMs)
				throw marked(failure, { reached, succeeded }, idempotencyKey);
			try {
				await this.sleep(wait, signal);
			} catch (error) {
				throw cancelled(error);
			}
		}
	}

	private backoff(attempt: number): number {
		const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
		// Equal jitter: at least half the step, so retries stay spaced while many items retry at once.
		return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
	}
}

// The request: a checked request as the HTTP request the channel sends.

/**
 * One endpoint's checked request as the HTTP request: a create's idempotency key added, fields in the
 * query or the JSON body, files streamed into the body as base64.
 */
function httpRequestOf(
	baseUrl: string,
	spec: EndpointSpec,
	request: Record<string, unknown>,
	options: CallOptions,
): { http: HttpRequest; key?: string } {
	const media = options.media && Object.keys(options.media).length ? options.media : undefined;
	const body = spec.clientRequestId
		? withClientRequestId(request, options.idempotencyContext, media)
		: request;
	const http: HttpRequest = {
		method: spec.method,
		url: baseUrl + spec.path,
		timeoutMs: options.timeoutMs ?? spec.timeoutMs,
		response: spec.result === 'audio' ? 'stream' : 'json',
		withApiKey: true,
		followRedirects: false,
		// A create that has left is not cut short by a cancel: the service may make the video all the
		// same, and only the answer names it. Its own timeout bounds the wait; the cancel still stops
		// the wait for a budget slot, the backoff and any resend.
		signal: spec.clientRequestId ? undefined : options.signal,
		...(spec.in === 'query'
			? { query: toQuery(body) }
			: media
				? bodyWithMedia(body, media)
				: { body }),
	};
	const key = typeof body.client_request_id === 'string' ? body.client_request_id : undefined;
	return { http, key };
}

/**
 * The request, unless a cancel came while it waited (a budget slot, the floor's check before a
 * resend): a create, which does not listen to the signal once sent, must not leave after it.
 */
function notCancelled(http: HttpRequest, signal: AbortSignal | undefined): HttpRequest {
	if (signal?.aborted) throw abortedError();
	return http;
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

// Resends: which failed attempt is sent again, and what the call's final error says of its attempts.
// A charged call that may have reached the service is never sent again.

/** The error to retry with, when the failed attempt may be tried again; otherwise the error is thrown. */
function retryableFailure(
	name: string,
	error: unknown,
	replayable: boolean,
	signal: AbortSignal | undefined,
	secrets: string[],
): VisionStoryError {
	if (error instanceof NetworkError) {
		if (error.aborted || signal?.aborted) throw abortedError();
		const failure = connectionError(name, error, replayable, secrets);
		if (!replayable && error.mayHaveReachedService) throw failure;
		return failure;
	}
	if (
		!(error instanceof VisionStoryError) ||
		error.category !== 'api' ||
		error.status === undefined
	)
		throw error;
	if (!isTransientStatus(error.status) || error.isConcurrencyLimit) throw error;
	// A charged call answered so may have been processed; a resend could charge again.
	if (!replayable && mayHaveProcessedStatus(error.status)) throw error;
	return error;
}

/**
 * Whether a failed attempt may have reached the service and been processed: a connection lost after
 * the request left, a status that may come after the work was done (`statusCodes.ts`: 5xx, 408, 409),
 * a 2xx that could not be read. A 429 or another 4xx refused it.
 */
export function mayHaveReached(error: unknown): boolean {
	if (error instanceof NetworkError) return error.mayHaveReachedService;
	if (!(error instanceof VisionStoryError)) return false;
	if (error.category === 'response') return true;
	return (
		error.category === 'api' && error.status !== undefined && mayHaveProcessedStatus(error.status)
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

/** A refusal: the service did nothing with the request (`statusCodes.ts`). */
function isRefusal(error: VisionStoryError): boolean {
	return error.category === 'api' && isRefusalStatus(error.status ?? 0);
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

// The answer: a success or not, the envelope's `data`, the audio, a file to stream, and a failure
// (an error answer or a lost connection) as the one error type, in words a user can act on.

function isSuccess(response: HttpResponse): boolean {
	return response.status >= 200 && response.status < 300;
}

/** The envelope's `data` of a successful JSON answer; anything else is named for what it is. */
function envelopeData(name: string, response: HttpResponse, secrets: string[]): unknown {
	const body = response.body;
	// A plain check, not a schema parse: the client parses `data` with the endpoint's own schema.
	if (body === null || typeof body !== 'object' || !('data' in body)) {
		// A page or text (a captive portal, a proxy's login page) is named for what it is, never shown raw.
		const page =
			typeof body === 'string' && body.trim()
				? readErrorAnswer(response, { secrets }).message
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
function answerError(
	name: string,
	response: HttpResponse,
	body: unknown,
	read: ErrorReadOptions,
	prefix?: string,
): VisionStoryError {
	const error = readErrorAnswer({ status: response.status, headers: response.headers, body }, read);
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

/** A connection that failed, in words a user can act on (the API key scrubbed). */
function connectionError(
	name: string,
	error: NetworkError,
	replayable: boolean,
	secrets: string[],
): VisionStoryError {
	const lost = !replayable && error.mayHaveReachedService;
	return new VisionStoryError({
		category: 'network',
		operation: name,
		code: error.code,
		message: redactText(
			`The connection to VisionStory failed (${error.code}): ${error.message}`,
			secrets,
		),
		hint: lost
			? 'It was not sent again because VisionStory may have received it and charged it. Check the result or your credits before running it again.'
			: 'Check your network and the Base URL in the VisionStory credential, then try again.',
	});
}

/** An AI-video create's 429 naming the concurrency cap (details.in_flight), read as the error parser reads it. */
function isConcurrencyAnswer(name: string, response: HttpResponse): boolean {
	return (
		name === 'createAiVideo' &&
		readErrorAnswer({ status: response.status, headers: response.headers, body: response.body })
			.concurrency !== undefined
	);
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
