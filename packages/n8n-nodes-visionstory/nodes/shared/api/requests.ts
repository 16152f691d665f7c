import type { EndpointSpec } from './contract';
import type { HttpRequest } from './http';
import { withClientRequestId } from './idempotency';
import type { MediaPart } from './mediaBody';
import { jsonWithMedia } from './mediaBody';

/**
 * One endpoint's checked request as the HTTP request the channel sends: a create's idempotency key
 * added, fields in the query or the JSON body, files streamed into the body as base64.
 */
export function apiRequest(
	baseUrl: string,
	spec: EndpointSpec,
	request: Record<string, unknown>,
	options: {
		signal?: AbortSignal;
		idempotencyContext?: string;
		timeoutMs?: number;
		media?: Record<string, MediaPart>;
	},
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
		signal: options.signal,
		...(spec.in === 'query'
			? { query: toQuery(body) }
			: media
				? bodyWithMedia(body, media)
				: { body }),
	};
	const key = typeof body.client_request_id === 'string' ? body.client_request_id : undefined;
	return { http, key };
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
