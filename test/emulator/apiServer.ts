import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, invalid, notFound } from './errors';
import type { FaultDecision, FaultInjector } from './faults';
import { sendFaultResponse } from './faults';
import { envelope, queryObject, readBody, resetConnection, sendJson } from './http';
import type { Drift } from './drift';
import { RateLimiter } from './rateLimit';
import type { RequestLog } from './requestLog';
import { methodNotAllowed, routeNotFound, type Reply, type Router } from './router';
import type { Account, EmulatorState } from './state';
import type { RequestLogEntry } from './types';

export interface ApiDeps {
	state: EmulatorState;
	faults: FaultInjector;
	log: RequestLog;
	router: Router;
	/** Introspection endpoints under /__emulator: no auth, no faults, not logged. */
	admin: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
	/** Drift mode (config `drift`): other plausible shapes of the same answers. */
	drift?: Drift;
}

/** Classifies the X-API-Key header for the log without keeping its value. */
export function keyPresence(
	state: EmulatorState,
	req: IncomingMessage,
): { apiKey: RequestLogEntry['apiKey']; account?: Account } {
	const header = req.headers['x-api-key'];
	const key = Array.isArray(header) ? header[0] : header;
	if (key === undefined) return { apiKey: 'absent' };
	const account = state.accountByKey(key);
	return account ? { apiKey: 'valid', account } : { apiKey: 'invalid' };
}

function injectedError(fault: FaultDecision): ApiError | undefined {
	switch (fault.kind) {
		case 'http500':
			return new ApiError(500, 500, 'Internal server error (injected)');
		case 'http503':
			return new ApiError(503, 503, 'Service temporarily unavailable (injected)');
		case 'http429':
			return new ApiError(429, 429, 'Rate limit exceeded (injected)', {
				headers: { 'Retry-After': fault.retryAfterHeader },
			});
		case 'http409':
			return new ApiError(
				409,
				409,
				'A submission with this client_request_id is still being registered (injected)',
				{
					hint: 'Wait a few seconds and resend the same request with the same client_request_id',
				},
			);
		default:
			return undefined;
	}
}

/**
 * A `rewriteAnswer` fault: the request was processed (created, charged) and its answer's `data`
 * comes with fields dropped or set otherwise, as a service may answer where the contract allows
 * (a default 0) or as one that changed (a field missing).
 */
function rewritten(payload: unknown, fault: FaultDecision): unknown {
	const envelope = payload as { data?: unknown };
	if (!envelope || typeof envelope.data !== 'object' || envelope.data === null) return payload;
	const data: Record<string, unknown> = { ...(envelope.data as Record<string, unknown>) };
	for (const field of fault.rewrite?.drop ?? []) delete data[field];
	Object.assign(data, fault.rewrite?.set ?? {});
	return { ...envelope, data };
}

function errorReply(err: ApiError): {
	status: number;
	body: unknown;
	headers: Record<string, string>;
} {
	return { status: err.status, body: err.body(), headers: err.extra.headers ?? {} };
}

export function createApiHandler(
	deps: ApiDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
	const { state, faults, log, router } = deps;
	const rateLimit = new RateLimiter();

	async function run(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://emulator');
		if (url.pathname.startsWith('/__emulator')) return deps.admin(req, res, url);
		if (url.pathname.startsWith('/media/')) return redirectToMedia(req, res, url);

		const method = (req.method ?? 'GET').toUpperCase();
		const at = state.now();
		const { apiKey, account } = keyPresence(state, req);
		const entry: Omit<RequestLogEntry, 'seq'> = {
			at,
			origin: 'api',
			method,
			path: url.pathname,
			query: queryObject(url.searchParams),
			apiKey,
			...(account ? { account: account.id } : {}),
			status: 0,
			outcome: 'answered',
			bodyBytes: 0,
		};
		const fault = faults.pick('api', method, url.pathname, at);
		const latency = faults.latencyMs('api') + (fault?.delayMs ?? 0);
		if (latency > 0) await sleep(latency);
		const body = await readBody(req);
		entry.bodyBytes = body.size;
		if (fault?.spendElsewhere && account) {
			state.settle();
			const credits = Math.min(fault.spendElsewhere, account.credits);
			if (credits > 0) state.ledger.charge(account, state.now(), 'elsewhere', credits, 'elsewhere');
		}

		if (fault?.kind === 'resetBefore') {
			resetConnection(req);
			log.add({ ...entry, outcome: 'reset' });
			return;
		}

		if (fault?.kind === 'respond' && fault.respond) {
			// Not processed: whatever answered (a proxy, a gateway) never passed the request on.
			sendFaultResponse(res, fault.respond);
			log.add({ ...entry, status: fault.respond.status });
			return;
		}

		const drifted = deps.drift?.errorBefore(method, url.pathname, res);
		if (drifted) {
			log.add({ ...entry, status: drifted });
			return;
		}

		let status: number;
		let payload: unknown;
		let headers: Record<string, string> = {};
		let binary: Buffer | undefined;
		const injected =
			(fault && injectedError(fault)) ||
			(account && rateLimit.check(account, at, state.config.rateLimitPerSecond));
		if (injected) {
			({ status, body: payload, headers } = errorReply(injected));
		} else {
			try {
				const reply = await dispatch(method, url, body.bytes, body.tooLarge, account, entry);
				status = reply.status;
				if (reply.kind === 'json') {
					const data = lagging(method, url, reply.data);
					payload = envelope(
						deps.drift ? deps.drift.data(url.pathname, data) : data,
						state.now(),
						deps.drift,
					);
				} else ({ headers, body: binary } = reply);
			} catch (err) {
				if (!(err instanceof ApiError)) console.error('[emulator] handler crashed:', err);
				({
					status,
					body: payload,
					headers,
				} = errorReply(
					err instanceof ApiError ? err : new ApiError(500, 500, 'Internal server error'),
				));
			}
		}

		if (fault?.kind === 'rewriteAnswer' && status < 400) payload = rewritten(payload, fault);
		if (fault?.kind === 'resetAfter') {
			// The work is done (task created, credits charged); only the answer is lost.
			resetConnection(req);
			log.add({ ...entry, status, outcome: 'reset' });
			return;
		}
		if (fault?.kind === 'hangAfter') {
			// The work is done; the answer never comes. The socket stays open until the client gives up
			// (or the emulator stops), as with a service that stalls after doing the work.
			log.add({ ...entry, status, outcome: 'unanswered' });
			return;
		}
		if (binary) {
			res.writeHead(status, { 'Content-Length': String(binary.length), ...headers });
			res.end(binary);
		} else if (!(status >= 400 && deps.drift?.errorReply(status, payload, res, headers))) {
			sendJson(res, status, payload, headers);
		}
		log.add({ ...entry, status });
	}

	/**
	 * Media links on the API's own origin (config `redirectMedia`): a 302 to the same path on the
	 * media origin. Needs no key, like the media origin, but logs whether one came along.
	 */
	function redirectToMedia(req: IncomingMessage, res: ServerResponse, url: URL): void {
		const method = (req.method ?? 'GET').toUpperCase();
		const { apiKey, account } = keyPresence(state, req);
		req.resume();
		const allowed = method === 'GET' || method === 'HEAD';
		const entry = {
			at: state.now(),
			origin: 'api' as const,
			method,
			path: url.pathname,
			query: queryObject(url.searchParams),
			apiKey,
			...(account ? { account: account.id } : {}),
			bodyBytes: 0,
		};
		if (!allowed) {
			sendJson(res, 405, new ApiError(405, 405, 'Media links only serve GET and HEAD').body());
			log.add({ ...entry, status: 405, outcome: 'answered' });
			return;
		}
		res.writeHead(302, {
			Location: `${state.mediaBaseUrl}${url.pathname}${url.search}`,
			'Content-Length': '0',
		});
		res.end();
		log.add({ ...entry, status: 302, outcome: 'answered' });
	}

	/** The faults' read lag: a create's new task registered, a read answered as a lagging replica would. */
	function lagging(method: string, url: URL, data: unknown): unknown {
		const videoId = (data as { video_id?: unknown } | null)?.video_id;
		if (method === 'POST' && typeof videoId === 'string') faults.created(videoId);
		const read = faults.lagRead(method, url.pathname, url.searchParams, data);
		if (read.missing) throw notFound(read.missing.what, read.missing.id);
		return read.data;
	}

	async function dispatch(
		method: string,
		url: URL,
		bytes: Buffer,
		tooLarge: boolean,
		account: Account | undefined,
		entry: Omit<RequestLogEntry, 'seq'>,
	): Promise<Reply> {
		if (tooLarge)
			throw new ApiError(413, 413, 'Request body too large', {
				hint: 'Upload large media with a URL or POST /api/v1/asset in a smaller file',
			});
		if (!account)
			throw new ApiError(401, 401, 'Missing or invalid X-API-Key', {
				hint: 'Send a valid key from the API keys page in the X-API-Key header',
			});
		const match = router.match(method, url.pathname);
		if (!match) throw routeNotFound(method, url.pathname);
		if ('allowed' in match) throw methodNotAllowed(method, url.pathname, match.allowed);
		state.settle();
		let parsed: unknown;
		if (bytes.length > 0) {
			try {
				parsed = JSON.parse(bytes.toString('utf8'));
			} catch {
				throw invalid({ body: 'must be valid JSON' });
			}
			const text = (parsed as { text?: unknown } | null)?.text;
			if (typeof text === 'string') entry.text = text;
			entry.settings = scalarSettings(parsed);
		}
		return match.route.handler({
			state,
			account,
			query: url.searchParams,
			body: parsed,
			now: state.now(),
		});
	}

	return (req, res) => {
		run(req, res).catch((err: unknown) => {
			console.error('[emulator] request failed:', err);
			if (!res.headersSent)
				sendJson(res, 500, new ApiError(500, 500, 'Internal server error').body());
			else res.destroy();
		});
	};
}

/** The body's short top-level scalars (ids, choices, flags): what a test checks a call was made with. */
function scalarSettings(body: unknown): Record<string, string | number | boolean> | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const settings: Record<string, string | number | boolean> = {};
	for (const [key, value] of Object.entries(body)) {
		if (key === 'text') continue;
		if (
			typeof value === 'number' ||
			typeof value === 'boolean' ||
			(typeof value === 'string' && value.length <= 200)
		)
			settings[key] = value;
	}
	return Object.keys(settings).length ? settings : undefined;
}
