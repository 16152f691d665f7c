/**
 * The length of a WAV or MP3 from its first bytes, so a limit on audio length can be checked before
 * a file is sent. Only headers are read: the WAV format chunk and data size, or the first MPEG
 * Layer III frame with its Xing/Info or VBRI frame count (else its bitrate, for constant-bitrate
 * files). Undefined whenever the header does not say for sure.
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

const MPEG1_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
	3: [44100, 48000, 32000],
	2: [22050, 24000, 16000],
	0: [11025, 12000, 8000],
};

function id3v2Size(head: Uint8Array): number {
	if (head.length < 10 || ascii(head, 0, 3) !== 'ID3') return 0;
	const size =
		((head[6] & 0x7f) << 21) |
		((head[7] & 0x7f) << 14) |
		((head[8] & 0x7f) << 7) |
		(head[9] & 0x7f);
	return 10 + size + (head[5] & 0x10 ? 10 : 0);
}

function mp3Seconds(head: Uint8Array, fileSize: number): number | undefined {
	const start = id3v2Size(head);
	if (start + 4 > head.length) return undefined;
	const b = head.subarray(start);
	if (b[0] !== 0xff || (b[1] & 0xe0) !== 0xe0 || (b[1] & 0x06) !== 0x02) return undefined;
	const version = (b[1] >> 3) & 0x03;
	const kbps = (version === 3 ? MPEG1_KBPS : MPEG2_KBPS)[b[2] >> 4];
	const sampleRate = SAMPLE_RATES[version]?.[(b[2] >> 2) & 0x03];
	if (!kbps || !sampleRate) return undefined;
	const mono = b[3] >> 6 === 3;
	const samplesPerFrame = version === 3 ? 1152 : 576;
	const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
	const frames = (
		offset: number,
		tags: string[],
		countAt: number,
		flagged: boolean,
	): number | undefined => {
		if (offset + countAt + 4 > b.length || !tags.includes(ascii(b, offset, 4))) return undefined;
		if (flagged && !(view(b).getUint32(offset + 4) & 1)) return undefined;
		return view(b).getUint32(offset + countAt);
	};
	const counted =
		frames(4 + sideInfo, ['Xing', 'Info'], 8, true) ?? frames(36, ['VBRI'], 14, false);
	if (counted) return (counted * samplesPerFrame) / sampleRate;
	return ((fileSize - start) * 8) / (kbps * 1000);
}

/** Seconds of audio in a WAV or MP3 whose first bytes are `head` and whole size `fileSize`. */
export function audioDurationSec(
	mimeType: string,
	head: Uint8Array,
	fileSize: number,
): number | undefined {
	if (/wav/.test(mimeType)) return wavSeconds(head, fileSize);
	if (/mpeg|mp3/.test(mimeType)) return mp3Seconds(head, fileSize);
	return undefined;
}
