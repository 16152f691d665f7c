/**
 * Reads what an asset upload "detects": kind, MIME type, pixel size and duration, from the first bytes
 * of common containers. Good enough for the fixtures and for what clients upload in tests; anything
 * unrecognised falls back to the declared MIME type with zero sizes.
 */
export type MediaKind = 'image' | 'audio' | 'video';

export interface Probe {
	kind: MediaKind;
	mime: string;
	width: number;
	height: number;
	durationSec: number;
}

export function kindOfMime(mime: string): MediaKind | undefined {
	const top = mime.toLowerCase().split('/')[0];
	return top === 'image' || top === 'audio' || top === 'video' ? top : undefined;
}

export function probe(bytes: Buffer, declaredMime?: string): Probe | undefined {
	return (
		probePng(bytes) ??
		probeJpeg(bytes) ??
		probeGif(bytes) ??
		probeWebp(bytes) ??
		probeBmp(bytes) ??
		probeTiff(bytes) ??
		probeWav(bytes) ??
		probeMp4(bytes) ??
		probeMp3(bytes) ??
		fromDeclared(declaredMime)
	);
}

function fromDeclared(mime: string | undefined): Probe | undefined {
	const kind = mime ? kindOfMime(mime) : undefined;
	return kind && mime
		? { kind, mime: mime.toLowerCase(), width: 0, height: 0, durationSec: 0 }
		: undefined;
}

function image(mime: string, width: number, height: number): Probe {
	return { kind: 'image', mime, width, height, durationSec: 0 };
}

function probePng(b: Buffer): Probe | undefined {
	if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR')
		return undefined;
	return image('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
}

function probeJpeg(b: Buffer): Probe | undefined {
	if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
	let i = 2;
	while (i + 9 < b.length) {
		if (b[i] !== 0xff) return image('image/jpeg', 0, 0);
		const marker = b[i + 1];
		const length = b.readUInt16BE(i + 2);
		// SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return image('image/jpeg', b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
		}
		i += 2 + length;
	}
	return image('image/jpeg', 0, 0);
}

function probeGif(b: Buffer): Probe | undefined {
	if (b.length < 10 || b.toString('latin1', 0, 4) !== 'GIF8') return undefined;
	return image('image/gif', b.readUInt16LE(6), b.readUInt16LE(8));
}

function probeWebp(b: Buffer): Probe | undefined {
	if (
		b.length < 30 ||
		b.toString('latin1', 0, 4) !== 'RIFF' ||
		b.toString('latin1', 8, 12) !== 'WEBP'
	)
		return undefined;
	const chunk = b.toString('latin1', 12, 16);
	if (chunk === 'VP8 ')
		return image('image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
	if (chunk === 'VP8L') {
		const bits = b.readUInt32LE(21);
		return image('image/webp', (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
	}
	if (chunk === 'VP8X')
		return image('image/webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
	return image('image/webp', 0, 0);
}

function probeBmp(b: Buffer): Probe | undefined {
	if (b.length < 26 || b.toString('latin1', 0, 2) !== 'BM') return undefined;
	return image('image/bmp', Math.abs(b.readInt32LE(18)), Math.abs(b.readInt32LE(22)));
}

function probeTiff(b: Buffer): Probe | undefined {
	const head = b.toString('latin1', 0, 4);
	return head === 'II*\0' || head === 'MM\0*' ? image('image/tiff', 0, 0) : undefined;
}

function probeWav(b: Buffer): Probe | undefined {
	if (
		b.length < 12 ||
		b.toString('latin1', 0, 4) !== 'RIFF' ||
		b.toString('latin1', 8, 12) !== 'WAVE'
	)
		return undefined;
	let byteRate = 0;
	let i = 12;
	while (i + 8 <= b.length) {
		const id = b.toString('latin1', i, i + 4);
		const size = b.readUInt32LE(i + 4);
		if (id === 'fmt ' && i + 16 <= b.length) byteRate = b.readUInt32LE(i + 16);
		if (id === 'data') {
			const dataBytes = Math.min(size, b.length - i - 8);
			return {
				kind: 'audio',
				mime: 'audio/wav',
				width: 0,
				height: 0,
				durationSec: byteRate ? round(dataBytes / byteRate) : 0,
			};
		}
		i += 8 + size + (size % 2);
	}
	return { kind: 'audio', mime: 'audio/wav', width: 0, height: 0, durationSec: 0 };
}

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Record<number, number[]> = {
	3: [44100, 48000, 32000],
	2: [22050, 24000, 16000],
	0: [11025, 12000, 8000],
};

function probeMp3(b: Buffer): Probe | undefined {
	let i = 0;
	if (b.toString('latin1', 0, 3) === 'ID3' && b.length > 10) {
		i = 10 + (((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f));
	}
	const limit = Math.min(b.length - 4, i + 64 * 1024);
	for (; i < limit; i++) {
		if (b[i] !== 0xff || (b[i + 1] & 0xe0) !== 0xe0) continue;
		const version = (b[i + 1] >> 3) & 3;
		const layer = (b[i + 1] >> 1) & 3;
		const bitrateIndex = b[i + 2] >> 4;
		const rateIndex = (b[i + 2] >> 2) & 3;
		if (
			version === 1 ||
			layer !== 1 ||
			bitrateIndex === 0 ||
			bitrateIndex === 15 ||
			rateIndex === 3
		)
			continue;
		const kbps = (version === 3 ? MP3_BITRATES_V1_L3 : MP3_BITRATES_V2_L3)[bitrateIndex];
		const sampleRate = MP3_RATES[version][rateIndex];
		const samplesPerFrame = version === 3 ? 1152 : 576;
		// A Xing/Info header gives the exact frame count of VBR files; otherwise estimate from the bitrate.
		const xing = b.indexOf('Xing', i, 'latin1');
		const info = b.indexOf('Info', i, 'latin1');
		const tag = [xing, info].filter((p) => p > 0 && p < i + 64).sort((x, y) => x - y)[0];
		let durationSec = ((b.length - i) * 8) / (kbps * 1000);
		if (tag !== undefined && b.length >= tag + 12 && (b.readUInt32BE(tag + 4) & 1) === 1) {
			durationSec = (b.readUInt32BE(tag + 8) * samplesPerFrame) / sampleRate;
		}
		return {
			kind: 'audio',
			mime: 'audio/mpeg',
			width: 0,
			height: 0,
			durationSec: round(durationSec),
		};
	}
	return undefined;
}

function probeMp4(b: Buffer): Probe | undefined {
	const first = b.toString('latin1', 4, 8);
	if (b.length < 16 || !['ftyp', 'moov', 'mdat', 'wide', 'free'].includes(first)) return undefined;
	const brand = first === 'ftyp' ? b.toString('latin1', 8, 12) : 'qt  ';
	const result: Probe = {
		kind: 'video',
		mime: brand === 'qt  ' ? 'video/quicktime' : 'video/mp4',
		width: 0,
		height: 0,
		durationSec: 0,
	};
	walkBoxes(b, 0, b.length, result);
	return result;
}

function walkBoxes(b: Buffer, start: number, end: number, out: Probe): void {
	let i = start;
	while (i + 8 <= end) {
		let size = b.readUInt32BE(i);
		const type = b.toString('latin1', i + 4, i + 8);
		let header = 8;
		if (size === 1 && i + 16 <= end) {
			size = Number(b.readBigUInt64BE(i + 8));
			header = 16;
		} else if (size === 0) {
			size = end - i;
		}
		if (size < header) return;
		const body = i + header;
		if (type === 'moov' || type === 'trak') walkBoxes(b, body, Math.min(i + size, end), out);
		if (type === 'mvhd' && body + 24 <= end) {
			const v1 = b[body] === 1;
			const timescale = v1 ? b.readUInt32BE(body + 20) : b.readUInt32BE(body + 12);
			const duration = v1 ? Number(b.readBigUInt64BE(body + 24)) : b.readUInt32BE(body + 16);
			if (timescale) out.durationSec = round(duration / timescale);
		}
		if (type === 'tkhd') {
			const offset = b[body] === 1 ? body + 88 : body + 76;
			if (offset + 8 <= end) {
				const width = b.readUInt32BE(offset) / 65536;
				const height = b.readUInt32BE(offset + 4) / 65536;
				if (width > 0 && height > 0) {
					out.width = Math.round(width);
					out.height = Math.round(height);
				}
			}
		}
		i += size;
	}
}

function round(seconds: number): number {
	return Math.round(seconds * 1000) / 1000;
}
