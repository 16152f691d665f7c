import { get } from 'node:http';

/**
 * Only loopback URLs are fetched: tests have no internet, and a loopback URL is how a test says
 * "this media exists" (the media origin) or "this one is gone" (a 404 there).
 */
export function isLoopback(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface Fetched {
	status: number;
	contentType: string;
	/** At most `maxBytes + 1` bytes, enough to tell whether a size cap was passed. */
	bytes: Buffer;
	/** Content-Length when the server sent one, else the bytes read. */
	declaredSize: number;
}

export function fetchLoopback(url: URL, maxBytes: number, timeoutMs = 15_000): Promise<Fetched> {
	return new Promise((resolve, reject) => {
		const req = get(url, { timeout: timeoutMs }, (res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			const declared = Number(res.headers['content-length'] ?? NaN);
			const finish = (): void =>
				resolve({
					status: res.statusCode ?? 0,
					contentType: String(res.headers['content-type'] ?? ''),
					bytes: Buffer.concat(chunks),
					declaredSize: Number.isFinite(declared) ? declared : size,
				});
			if ((res.statusCode ?? 0) >= 400) {
				res.resume();
				res.on('end', finish);
				return;
			}
			res.on('data', (chunk: Buffer) => {
				chunks.push(chunk);
				size += chunk.length;
				// Stop early: a 1 GiB blob must not be pulled into memory to learn it is too big.
				if (size > maxBytes) {
					res.destroy();
					finish();
				}
			});
			res.on('end', finish);
			res.on('error', () => finish());
		});
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', reject);
	});
}
