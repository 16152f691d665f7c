import { mp3HeadDurationSec } from './speech/mp3';

/**
 * The length of a WAV or MP3 from its first bytes, so a limit on audio length can be checked before
 * a file is sent. Only headers are read: the WAV format chunk and data size here, an MP3's by the one
 * MP3 reader (`speech/mp3.ts`). Undefined whenever the header does not say for sure.
 */

/** Bytes enough for the headers, after an ID3 tag of ordinary size. */
export const DURATION_HEADER_BYTES = 128 * 1024;

function ascii(bytes: Uint8Array, offset: number, length: number): string {
	return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function view(bytes: Uint8Array): DataView {
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function wavSeconds(head: Uint8Array, fileSize: number): number | undefined {
	if (head.length < 12 || ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WAVE')
		return undefined;
	const data = view(head);
	let byteRate: number | undefined;
	for (let offset = 12; offset + 8 <= head.length; ) {
		const id = ascii(head, offset, 4);
		const size = data.getUint32(offset + 4, true);
		if (id === 'fmt ' && offset + 16 <= head.length) byteRate = data.getUint32(offset + 16, true);
		if (id === 'data') {
			if (!byteRate) return undefined;
			// Streamed WAVs leave the size at 0 or 0xFFFFFFFF: the rest of the file is the audio then.
			const available = fileSize - (offset + 8);
			const bytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
			return bytes / byteRate;
		}
		offset += 8 + size + (size % 2);
	}
	return undefined;
}

/** Seconds of audio in a WAV or MP3 whose first bytes are `head` and whole size `fileSize`. */
export function audioDurationSec(
	mimeType: string,
	head: Uint8Array,
	fileSize: number,
): number | undefined {
	if (/wav/.test(mimeType)) return wavSeconds(head, fileSize);
	if (/mpeg|mp3/.test(mimeType)) return mp3HeadDurationSec(head, fileSize);
	return undefined;
}
