import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body accepted: a 100 MiB asset as base64 inside JSON fits with room to spare. */
export const BODY_CAP = 200 * 1024 * 1024;

export interface ReceivedBody {
	bytes: Buffer;
	size: number;
	/** The body was drained but not kept because it passed the cap. */
	tooLarge: boolean;
}

/**
 * Reads the whole body. Past the cap it keeps draining without storing, so the client finishes
 * sending and then reads the 413 instead of seeing a write error.
 */
export function readBody(req: IncomingMessage, cap = BODY_CAP): Promise<ReceivedBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = Number(req.headers['content-length'] ?? 0) > cap;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > cap) tooLarge = true;
			if (!tooLarge) chunks.push(chunk);
			else chunks.length = 0;
		});
		req.on('end', () =>
			resolve({ bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), size, tooLarge }),
		);
		req.on('error', reject);
	});
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const payload = Buffer.from(JSON.stringify(body));
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': String(payload.length),
		...headers,
	});
	res.end(payload);
}

export function envelope(
	data: unknown,
	now: number,
	drift?: { envelope<T extends Record<string, unknown>>(body: T): T },
): { data: unknown; message: string; server_time: string } {
	const body = { data, message: 'success', server_time: new Date(now).toISOString() };
	return drift ? drift.envelope(body) : body;
}

export function queryObject(query: URLSearchParams): Record<string, string> {
	const out: Record<string, string> = {};
	// Keys never belong in a URL; if a client puts one there anyway, keep it out of the log.
	for (const [k, v] of query) out[k] = /^sk-/i.test(v) || /key/i.test(k) ? '[redacted]' : v;
	return out;
}

/** An RST rather than a FIN, so the client sees ECONNRESET like a dropped connection in production. */
export function resetConnection(req: IncomingMessage): void {
	const socket = req.socket;
	if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
	else socket.destroy();
}
