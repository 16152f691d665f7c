import {
	answerError,
	audioResult,
	downloadOf,
	drain,
	envelopeData,
	isConcurrencyAnswer,
	isSuccess,
	readBytes,
	retryAfterMs,
} from './answers';
import type { Sleep } from './clock';
import { abortedError, delay } from './clock';
import type { EndpointSpec } from './contract';
import { VisionStoryError } from './errors';
import type { ByteStream, Download, HttpChannel, HttpRequest, HttpResponse } from './http';
import type { MediaPart } from './mediaBody';
import type { RequestBudget } from './requestBudget';
import { apiRequest } from './requests';
import { marked, mayHaveReached, mayHaveSucceeded, retryableFailure } from './resends';

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

const MAX_REDIRECTS = 5;

/**
 * The exchange with VisionStory: each attempt through the host's channel within the request budget,
 * retried with backoff and jitter or after Retry-After, a file streamed with redirects followed by
 * hand. The request is built by `requests.ts`, the answer read by `answers.ts`, and which attempt
 * may be sent again, and what the final error says, is decided by `resends.ts`.
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
		const { http, key } = apiRequest(this.baseUrl, spec, request, options);
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
					: await this.channel.send(http);
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
					failure = retryableFailure(name, error, replayable, signal, this.secrets);
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

	private backoff(attempt: number): number {
		const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
		// Equal jitter: at least half the step, so retries stay spaced while many items retry at once.
		return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
	}
}
