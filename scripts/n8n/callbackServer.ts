import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackRequest {
	at: number;
	method: string;
	path: string;
	contentType: string;
	body: unknown;
}

/** Stands in for the user's endpoint behind the callback example's URL. */
export interface CallbackServer {
	url: string;
	received: CallbackRequest[];
	/** Resolves once `count` requests have arrived in all, or rejects after timeoutMs. */
	waitFor(count: number, timeoutMs: number): Promise<CallbackRequest[]>;
	/** Resolves with the first request that satisfies `match`, or rejects after timeoutMs. */
	waitForMatch(
		match: (request: CallbackRequest) => boolean,
		timeoutMs: number,
	): Promise<CallbackRequest>;
	stop(): Promise<void>;
}

export async function startCallbackServer(path = '/visionstory-callback'): Promise<CallbackServer> {
	const received: CallbackRequest[] = [];
	const waiters: Array<() => void> = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// kept as text
			}
			received.push({
				at: Date.now(),
				method: req.method ?? '',
				path: req.url ?? '',
				contentType: String(req.headers['content-type'] ?? ''),
				body,
			});
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			waiters.splice(0).forEach((w) => w());
		});
	});
	// n8n's HTTP client keeps sockets alive: closing an idle one here (Node's 5 s) races its next POST
	// on a loaded machine ("socket hang up"); the client closes first, as the emulator also leaves it.
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	const until = <T>(found: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
		const deadline = Date.now() + timeoutMs;
		return new Promise((resolve, reject) => {
			const check = (): void => {
				const value = found();
				if (value !== undefined) return resolve(value);
				const left = deadline - Date.now();
				if (left <= 0)
					return reject(
						new Error(`${what} within ${timeoutMs / 1000} s (received ${received.length})`),
					);
				const timer = setTimeout(check, Math.min(left, 1000));
				waiters.push(() => {
					clearTimeout(timer);
					check();
				});
			};
			check();
		});
	};
	return {
		url: `http://127.0.0.1:${port}${path}`,
		received,
		waitFor: (count, timeoutMs) =>
			until(
				() => (received.length >= count ? received.slice() : undefined),
				timeoutMs,
				`the callback URL did not receive ${count} request(s)`,
			),
		waitForMatch: (match, timeoutMs) =>
			until(() => received.find(match), timeoutMs, 'no matching request reached the callback URL'),
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
