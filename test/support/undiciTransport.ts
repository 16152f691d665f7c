import type { Readable } from 'node:stream';

import { Agent, interceptors, request } from 'undici';
import type { Dispatcher } from 'undici';

import { VisionStoryClient } from '../../nodes/shared/client';
import type { HttpChannel, HttpRequest, HttpResponse, TransportOptions } from '../../nodes/shared/transport';
import { NetworkError, Transport } from '../../nodes/shared/transport';

/** The same transport the nodes use, over undici instead of n8n: for scripts, benchmarks and tests. */
export class UndiciChannel implements HttpChannel {
	private readonly direct: Dispatcher;
	private readonly redirecting: Dispatcher;

	constructor(
		private readonly apiKey: string,
		agent: Dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 128 }),
	) {
		this.direct = agent;
		this.redirecting = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
	}

	async send(req: HttpRequest): Promise<HttpResponse> {
		const url = new URL(req.url);
		for (const [key, value] of Object.entries(req.query ?? {})) url.searchParams.set(key, value);
		const headers: Record<string, string> = { accept: req.response === 'json' ? 'application/json' : '*/*' };
		if (req.withApiKey) headers['x-api-key'] = this.apiKey;
		let body: string | Buffer | Readable | undefined;
		if (req.stream) {
			body = (await req.stream.open()) as Buffer | Readable;
			headers['content-length'] = String(req.stream.length);
			headers['content-type'] = 'application/json';
		} else if (req.body !== undefined && req.method !== 'GET') {
			body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
			headers['content-type'] = 'application/json';
		}
		try {
			const res = await request(url, {
				method: req.method,
				headers,
				body,
				headersTimeout: req.timeoutMs,
				bodyTimeout: req.timeoutMs,
				signal: req.signal,
				dispatcher: req.followRedirects ? this.redirecting : this.direct,
			});
			const responseHeaders: Record<string, string | undefined> = {};
			for (const [key, value] of Object.entries(res.headers)) {
				responseHeaders[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
			}
			if (req.response === 'stream') return { status: res.statusCode, headers: responseHeaders, body: res.body };
			const text = await res.body.text();
			let parsed: unknown = text;
			try {
				parsed = text ? JSON.parse(text) : undefined;
			} catch {
				// Not JSON (a proxy's HTML error page, say): the transport reports the text.
			}
			return { status: res.statusCode, headers: responseHeaders, body: parsed };
		} catch (error) {
			const e = error as { code?: string; name?: string; message?: string };
			if (e.name === 'AbortError' || req.signal?.aborted) throw new NetworkError('ABORTED', 'cancelled', true);
			throw new NetworkError(e.code ?? 'ECONNRESET', e.message ?? 'no answer');
		}
	}
}

export function createUndiciClient(apiKey: string, options: Omit<TransportOptions, 'secrets'>): VisionStoryClient {
	return new VisionStoryClient(new Transport(new UndiciChannel(apiKey), { ...options, secrets: [apiKey] }));
}
