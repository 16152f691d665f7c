/**
 * MP3 streams without a decoder: tags, MPEG audio Layer III frame headers, VBR info frames, and
 * joining several MP3s into one. Only headers are read; audio data is copied as it is.
 *
 * Formats followed: ISO/IEC 11172-3 and 13818-3 frame headers (MPEG 2.5 as LAME and every decoder
 * read it), ID3v2.2–2.4 and ID3v1, APEv2, Lyrics3 v2, the Xing/Info header with the LAME extension
 * (as LAME and ffmpeg write it) and Fraunhofer's VBRI header.
 */

export type MpegVersion = '1' | '2' | '2.5';
export type ChannelMode = 'stereo' | 'joint stereo' | 'dual channel' | 'mono';

export interface Mp3FrameHeader {
	version: MpegVersion;
	bitrateKbps: number;
	sampleRate: number;
	padding: boolean;
	channelMode: ChannelMode;
	channels: 1 | 2;
	/** The frame carries a 16-bit CRC after its header. */
	crc: boolean;
	samplesPerFrame: 576 | 1152;
	/** Length of the whole frame, header included. */
	frameBytes: number;
}

export interface Mp3Frame extends Mp3FrameHeader {
	offset: number;
}

export type Mp3TagKind = 'id3v2' | 'id3v1' | 'apev2' | 'lyrics3';

export interface Mp3Tag {
	kind: Mp3TagKind;
	offset: number;
	length: number;
}

/** A Xing/Info or VBRI frame: a frame of silence that describes the stream instead of holding audio. */
export interface Mp3VbrHeader {
	kind: 'Xing' | 'Info' | 'VBRI';
	offset: number;
	length: number;
	/** Audio frames in the stream it describes, itself not counted. */
	frames?: number;
	/** Bytes of the stream it describes, itself included. */
	bytes?: number;
	/** From the LAME extension: encoder name and version, e.g. "LAME3.100". */
	encoder?: string;
	/** From the LAME extension: samples of silence the encoder put before the audio. */
	encoderDelay?: number;
	/** From the LAME extension: samples of silence the encoder put after the audio. */
	encoderPadding?: number;
}

export interface Mp3Stream {
	version: MpegVersion;
	sampleRate: number;
	channels: 1 | 2;
	samplesPerFrame: 576 | 1152;
	/** Audio frames in order; VBR header frames are not among them. */
	frames: Mp3Frame[];
	/** Every Xing/Info/VBRI frame, wherever it was (a naive concatenation has several). */
	vbrHeaders: Mp3VbrHeader[];
	tags: Mp3Tag[];
	/** Bytes that are neither tags nor whole frames: damage, or a frame cut off at the end. */
	junk: Array<{ offset: number; length: number }>;
	/** frames × samples per frame. */
	samples: number;
	/** samples / sample rate: what a player shows without gapless trimming. */
	durationSec: number;
}

export type Mp3ErrorReason = 'notMp3' | 'mismatch' | 'noParts';

export class Mp3Error extends Error {
	constructor(
		readonly reason: Mp3ErrorReason,
		message: string,
		/** 0-based index of the part at fault when joining. */
		readonly part?: number,
	) {
		super(message);
		this.name = 'Mp3Error';
	}
}

const VERSIONS: Array<MpegVersion | undefined> = ['2.5', undefined, '2', '1'];
const BITRATES: Record<'1' | 'lsf', number[]> = {
	'1': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
	lsf: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<MpegVersion, number[]> = {
	'1': [44100, 48000, 32000],
	'2': [22050, 24000, 16000],
	'2.5': [11025, 12000, 8000],
};
const CHANNEL_MODES: ChannelMode[] = ['stereo', 'joint stereo', 'dual channel', 'mono'];
const XING_FRAMES = 0x1;
const XING_BYTES = 0x2;
const XING_TOC = 0x4;
const XING_QUALITY = 0x8;
const LAME_TAG_BYTES = 36;
// LAME and ffmpeg compute the info tag's CRC over this many bytes from the frame start.
const LAME_CRC_SPAN = 190;

/** The header of a Layer III frame at `offset`, or undefined when the bytes there are not one. */
export function readFrameHeader(buf: Uint8Array, offset: number): Mp3FrameHeader | undefined {
	if (offset < 0 || offset + 4 > buf.length) return undefined;
	const b1 = buf[offset + 1];
	const b2 = buf[offset + 2];
	const b3 = buf[offset + 3];
	if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
	const version = VERSIONS[(b1 >> 3) & 3];
	if (!version || ((b1 >> 1) & 3) !== 1) return undefined;
	const bitrateIndex = b2 >> 4;
	const rateIndex = (b2 >> 2) & 3;
	// Free-format bitrate (0) would need the next frame to size this one; encoders of speech never use it.
	if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3 || (b3 & 3) === 2)
		return undefined;
	const bitrateKbps = BITRATES[version === '1' ? '1' : 'lsf'][bitrateIndex];
	const sampleRate = SAMPLE_RATES[version][rateIndex];
	const padding = ((b2 >> 1) & 1) === 1;
	const channelMode = CHANNEL_MODES[b3 >> 6];
	return {
		version,
		bitrateKbps,
		sampleRate,
		padding,
		channelMode,
		channels: channelMode === 'mono' ? 1 : 2,
		crc: (b1 & 1) === 0,
		samplesPerFrame: version === '1' ? 1152 : 576,
		frameBytes: frameLength(version, bitrateKbps, sampleRate, padding),
	};
}

function frameLength(
	version: MpegVersion,
	bitrateKbps: number,
	sampleRate: number,
	padding: boolean,
): number {
	return (
		Math.floor(((version === '1' ? 144 : 72) * bitrateKbps * 1000) / sampleRate) + (padding ? 1 : 0)
	);
}

function sideInfoBytes(version: MpegVersion, channels: 1 | 2): number {
	if (version === '1') return channels === 1 ? 17 : 32;
	return channels === 1 ? 9 : 17;
}

/**
 * Reads the structure of an MP3: tags at either end (and any left between frames by a naive
 * concatenation), every audio frame, and the VBR header frames.
 *
 * @throws Mp3Error `notMp3` when there is no MPEG Layer III frame in it.
 */
export function parseMp3(buf: Uint8Array): Mp3Stream {
	const stream = scan(buf);
	if (!stream)
		throw new Mp3Error('notMp3', 'The data is not an MP3: it has no MPEG audio Layer III frame');
	return stream;
}

function scan(buf: Uint8Array): Mp3Stream | undefined {
	const tags = leadingTags(buf);
	const junk: Mp3Stream['junk'] = [];
	const start = tags.reduce((at, tag) => at + tag.length, 0);
	const end = audioEnd(buf, start, tags);

	const first = findSync(buf, start, end, undefined);
	if (!first) return undefined;
	if (first.offset > start) junk.push({ offset: start, length: first.offset - start });

	const frames: Mp3Frame[] = [];
	const vbrHeaders: Mp3VbrHeader[] = [];
	let pos = first.offset;
	while (pos < end) {
		const header = readFrameHeader(buf, pos);
		if (header && compatible(header, first) && pos + header.frameBytes <= end) {
			const vbr = readVbrHeader(buf, pos, header);
			if (vbr) vbrHeaders.push(vbr);
			else frames.push({ ...header, offset: pos });
			pos += header.frameBytes;
			continue;
		}
		const tag = tagAt(buf, pos, end);
		if (tag) {
			tags.push(tag);
			pos += tag.length;
			continue;
		}
		const next = findSync(buf, pos + 1, end, first);
		const resume = next ? next.offset : end;
		junk.push({ offset: pos, length: resume - pos });
		pos = resume;
	}
	tags.sort((a, b) => a.offset - b.offset);
	const samples = frames.length * first.samplesPerFrame;
	return {
		version: first.version,
		sampleRate: first.sampleRate,
		channels: first.channels,
		samplesPerFrame: first.samplesPerFrame,
		frames,
		vbrHeaders,
		tags,
		junk,
		samples,
		durationSec: samples / first.sampleRate,
	};
}

/** The length in seconds of an MP3's audio frames (VBR header frames and tags not counted). */
export function mp3DurationSec(buf: Uint8Array): number {
	return parseMp3(buf).durationSec;
}

/**
 * The length in seconds of an MP3 known only by its first bytes and its whole size (a file about to
 * be sent): the frame count of its Xing/Info or VBRI header, else, for a constant bitrate, its size
 * at the first frame's bitrate. Undefined when the first bytes hold no frame.
 */
export function mp3HeadDurationSec(head: Uint8Array, fileSize: number): number | undefined {
	const start = leadingTags(head).reduce((at, tag) => at + tag.length, 0);
	const first = findSync(head, start, head.length, undefined);
	if (!first) return undefined;
	const frames = readVbrHeader(head, first.offset, first)?.frames;
	if (frames) return (frames * first.samplesPerFrame) / first.sampleRate;
	return ((fileSize - first.offset) * 8) / (first.bitrateKbps * 1000);
}

/** The ID3v2 tags at the start, one after another. */
function leadingTags(buf: Uint8Array): Mp3Tag[] {
	const tags: Mp3Tag[] = [];
	let start = 0;
	for (let size = id3v2Size(buf, start); size > 0; size = id3v2Size(buf, start)) {
		// Some writers put the tag's padding after it instead of inside its size; it is still the tag's.
		let end = Math.min(start + size, buf.length);
		while (end < buf.length && buf[end] === 0) end++;
		tags.push({ kind: 'id3v2', offset: start, length: end - start });
		start = end;
	}
	return tags;
}

function compatible(header: Mp3FrameHeader, first: Mp3FrameHeader): boolean {
	return header.version === first.version && header.sampleRate === first.sampleRate;
}

/**
 * The next frame at or after `from` that a decoder would lock on to: its successor is a frame too
 * (or it ends exactly at the end), so a stray 0xFF in junk or in a tag is not taken for one.
 */
function findSync(
	buf: Uint8Array,
	from: number,
	end: number,
	like: Mp3FrameHeader | undefined,
): Mp3Frame | undefined {
	for (let i = from; i + 4 <= end; i++) {
		if (buf[i] !== 0xff) continue;
		const header = readFrameHeader(buf, i);
		if (!header || (like && !compatible(header, like))) continue;
		const after = i + header.frameBytes;
		if (after > end) continue;
		const following = after === end ? header : readFrameHeader(buf, after);
		if (following && compatible(following, header)) return { ...header, offset: i };
		if (tagAt(buf, after, end)) return { ...header, offset: i };
	}
	return undefined;
}

function syncsafe(buf: Uint8Array, at: number): number | undefined {
	let value = 0;
	for (let i = 0; i < 4; i++) {
		const byte = buf[at + i];
		if (byte === undefined || byte & 0x80) return undefined;
		value = value * 128 + byte;
	}
	return value;
}

function ascii(buf: Uint8Array, at: number, text: string): boolean {
	if (at < 0 || at + text.length > buf.length) return false;
	for (let i = 0; i < text.length; i++) if (buf[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

/** Total length of an ID3v2 tag at `at` (header, body and footer), or 0 when there is none. */
function id3v2Size(buf: Uint8Array, at: number): number {
	if (!ascii(buf, at, 'ID3') || at + 10 > buf.length) return 0;
	const major = buf[at + 3];
	if (major < 2 || major > 4 || buf[at + 4] === 0xff) return 0;
	const size = syncsafe(buf, at + 6);
	if (size === undefined) return 0;
	const footer = major === 4 && (buf[at + 5] & 0x10) !== 0 ? 10 : 0;
	return 10 + size + footer;
}

/** Where the audio ends: before the tags at the end of the file, which it records. */
function audioEnd(buf: Uint8Array, start: number, tags: Mp3Tag[]): number {
	let end = buf.length;
	for (;;) {
		const tag = tagEndingAt(buf, start, end);
		if (!tag) return end;
		tags.push(tag);
		end = tag.offset;
	}
}

function tagEndingAt(buf: Uint8Array, start: number, end: number): Mp3Tag | undefined {
	if (end - 128 >= start && ascii(buf, end - 128, 'TAG')) {
		// An Enhanced TAG ("TAG+", 227 bytes) sits right before an ID3v1 tag when there is one.
		const enhanced = end - 128 - 227 >= start && ascii(buf, end - 128 - 227, 'TAG+');
		return enhanced
			? { kind: 'id3v1', offset: end - 355, length: 355 }
			: { kind: 'id3v1', offset: end - 128, length: 128 };
	}
	if (end - 32 >= start && ascii(buf, end - 32, 'APETAGEX')) {
		const footer = end - 32;
		const size = readU32LE(buf, footer + 12);
		const hasHeader = (buf[footer + 23] & 0x80) !== 0;
		const length = size + (hasHeader ? 32 : 0);
		if (length >= 32 && end - length >= start)
			return { kind: 'apev2', offset: end - length, length };
	}
	if (end - 15 >= start && ascii(buf, end - 9, 'LYRICS200')) {
		const size = Number(String.fromCharCode(...buf.subarray(end - 15, end - 9)));
		const length = size + 15;
		if (Number.isInteger(size) && end - length >= start && ascii(buf, end - length, 'LYRICSBEGIN'))
			return { kind: 'lyrics3', offset: end - length, length };
	}
	if (end - 10 >= start && ascii(buf, end - 10, '3DI')) {
		const size = syncsafe(buf, end - 4);
		if (size !== undefined && end - size - 20 >= start)
			return { kind: 'id3v2', offset: end - size - 20, length: size + 20 };
	}
	return undefined;
}

/** A tag starting at `at` in the middle of the frames, as a concatenation of whole files leaves them. */
function tagAt(buf: Uint8Array, at: number, end: number): Mp3Tag | undefined {
	const id3 = id3v2Size(buf, at);
	if (id3 > 0 && at + id3 <= end) return { kind: 'id3v2', offset: at, length: id3 };
	if (ascii(buf, at, 'TAG') && at + 128 <= end) return { kind: 'id3v1', offset: at, length: 128 };
	if (ascii(buf, at, 'APETAGEX') && at + 32 <= end && (buf[at + 23] & 0x20) !== 0) {
		// An APE header (flag bit 29): its size counts the items and the footer, not itself.
		const length = readU32LE(buf, at + 12) + 32;
		if (at + length <= end) return { kind: 'apev2', offset: at, length };
	}
	return undefined;
}

function readU32LE(buf: Uint8Array, at: number): number {
	return (buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16)) + buf[at + 3] * 0x1000000;
}

function readU32BE(buf: Uint8Array, at: number): number {
	return buf[at] * 0x1000000 + ((buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]);
}

function writeU32BE(buf: Uint8Array, at: number, value: number): void {
	buf[at] = (value >>> 24) & 0xff;
	buf[at + 1] = (value >>> 16) & 0xff;
	buf[at + 2] = (value >>> 8) & 0xff;
	buf[at + 3] = value & 0xff;
}

function readVbrHeader(
	buf: Uint8Array,
	offset: number,
	header: Mp3FrameHeader,
): Mp3VbrHeader | undefined {
	const frameEnd = offset + header.frameBytes;
	const plain = offset + 4 + sideInfoBytes(header.version, header.channels);
	// Writers put the Xing tag right after the side information and ignore a CRC; try both places.
	for (const at of header.crc ? [plain, plain + 2] : [plain]) {
		const kind = ascii(buf, at, 'Xing') ? 'Xing' : ascii(buf, at, 'Info') ? 'Info' : undefined;
		if (kind && at + 8 <= frameEnd) return readXing(buf, offset, header, at, kind);
	}
	if (ascii(buf, offset + 36, 'VBRI') && offset + 62 <= frameEnd) {
		return {
			kind: 'VBRI',
			offset,
			length: header.frameBytes,
			bytes: readU32BE(buf, offset + 46),
			frames: readU32BE(buf, offset + 50),
		};
	}
	return undefined;
}

function readXing(
	buf: Uint8Array,
	offset: number,
	header: Mp3FrameHeader,
	at: number,
	kind: 'Xing' | 'Info',
): Mp3VbrHeader {
	const frameEnd = offset + header.frameBytes;
	const vbr: Mp3VbrHeader = { kind, offset, length: header.frameBytes };
	const flags = readU32BE(buf, at + 4);
	let p = at + 8;
	if (flags & XING_FRAMES && p + 4 <= frameEnd) vbr.frames = readU32BE(buf, p);
	if (flags & XING_FRAMES) p += 4;
	if (flags & XING_BYTES && p + 4 <= frameEnd) vbr.bytes = readU32BE(buf, p);
	if (flags & XING_BYTES) p += 4;
	if (flags & XING_TOC) p += 100;
	if (flags & XING_QUALITY) p += 4;
	if (p + LAME_TAG_BYTES <= frameEnd && isLameTag(buf, offset, p)) {
		vbr.encoder = String.fromCharCode(...buf.subarray(p, p + 9)).replace(/[\0 ]+$/, '');
		const delays = (buf[p + 21] << 16) | (buf[p + 22] << 8) | buf[p + 23];
		vbr.encoderDelay = delays >> 12;
		vbr.encoderPadding = delays & 0xfff;
	}
	return vbr;
}

/** The LAME extension is only trusted from encoders known to write it, or when its CRC holds. */
function isLameTag(buf: Uint8Array, frame: number, tag: number): boolean {
	if (['LAME', 'Lavf', 'Lavc', 'GOGO'].some((name) => ascii(buf, tag, name))) return true;
	const stored = (buf[tag + 34] << 8) | buf[tag + 35];
	const before = buf.subarray(frame, tag + 34);
	return stored === crc16(before) || stored === crc16(zeroFilled(before, LAME_CRC_SPAN));
}

function zeroFilled(bytes: Uint8Array, length: number): Uint8Array {
	const out = new Uint8Array(Math.max(length, bytes.length));
	out.set(bytes);
	return out.subarray(0, length);
}

let crcTable: Uint16Array | undefined;

/** CRC-16/ARC (polynomial 0x8005, reflected): the checksum of the LAME tag and of the music in it. */
function crc16(bytes: Uint8Array, crc = 0): number {
	if (!crcTable) {
		crcTable = new Uint16Array(256);
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
			crcTable[n] = c;
		}
	}
	for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ crcTable[(crc ^ bytes[i]) & 0xff];
	return crc;
}

export interface JoinedMp3 {
	/** One MP3: a Xing/Info frame, then every part's audio frames in order; no tags. */
	mp3: Buffer;
	/** Audio frames in it, the Xing/Info frame not counted. */
	frames: number;
	/** frames × samples per frame / sample rate. */
	durationSec: number;
	sampleRate: number;
	/** Each part's duration from its frames, in order. */
	partDurationsSec: number[];
}

/**
 * Joins MP3s into one that players read as a single track with the right length: the parts' audio
 * frames in order, without their tags and VBR header frames, behind a new Xing/Info frame that counts
 * all frames and bytes (with a seek table, so VBR seeks and lengths are right too). When the parts
 * came with the encoder's delay and padding (LAME extension), the new header keeps the first part's
 * delay and the last part's padding, so gapless players trim the ends as before; the silence the
 * encoder left at the inner joins stays, as no join can remove it without re-encoding.
 *
 * @throws Mp3Error `noParts` for an empty list, `notMp3` naming a part that is not an MP3 or has no
 *   audio frame, `mismatch` naming a part whose MPEG version, sample rate or channel count differs
 *   from the first part's (a decoder cannot switch those inside one track).
 */
export function joinMp3(parts: Uint8Array[]): JoinedMp3 {
	if (parts.length === 0) throw new Mp3Error('noParts', 'There are no MP3 parts to join');
	const streams = parts.map((part, i) => parsePart(part, i, parts.length));
	const first = streams[0];
	streams.forEach((s, i) => checkSameFormat(first, s, i));

	const frameCount = streams.reduce((n, s) => n + s.frames.length, 0);
	const audioBytes = streams.reduce(
		(n, s) => n + s.frames.reduce((m, f) => m + f.frameBytes, 0),
		0,
	);
	const firstVbr = first.vbrHeaders.find((v) => v.encoderDelay !== undefined);
	const lastVbr = streams[streams.length - 1].vbrHeaders.find(
		(v) => v.encoderPadding !== undefined,
	);
	const lame =
		firstVbr && lastVbr
			? {
					encoder: firstVbr.encoder ?? '',
					delay: firstVbr.encoderDelay ?? 0,
					padding: lastVbr.encoderPadding ?? 0,
				}
			: undefined;

	const frames = streams.flatMap((s, i) =>
		s.frames.map((f) => ({
			part: i,
			offset: f.offset,
			length: f.frameBytes,
			bitrateKbps: f.bitrateKbps,
		})),
	);
	const info = infoFrame(first.frames[0], frames, audioBytes, lame);
	const mp3 = Buffer.allocUnsafe(info.length + audioBytes);
	mp3.set(info, 0);
	let at = info.length;
	for (const f of frames) {
		mp3.set(parts[f.part].subarray(f.offset, f.offset + f.length), at);
		at += f.length;
	}
	writeLameChecksums(mp3, info.length, info.tagOffset);
	return {
		mp3,
		frames: frameCount,
		durationSec: (frameCount * first.samplesPerFrame) / first.sampleRate,
		sampleRate: first.sampleRate,
		partDurationsSec: streams.map((s) => s.durationSec),
	};
}

function parsePart(part: Uint8Array, index: number, count: number): Mp3Stream {
	const name = count > 1 ? `Part ${index + 1} of ${count}` : 'The audio';
	const stream = scan(part);
	if (!stream)
		throw new Mp3Error(
			'notMp3',
			`${name} is not an MP3: it has no MPEG audio Layer III frame`,
			index,
		);
	if (stream.frames.length === 0)
		throw new Mp3Error('notMp3', `${name} has no audio frames`, index);
	return stream;
}

function describe(s: Mp3Stream): string {
	return `MPEG ${s.version}, ${s.sampleRate} Hz, ${s.channels === 1 ? 'mono' : 'stereo'}`;
}

function checkSameFormat(first: Mp3Stream, s: Mp3Stream, index: number): void {
	if (
		s.version === first.version &&
		s.sampleRate === first.sampleRate &&
		s.channels === first.channels
	)
		return;
	throw new Mp3Error(
		'mismatch',
		`Part ${index + 1} is ${describe(s)} but part 1 is ${describe(first)}; MP3s of different formats cannot be joined into one track`,
		index,
	);
}

interface LameFields {
	encoder: string;
	delay: number;
	padding: number;
}

/** A Xing ("Xing" when bitrates vary, "Info" when constant) frame describing `frames`, and where its LAME tag is. */
function infoFrame(
	model: Mp3Frame,
	frames: Array<{ length: number; bitrateKbps: number }>,
	audioBytes: number,
	lame: LameFields | undefined,
): Uint8Array & { tagOffset?: number } {
	const sideInfo = sideInfoBytes(model.version, model.channels);
	const xingAt = 4 + sideInfo;
	const needed = xingAt + 120 + (lame ? LAME_TAG_BYTES : 0);
	const table = BITRATES[model.version === '1' ? '1' : 'lsf'];
	const constant = frames.every((f) => f.bitrateKbps === model.bitrateKbps);
	let index = constant ? table.indexOf(model.bitrateKbps) : -1;
	if (index < 1 || frameLength(model.version, table[index], model.sampleRate, false) < needed) {
		index = table.findIndex(
			(kbps, i) => i > 0 && frameLength(model.version, kbps, model.sampleRate, false) >= needed,
		);
	}
	const length = frameLength(model.version, table[index], model.sampleRate, false);
	const frame: Uint8Array & { tagOffset?: number } = new Uint8Array(length);
	const versionBits = model.version === '1' ? 3 : model.version === '2' ? 2 : 0;
	frame[0] = 0xff;
	frame[1] = 0xe0 | (versionBits << 3) | (1 << 1) | 1;
	frame[2] = (index << 4) | (SAMPLE_RATES[model.version].indexOf(model.sampleRate) << 2);
	frame[3] = CHANNEL_MODES.indexOf(model.channelMode) << 6;

	const totalBytes = length + audioBytes;
	frame.set(
		[...(constant ? 'Info' : 'Xing')].map((c) => c.charCodeAt(0)),
		xingAt,
	);
	writeU32BE(frame, xingAt + 4, XING_FRAMES | XING_BYTES | XING_TOC | XING_QUALITY);
	writeU32BE(frame, xingAt + 8, frames.length);
	writeU32BE(frame, xingAt + 12, totalBytes);
	frame.set(seekTable(frames, length, totalBytes), xingAt + 16);
	writeU32BE(frame, xingAt + 116, 0);
	if (lame) {
		const tag = xingAt + 120;
		const name = (lame.encoder + ' '.repeat(9)).slice(0, 9);
		frame.set(
			[...name].map((c) => c.charCodeAt(0) & 0x7f),
			tag,
		);
		const delay = Math.min(lame.delay, 0xfff);
		const padding = Math.min(lame.padding, 0xfff);
		frame[tag + 21] = delay >> 4;
		frame[tag + 22] = ((delay & 0xf) << 4) | (padding >> 8);
		frame[tag + 23] = padding & 0xff;
		writeU32BE(frame, tag + 28, totalBytes);
		frame.tagOffset = tag;
	}
	return frame;
}

/** Xing's 100-entry table: where (in 256ths of the stream) each percent of the playing time starts. */
function seekTable(
	frames: Array<{ length: number }>,
	headerBytes: number,
	totalBytes: number,
): Uint8Array {
	const toc = new Uint8Array(100);
	let frame = 0;
	let offset = headerBytes;
	for (let percent = 0; percent < 100; percent++) {
		const target = Math.floor((percent * frames.length) / 100);
		for (; frame < target; frame++) offset += frames[frame].length;
		toc[percent] = Math.min(255, Math.floor((offset * 256) / totalBytes));
	}
	return toc;
}

/** The music CRC covers the audio frames; the tag CRC covers the frame up to it (ffmpeg's zero-filled 190 bytes). */
function writeLameChecksums(mp3: Buffer, infoLength: number, tag: number | undefined): void {
	if (tag === undefined) return;
	const music = crc16(mp3.subarray(infoLength));
	mp3[tag + 32] = music >> 8;
	mp3[tag + 33] = music & 0xff;
	const crc = crc16(zeroFilled(mp3.subarray(0, tag + 34), LAME_CRC_SPAN));
	mp3[tag + 34] = crc >> 8;
	mp3[tag + 35] = crc & 0xff;
}
