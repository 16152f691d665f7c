import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

import type { HttpChannel, HttpRequest, HttpResponse } from './api';
import { NetworkError } from './api';

const MAX_REDIRECTS = 5;

/**
 * The HTTP channel over Node's own http/https: Node-RED has no request helper of its own. The API key
 * travels only when the exchange asks for it (requests to the Base URL's origin); redirects of those
 * are never followed here, so the key never reaches another host.
 */
export class NodeHttpChannel implements HttpChannel {
	constructor(private readonly apiKey: string) {}

	async send(request: HttpRequest): Promise<HttpResponse> {
		let url = new URL(request.url);
		for (const [key, value] of Object.entries(request.query ?? {}))
			url.searchParams.set(key, value);
		for (let hop = 0; ; hop++) {
			const response = await this.once(url, request);
			const location = response.headers.location;
			if (
				!request.withApiKey &&
				request.followRedirects &&
				response.status >= 300 &&
				response.status < 400 &&
				location &&
				hop < MAX_REDIRECTS
			) {
				(response.body as Readable).resume();
				url = new URL(location, url);
				continue;
			}
			return response;
		}
	}

	private async once(url: URL, request: HttpRequest): Promise<HttpResponse> {
		if (request.signal?.aborted) throw new NetworkError('ABORTED', 'canceled', true);
		const headers: OutgoingHttpHeaders = {
			accept: request.response === 'json' ? 'application/json' : '*/*',
			'user-agent': 'node-red-visionstory',
		};
		if (request.withApiKey) headers['x-api-key'] = this.apiKey;
		let body: Buffer | Readable | undefined;
		if (request.stream) {
			const opened = await request.stream.open();
			body = Buffer.isBuffer(opened) ? opened : Readable.from(opened);
			headers['content-length'] = String(request.stream.length);
		} else if (request.body !== undefined) {
			body = Buffer.from(
				typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
			);
			headers['content-length'] = String(body.length);
		}
		if (body !== undefined) headers['content-type'] = 'application/json';
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const message = await new Promise<IncomingMessage>((resolve, reject) => {
			const req = send(url, { method: request.method, headers, signal: request.signal });
			req.setTimeout(request.timeoutMs, () =>
				req.destroy(
					Object.assign(new Error('timed out waiting for an answer'), { code: 'ETIMEDOUT' }),
				),
			);
			req.once('response', resolve);
			req.once('error', reject);
			if (body === undefined) req.end();
			else if (Buffer.isBuffer(body)) req.end(body);
			else body.pipe(req);
		}).catch((error: unknown) => {
			throw toNetworkError(error, request.signal);
		});
		const responseHeaders: Record<string, string | undefined> = {};
		for (const [key, value] of Object.entries(message.headers))
			responseHeaders[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
		if (
			request.response === 'stream' ||
			((message.statusCode ?? 0) >= 300 && (message.statusCode ?? 0) < 400)
		)
			return { status: message.statusCode ?? 0, headers: responseHeaders, body: message };
		const text = await readText(message, request.signal);
		return { status: message.statusCode ?? 0, headers: responseHeaders, body: parseBody(text) };
	}
}

/**
 * The whole body as text, from the stream's events (an async iterator per answer costs more CPU than
 * the rest of a small JSON answer's handling); one chunk is decoded as it is, several joined once.
 */
function readText(message: IncomingMessage, signal?: AbortSignal): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		message.on('data', (chunk: Buffer) => chunks.push(chunk));
		message.once('end', () =>
			resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')),
		);
		message.once('error', (error) => reject(toNetworkError(error, signal)));
		// A connection closed before the answer ended (after 'end', this is a no-op).
		message.once('close', () => {
			if (!message.complete)
				reject(
					toNetworkError(
						Object.assign(new Error('the connection closed before the answer ended'), {
							code: 'ECONNRESET',
						}),
						signal,
					),
				);
		});
	});
}

/** JSON when it parses; otherwise the text, for the error parser to name (a proxy's page, say). */
function parseBody(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** Only the error code survives: Node's errors can carry the request (and its key) along. */
function toNetworkError(error: unknown, signal?: AbortSignal): NetworkError {
	const e = error as { code?: unknown; name?: unknown; message?: unknown };
	if (signal?.aborted || e.name === 'AbortError' || e.code === 'ABORT_ERR')
		return new NetworkError('ABORTED', 'canceled', true);
	const code = typeof e.code === 'string' ? e.code : 'ECONNRESET';
	const message = typeof e.message === 'string' ? e.message : 'no answer';
	return new NetworkError(code, message.replace(/https?:\/\/\S+/g, '<url>'));
}
