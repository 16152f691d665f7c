import { VisionStoryError } from './errors';
import type { ByteStream } from './http';

/**
 * Text to Speech answers with the audio itself. A 200 that is not audio (a proxy's or captive
 * portal's HTML page, a JSON body) must not become `speech.mp3`: the content type and the first
 * bytes are checked before the body is handed on, and the bytes read are put back.
 */

/** What the first bytes of common audio files start with. */
function looksLikeAudio(head: Buffer): boolean {
	if (head.length < 4) return false;
	const ascii = head.subarray(0, 4).toString('latin1');
	if (ascii === 'ID3\u0003' || head.subarray(0, 3).toString('latin1') === 'ID3') return true;
	// An MPEG audio frame (MP3, or AAC in ADTS): eleven set sync bits.
	if (head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return true;
	if (ascii === 'RIFF' || ascii === 'OggS' || ascii === 'fLaC') return true;
	return head.length >= 8 && head.subarray(4, 8).toString('latin1') === 'ftyp';
}

/** A content type that can carry audio: audio/*, a generic binary type, or none. */
function audioType(contentType: string | undefined): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return (
		type === '' ||
		type.startsWith('audio/') ||
		type === 'application/octet-stream' ||
		type === 'binary/octet-stream'
	);
}

/** Reads up to `n` bytes without consuming them: they are put back at the front of the stream. */
async function peek(stream: ByteStream, n: number): Promise<Buffer> {
	let ended = false;
	stream.once('end', () => (ended = true));
	for (;;) {
		const chunk = (stream.read(n) ?? (ended ? null : stream.read())) as Buffer | string | null;
		if (chunk !== null) {
			const bytes = Buffer.from(chunk);
			stream.unshift(bytes);
			return bytes;
		}
		if (ended) return Buffer.alloc(0);
		await new Promise<void>((resolve) => {
			const done = () => {
				stream.removeListener('readable', done);
				stream.removeListener('end', done);
				resolve();
			};
			stream.once('readable', done);
			stream.once('end', done);
		});
	}
}

function notAudio(endpoint: string, what: string, head: Buffer): VisionStoryError {
	const text = head.toString('utf8');
	const title = /<title[^>]*>([^<]{1,100})/i.exec(text)?.[1]?.trim();
	return new VisionStoryError({
		category: 'response',
		operation: endpoint,
		message: `VisionStory, or a proxy in front of it, answered HTTP 200 with ${what} instead of MP3 audio${title ? ` ("${title}")` : ''}`,
		hint: 'Check the Base URL in your VisionStory credential (https://openapi.visionstory.ai) and any proxy n8n goes through.',
	});
}

/** The stream as it came when it is audio; otherwise an error naming what came instead. */
export async function checkedAudio(
	endpoint: string,
	stream: ByteStream,
	contentType: string | undefined,
): Promise<ByteStream> {
	const head = await peek(stream, 512);
	if (!audioType(contentType)) {
		(stream as { resume?: () => void }).resume?.();
		throw notAudio(endpoint, contentType!.split(';')[0].trim(), head);
	}
	if (!looksLikeAudio(head)) {
		(stream as { resume?: () => void }).resume?.();
		throw notAudio(endpoint, head.length ? 'bytes that are not audio' : 'an empty body', head);
	}
	return stream;
}
