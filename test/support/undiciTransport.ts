import type { Readable } from 'node:stream';

import { Agent, interceptors, request } from 'undici';
import type { Dispatcher } from 'undici';

import { sleep } from 'n8n-workflow';

import { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type {
	HttpChannel,
	HttpRequest,
	HttpResponse,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';
import { NetworkError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';
import type { ExchangeOptions } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';
import { Exchange } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';

/** The same exchange the nodes use, over undici instead of n8n: for scripts, benchmarks and tests. */
export class UndiciChannel implements HttpChannel {
	private readonly direct: Dispatcher;
	private readonly redirecting: Dispatcher;
	private readonly jsonGetHeaders: Record<string, string>;

	constructor(
		private readonly apiKey: string,
		agent: Dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 128 }),
	) {
		this.direct = agent;
		this.redirecting = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
		this.jsonGetHeaders = { accept: 'application/json', 'x-api-key': apiKey };
	}

	async send(req: HttpRequest): Promise<HttpResponse> {
		const query =
			req.query && Object.keys(req.query).length
				? `?${new URLSearchParams(req.query).toString()}`
				: '';
		const options: NonNullable<Parameters<typeof request>[1]> = {
			method: req.method,
			headers: this.headersFor(req),
			headersTimeout: req.timeoutMs,
			bodyTimeout: req.timeoutMs,
			dispatcher: req.followRedirects ? this.redirecting : this.direct,
		};
		if (req.signal) options.signal = req.signal;
		if (req.stream) {
			options.body = (await req.stream.open()) as Buffer | Readable;
			(options.headers as Record<string, string>)['content-length'] = String(req.stream.length);
		} else if (req.body !== undefined && req.method !== 'GET') {
			options.body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
		}
		try {
			const res = await request(req.url + query, options);
			// undici already gives lower-case names; repeated headers (arrays) only occur for ones the exchange never reads.
			const headers = res.headers as Record<string, string | undefined>;
			if (req.response === 'stream') return { status: res.statusCode, headers, body: res.body };
			if (headers['content-type']?.startsWith('application/json')) {
				return { status: res.statusCode, headers, body: await res.body.json() };
			}
			// Not JSON (a proxy's HTML error page, say): the exchange reports the text.
			const text = await res.body.text();
			return { status: res.statusCode, headers, body: text || undefined };
		} catch (error) {
			const e = error as { code?: string; name?: string; message?: string };
			if (e.name === 'AbortError' || req.signal?.aborted)
				throw new NetworkError('ABORTED', 'cancelled', true);
			if (error instanceof SyntaxError)
				return { status: 502, headers: {}, body: 'VisionStory answered with malformed JSON' };
			throw new NetworkError(e.code ?? 'ECONNRESET', e.message ?? 'no answer');
		}
	}

	/** Request headers; the JSON GET most calls make reuses one object. */
	private headersFor(req: HttpRequest): Record<string, string> {
		const plainGet =
			req.response === 'json' &&
			req.withApiKey &&
			!req.stream &&
			(req.body === undefined || req.method === 'GET');
		if (plainGet) return this.jsonGetHeaders;
		const headers: Record<string, string> = {
			accept: req.response === 'json' ? 'application/json' : '*/*',
		};
		if (req.withApiKey) headers['x-api-key'] = this.apiKey;
		if (req.stream || (req.body !== undefined && req.method !== 'GET'))
			headers['content-type'] = 'application/json';
		return headers;
	}
}

/**
 * The client over undici; it waits with n8n-workflow's sleep (which the virtual-time tests replace)
 * unless told otherwise. `channel` wraps the undici channel (a test watching what is sent).
 */
export function createUndiciClient(
	apiKey: string,
	options: Omit<ExchangeOptions, 'secrets' | 'sleep'> &
		Partial<Pick<ExchangeOptions, 'sleep'>> & { channel?: (undici: HttpChannel) => HttpChannel },
): VisionStoryClient {
	const { channel = (undici: HttpChannel) => undici, ...exchange } = options;
	return new VisionStoryClient(
		new Exchange(channel(new UndiciChannel(apiKey)), { sleep, ...exchange, secrets: [apiKey] }),
	);
}
