import type {
	IAllExecuteFunctions,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	apiKeyOf,
	baseUrlOf as baseUrlOfWritten,
	baseUrlProblem,
	DEFAULT_BASE_URL,
} from '../api/account';
import { VisionStoryClient } from '../api/client';
import type { HttpChannel, HttpRequest, HttpResponse } from '../api/http';
import { NetworkError } from '../api/http';
import type { RequestBudget } from '../api/requestBudget';
import { budgetFor } from '../api/requestBudget';
import type { RetryPolicy } from '../api/exchange';
import { Exchange } from '../api/exchange';

export const CREDENTIAL_TYPE = 'visionStoryApi';
export { DEFAULT_BASE_URL };

export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** Sends through n8n's request helpers, so n8n's proxy, TLS and credential handling apply. */
export class N8nChannel implements HttpChannel {
	constructor(private readonly context: RequestContext) {}

	async send(request: HttpRequest): Promise<HttpResponse> {
		const headers: Record<string, string> = {
			accept: request.response === 'json' ? 'application/json' : '*/*',
		};
		let body = request.body as IHttpRequestOptions['body'];
		if (request.stream) {
			body = (await request.stream.open()) as unknown as IHttpRequestOptions['body'];
			headers['content-length'] = String(request.stream.length);
		}
		if (body !== undefined) headers['content-type'] = 'application/json';
		const options: IHttpRequestOptions = {
			method: request.method,
			url: request.url,
			qs: request.query,
			body,
			json: request.response === 'json',
			headers,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: request.timeoutMs,
			disableFollowRedirect: !request.followRedirects,
			abortSignal: request.signal,
			...(request.response === 'stream' ? { encoding: 'stream' as const } : {}),
		};
		try {
			const helpers = this.context.helpers;
			const response = (
				request.withApiKey
					? await helpers.httpRequestWithAuthentication.call(
							this.context as IAllExecuteFunctions,
							CREDENTIAL_TYPE,
							options,
						)
					: await helpers.httpRequest(options)
			) as { statusCode: number; headers: Record<string, unknown>; body: unknown };
			return {
				status: response.statusCode,
				headers: lowerCaseHeaders(response.headers),
				body: response.body,
			};
		} catch (error) {
			// An answer that arrived anyway goes to the one error parser, like any other failed answer.
			const answered = answerIn(error);
			if (answered) return answered;
			throw toNetworkError(error);
		}
	}
}

/**
 * The service's answer inside an error n8n threw despite `ignoreHttpStatusErrors` (an axios error's
 * `response`): only its status, response headers and body are kept, never the request (it holds the key).
 */
export function answerIn(error: unknown): HttpResponse | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const response = (current as { response?: unknown }).response;
		if (response && typeof response === 'object') {
			const r = response as { status?: unknown; headers?: unknown; data?: unknown; body?: unknown };
			if (typeof r.status === 'number' && r.status >= 300) {
				return {
					status: r.status,
					headers: lowerCaseHeaders(r.headers as Record<string, unknown> | undefined),
					body: r.data ?? r.body,
				};
			}
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function lowerCaseHeaders(
	headers: Record<string, unknown> | undefined,
): Record<string, string | undefined> {
	const out: Record<string, string | undefined> = {};
	for (const [key, value] of Object.entries(headers ?? {})) {
		out[key.toLowerCase()] = Array.isArray(value)
			? value.join(', ')
			: value === undefined
				? undefined
				: String(value);
	}
	return out;
}

/**
 * n8n wraps transport failures in NodeApiError whose cause is the axios error (which holds the request
 * headers, API key included). Only the error code survives from here.
 */
export function toNetworkError(error: unknown): NetworkError {
	let current: unknown = error;
	let code: string | undefined;
	let message = 'no answer';
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const e = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
		if (typeof e.code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+|ERR_[A-Z_]+)$/.test(e.code)) {
			code = e.code;
			if (typeof e.message === 'string') message = e.message;
			break;
		}
		if (e.name === 'AbortError' || e.name === 'CanceledError')
			return new NetworkError('ABORTED', 'canceled', true);
		current = e.cause;
	}
	if (code === 'ERR_CANCELED') return new NetworkError('ABORTED', 'canceled', true);
	// axios reports its own timeout as ECONNABORTED: the request was sent and may be running.
	if (code === 'ECONNABORTED')
		return new NetworkError('ETIMEDOUT', 'timed out waiting for an answer');
	return new NetworkError(code ?? 'ECONNRESET', message.replace(/https?:\/\/\S+/g, '<url>'));
}

export interface VisionStoryCredentials {
	apiKey: string;
	baseUrl?: string;
}

/** A cleared or blank Base URL means the production address, as in the credential's test. */
export function baseUrlOf(credentials: Partial<VisionStoryCredentials>): string {
	return baseUrlOfWritten(credentials.baseUrl);
}

export interface ClientOptions {
	retry?: Partial<RetryPolicy>;
}

/** The client for a node or trigger: base URL and key from the credential, HTTP through n8n. */
export async function createN8nClient(
	context: RequestContext,
	options: ClientOptions = {},
): Promise<VisionStoryClient> {
	const credentials = (await context.getCredentials(
		CREDENTIAL_TYPE,
	)) as unknown as VisionStoryCredentials;
	const baseUrl = baseUrlOf(credentials);
	const problem = baseUrlProblem(baseUrl, 'in the VisionStory credential');
	if (problem) throw problem;
	const exchange = new Exchange(new N8nChannel(context), {
		baseUrl,
		// Node code waits only through n8n's sleep.
		sleep,
		secrets: [apiKeyOf(credentials.apiKey)],
		retry: options.retry,
	});
	return new VisionStoryClient(exchange);
}

/** The request budget of the node's credential (shared by every execution using it), set to `perSecond` when given. */
export async function requestBudgetOf(
	context: RequestContext,
	perSecond?: number,
): Promise<RequestBudget> {
	const credentials = (await context.getCredentials(
		CREDENTIAL_TYPE,
	)) as unknown as VisionStoryCredentials;
	return budgetFor(baseUrlOf(credentials), credentials.apiKey, perSecond);
}
