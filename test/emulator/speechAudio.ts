import { FIXTURES } from './fixtures';

/**
 * TTS audio whose length follows the text, made the way an encoder's output looks: an ID3v2 tag, an
 * Info frame (the sample's own, ffmpeg-written, with its counts, seek table and LAME checksums
 * rewritten), then the sample's audio frames repeated in order for as long as the speech lasts.
 * Kept apart from the node's MP3 code on purpose, so tests of that code check it against another
 * reading of the format.
 */

/** Speaking pace: about 16 characters a second, a brisk narrator. */
export const SECONDS_PER_CHARACTER = 0.06;

interface Frame {
	start: number;
	end: number;
}

interface Sample {
	bytes: Buffer;
	info: Frame;
	frames: Frame[];
	samplesPerFrame: number;
	sampleRate: number;
	/** Where in the Info frame the Xing fields start, and where its LAME tag starts. */
	xingAt: number;
	lameAt: number;
}

let sample: Sample | undefined;

/** The sample MP3 is MPEG 2 Layer III mono at 22050 Hz; anything else would need more tables here. */
function loadSample(): Sample {
	if (sample) return sample;
	const bytes = FIXTURES.mp3.bytes;
	if (bytes.toString('latin1', 0, 3) !== 'ID3')
		throw new Error('sample.mp3 should start with an ID3v2 tag');
	let pos =
		10 +
		(((bytes[6] & 0x7f) << 21) |
			((bytes[7] & 0x7f) << 14) |
			((bytes[8] & 0x7f) << 7) |
			(bytes[9] & 0x7f));
	const kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
	const frames: Frame[] = [];
	while (pos + 4 <= bytes.length) {
		if (
			bytes[pos] !== 0xff ||
			bytes[pos + 1] !== 0xf3 ||
			bytes[pos + 3] >> 6 !== 3 ||
			((bytes[pos + 2] >> 2) & 3) !== 0
		) {
			throw new Error(
				`sample.mp3: expected an MPEG 2 Layer III mono 22050 Hz frame at byte ${pos}`,
			);
		}
		const length =
			Math.floor((72 * kbps[bytes[pos + 2] >> 4] * 1000) / 22050) + ((bytes[pos + 2] >> 1) & 1);
		frames.push({ start: pos, end: pos + length });
		pos += length;
	}
	const info = frames.shift() as Frame;
	const xingAt = info.start + 4 + 9;
	if (
		bytes.toString('latin1', xingAt, xingAt + 4) !== 'Info' ||
		bytes.readUInt32BE(xingAt + 4) !== 0x0f
	) {
		throw new Error('sample.mp3 should start with an Info frame with all four fields');
	}
	sample = {
		bytes,
		info,
		frames,
		samplesPerFrame: 576,
		sampleRate: 22050,
		xingAt,
		lameAt: xingAt + 120,
	};
	return sample;
}

export interface SpeechAudio {
	mp3: Buffer;
	/** Audio frames, the Info frame not counted. */
	frames: number;
	/** frames × 576 / 22050: the length of the audio frames. */
	durationSec: number;
}

/** Audio for `characters` characters of text: at least one frame. */
export function speechAudio(characters: number): SpeechAudio {
	const s = loadSample();
	const seconds = characters * SECONDS_PER_CHARACTER;
	const count = Math.max(1, Math.round((seconds * s.sampleRate) / s.samplesPerFrame));
	// The sample's first audio frame takes nothing from the bit reservoir, so the cycle can restart there.
	const audio = Buffer.concat(
		Array.from({ length: count }, (_, i) => frameBytes(s, s.frames[i % s.frames.length])),
	);
	const info = Buffer.from(frameBytes(s, s.info));
	const xing = s.xingAt - s.info.start;
	const lame = s.lameAt - s.info.start;
	const total = info.length + audio.length;
	info.writeUInt32BE(count, xing + 8);
	info.writeUInt32BE(total, xing + 12);
	info.set(seekTable(s, count, info.length, total), xing + 16);
	// The LAME delay and padding stay the sample's: an encoder's padding always covers the decoder's 529-sample delay.
	info.writeUInt32BE(total, lame + 28);
	info.writeUInt16BE(crc16(audio), lame + 32);
	const span = Buffer.alloc(190);
	info.copy(span, 0, 0, lame + 34);
	info.writeUInt16BE(crc16(span), lame + 34);
	return {
		mp3: Buffer.concat([id3Tag(), info, audio]),
		frames: count,
		durationSec: (count * s.samplesPerFrame) / s.sampleRate,
	};
}

function frameBytes(s: Sample, f: Frame): Buffer {
	return s.bytes.subarray(f.start, f.end);
}

function seekTable(s: Sample, count: number, headerBytes: number, total: number): Buffer {
	const toc = Buffer.alloc(100);
	let offset = headerBytes;
	let frame = 0;
	for (let percent = 0; percent < 100; percent++) {
		for (; frame < Math.floor((percent * count) / 100); frame++) {
			const f = s.frames[frame % s.frames.length];
			offset += f.end - f.start;
		}
		toc[percent] = Math.min(255, Math.floor((offset * 256) / total));
	}
	return toc;
}

/** ID3v2.4 with one TSSE (encoder settings) frame, as encoders tag their output. */
function id3Tag(): Buffer {
	const text = Buffer.from('\u0003VisionStory emulator', 'utf8');
	const frame = Buffer.concat([
		Buffer.from('TSSE', 'latin1'),
		syncsafe(text.length),
		Buffer.from([0, 0]),
		text,
	]);
	return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(frame.length), frame]);
}

function syncsafe(n: number): Buffer {
	return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

function crc16(bytes: Uint8Array): number {
	let crc = 0;
	for (const byte of bytes) {
		crc ^= byte;
		for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
	}
	return crc;
}
