import type { ByteStream, StreamedBody } from './http';

/**
 * A file that travels base64-encoded inside a JSON body. Files n8n keeps outside memory are streamed
 * from its binary store and encoded on the fly, so a 100 MB upload never sits in memory whole.
 */
export interface MediaPart {
	/** Says which file this is, for idempotency keys (the bytes themselves are not hashed). */
	identity: string;
	/** Already in memory (n8n's default binary mode): the base64 itself. */
	base64?: string;
	/** Stored outside memory: opens the raw bytes, once per attempt. */
	open?: () => Promise<ByteStream>;
	size?: number;
}

/** Placeholder tokens as JSON.stringify writes them, with their quotes. */
const TOKEN = /"(vsmedia\d{5})"/g;

function base64Length(bytes: number): number {
	return 4 * Math.ceil(bytes / 3);
}

/** Base64 of a byte stream, chunk by chunk, carrying the 0–2 bytes that do not fill a 3-byte group. */
async function* base64Of(stream: ByteStream): AsyncGenerator<Buffer> {
	let carry = Buffer.alloc(0);
	for await (const chunk of stream) {
		const bytes = carry.length
			? Buffer.concat([carry, Buffer.from(chunk as Uint8Array)])
			: Buffer.from(chunk as Uint8Array);
		const whole = bytes.length - (bytes.length % 3);
		if (whole) yield Buffer.from(bytes.subarray(0, whole).toString('base64'));
		carry = bytes.subarray(whole);
	}
	if (carry.length) yield Buffer.from(carry.toString('base64'));
}

/**
 * The JSON text of `body` with each placeholder replaced by its file's base64: as a string when every
 * file is in memory, else as a stream with a known length (so the request still has Content-Length).
 */
export function jsonWithMedia(
	body: unknown,
	media: Record<string, MediaPart>,
): { text: string } | { stream: StreamedBody } {
	const json = JSON.stringify(body);
	const pieces: Array<string | MediaPart> = [];
	let last = 0;
	for (const match of json.matchAll(TOKEN)) {
		const part = media[match[1]];
		if (!part) continue;
		pieces.push(json.slice(last, match.index + 1), part);
		last = match.index + match[0].length - 1;
	}
	pieces.push(json.slice(last));
	if (pieces.every((p) => typeof p === 'string' || p.base64 !== undefined)) {
		return { text: pieces.map((p) => (typeof p === 'string' ? p : p.base64)).join('') };
	}
	const length = pieces.reduce(
		(sum, p) =>
			sum +
			(typeof p === 'string'
				? Buffer.byteLength(p)
				: p.base64 !== undefined
					? p.base64.length
					: base64Length(p.size ?? 0)),
		0,
	);
	async function* chunks(first: ByteStream | undefined): AsyncGenerator<Buffer> {
		let opened = first;
		for (const piece of pieces) {
			if (typeof piece === 'string') yield Buffer.from(piece);
			else if (piece.base64 !== undefined) yield Buffer.from(piece.base64);
			else {
				const stream = opened ?? (await piece.open!());
				opened = undefined;
				yield* base64Of(stream);
			}
		}
	}
	return {
		stream: {
			length,
			open: async () => {
				// Node code may not import 'stream'; a Readable's class is reachable from any stream we open.
				const firstStreamed = pieces.find(
					(p): p is MediaPart => typeof p !== 'string' && p.open !== undefined,
				)!;
				const first = await firstStreamed.open!();
				const Readable = first.constructor as unknown as {
					from?: (source: AsyncIterable<Buffer>) => ByteStream;
				};
				if (typeof Readable.from === 'function') return Readable.from(chunks(first));
				// A stream class without Readable's factory: fall back to one buffer rather than fail.
				const all: Buffer[] = [];
				for await (const chunk of chunks(first)) all.push(chunk);
				return Buffer.concat(all);
			},
		},
	};
}
