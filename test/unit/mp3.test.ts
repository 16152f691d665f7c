import {
	joinMp3,
	Mp3Error,
	mp3DurationSec,
	parseMp3,
	readFrameHeader,
	type Mp3Stream,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { splitScript } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/textParts';
import { startEmulator, type Emulator } from '../emulator';
import { probe } from '../emulator/mediaProbe';
import { api, fixture, type Answer } from '../emulator/testkit';
import { decodeMp3 } from '../support/decodeMp3';
import { apeTag, id3v24WithFooter, silentFrames, tagged } from './mp3Fixtures';
import { englishScript } from './scripts';

const sample = fixture('sample.mp3');

/** Frames follow one another with nothing between, from the first to the end of the audio. */
function expectFramesBackToBack(s: Mp3Stream, audioStart: number, audioEnd: number): void {
	let at = audioStart;
	for (const v of s.vbrHeaders.filter((h) => h.offset === at)) at += v.length;
	for (const f of s.frames) {
		expect(f.offset).toBe(at);
		at += f.frameBytes;
	}
	expect(at).toBe(audioEnd);
	expect(s.junk).toEqual([]);
}

function frameSeconds(s: Mp3Stream): number {
	return s.samplesPerFrame / s.sampleRate;
}

function occurrences(buf: Buffer, text: string): number {
	let n = 0;
	for (let i = buf.indexOf(text, 0, 'latin1'); i >= 0; i = buf.indexOf(text, i + 1, 'latin1')) n++;
	return n;
}

function thrown(fn: () => unknown): Mp3Error {
	try {
		fn();
	} catch (err) {
		if (err instanceof Mp3Error) return err;
		throw err;
	}
	throw new Error('expected an Mp3Error');
}

describe('parseMp3', () => {
	test('sample.mp3: its ID3v2 tag, Info frame, LAME delay and padding, and frames agree with mpg123', () => {
		const s = parseMp3(sample);
		const decoded = decodeMp3(sample);
		expect(decoded.raw.errors).toEqual([]);
		expect(s.tags).toEqual([{ kind: 'id3v2', offset: 0, length: expect.any(Number) }]);
		const audioStart = s.tags[0].length;
		expect(s.vbrHeaders).toHaveLength(1);
		const info = s.vbrHeaders[0];
		expect(info).toMatchObject({
			kind: 'Info',
			offset: audioStart,
			frames: s.frames.length,
			bytes: sample.length - audioStart,
		});
		expectFramesBackToBack(s, audioStart, sample.length);
		expect(s.sampleRate).toBe(decoded.raw.sampleRate);
		expect(s.samples).toBe(decoded.raw.samplesDecoded);
		expect(info.encoderDelay! + info.encoderPadding!).toBe(
			decoded.raw.samplesDecoded - decoded.gapless.samplesDecoded,
		);
		expect(s.durationSec).toBeCloseTo(decoded.raw.samplesDecoded / decoded.raw.sampleRate, 9);
		expect(mp3DurationSec(sample)).toBe(s.durationSec);
		// The emulator's own reader takes the length from the Info frame's count.
		expect(probe(sample)!.durationSec).toBeCloseTo(s.durationSec, 3);
	});

	test('frame headers: version, bitrate, sample rate, padding, channel mode and CRC', () => {
		const v1 = silentFrames(1, {
			version: '1',
			sampleRate: 44100,
			kbps: 128,
			mono: false,
			crc: true,
		});
		expect(readFrameHeader(v1, 0)).toEqual({
			version: '1',
			bitrateKbps: 128,
			sampleRate: 44100,
			padding: false,
			channelMode: 'joint stereo',
			channels: 2,
			crc: true,
			samplesPerFrame: 1152,
			frameBytes: v1.length,
		});
		const v25 = silentFrames(1, { version: '2.5', sampleRate: 8000, kbps: 16, mono: true });
		expect(readFrameHeader(v25, 0)).toMatchObject({
			version: '2.5',
			sampleRate: 8000,
			channelMode: 'mono',
			channels: 1,
			crc: false,
			samplesPerFrame: 576,
		});
		const padded = Buffer.from(v25);
		padded[2] |= 0x02;
		expect(readFrameHeader(padded, 0)).toMatchObject({ padding: true, frameBytes: v25.length + 1 });
		for (const [byte, value] of [
			[1, 0xeb], // MPEG version "reserved"
			[1, 0xf7], // Layer I
			[2, 0xf0], // bitrate index 15
			[2, 0x0c], // free-format bitrate and sample rate index 3
		]) {
			const bad = Buffer.from(v1);
			bad[byte] = value;
			expect(readFrameHeader(bad, 0)).toBeUndefined();
		}
		expect(readFrameHeader(v1, v1.length - 2)).toBeUndefined();
	});

	test('tags at both ends are skipped: ID3v2.3 with padding, ID3v2.4 unsynchronised or with a footer, ID3v1, APEv2', () => {
		const bare = parseMp3(sample);
		const variants: Array<[string, Buffer, string[]]> = [
			['ID3v2.3 + ID3v1', tagged(sample, { id3v2Version: 3, id3v1: true }), ['id3v2', 'id3v1']],
			[
				'ID3v2.4 unsynchronised',
				tagged(sample, { id3v2Version: 4, id3v1: false, unsynch: true }),
				['id3v2'],
			],
			[
				'ID3v2.4 footer + APEv2 + ID3v1',
				Buffer.concat([
					id3v24WithFooter('Intro'),
					sample,
					apeTag({ Title: 'Intro', Artist: 'Narrator' }),
					tagged(sample, { id3v2Version: 3, id3v1: true }).subarray(-128),
				]),
				['id3v2', 'id3v2', 'apev2', 'id3v1'],
			],
		];
		for (const [name, mp3, kinds] of variants) {
			const s = parseMp3(mp3);
			expect([name, s.tags.map((t) => t.kind)]).toEqual([name, kinds]);
			expect([name, s.frames.length, s.vbrHeaders.length, s.junk]).toEqual([
				name,
				bare.frames.length,
				1,
				[],
			]);
			const tagBytes = s.tags.reduce((n, t) => n + t.length, 0);
			const frameBytes = s.frames.reduce((n, f) => n + f.frameBytes, 0) + s.vbrHeaders[0].length;
			expect([name, tagBytes + frameBytes]).toEqual([name, mp3.length]);
		}
	});

	test('damage between frames and a frame cut off at the end are reported as junk and skipped', () => {
		const bare = parseMp3(sample);
		const cut = bare.frames[50].offset;
		const garbage = Buffer.from(
			'not audio at all, just bytes \xff\xfb\x00 that look odd',
			'latin1',
		);
		const damaged = Buffer.concat([
			sample.subarray(0, cut),
			garbage,
			sample.subarray(cut, sample.length - 40),
		]);
		const s = parseMp3(damaged);
		expect(s.junk).toEqual([
			{ offset: cut, length: garbage.length },
			{ offset: expect.any(Number), length: bare.frames.at(-1)!.frameBytes - 40 },
		]);
		expect(s.frames.length).toBe(bare.frames.length - 1);
	});

	test('a naive concatenation (cat a.mp3 b.mp3) has its inner tag and second Info frame found, not counted as audio', () => {
		const naive = Buffer.concat([sample, sample]);
		const s = parseMp3(naive);
		const bare = parseMp3(sample);
		expect(s.frames.length).toBe(2 * bare.frames.length);
		expect(s.vbrHeaders.map((v) => v.offset)).toEqual([
			bare.vbrHeaders[0].offset,
			sample.length + bare.vbrHeaders[0].offset,
		]);
		expect(s.tags.map((t) => [t.kind, t.offset])).toEqual([
			['id3v2', 0],
			['id3v2', sample.length],
		]);
		expect(s.durationSec).toBeCloseTo(2 * bare.durationSec, 9);
	});

	test('a Fraunhofer VBRI header frame is read and, like Xing, not counted as audio', () => {
		const format = { version: '1', sampleRate: 44100, kbps: 128, mono: false } as const;
		const header = silentFrames(1, format);
		const audio = silentFrames(20, format);
		header.write('VBRI', 36, 'latin1');
		header.writeUInt16BE(1, 40);
		header.writeUInt32BE(header.length + audio.length, 46);
		header.writeUInt32BE(20, 50);
		const s = parseMp3(Buffer.concat([header, audio]));
		expect(s.vbrHeaders).toEqual([
			{
				kind: 'VBRI',
				offset: 0,
				length: header.length,
				bytes: header.length + audio.length,
				frames: 20,
			},
		]);
		expect(s.frames).toHaveLength(20);
		expect(s.durationSec).toBeCloseTo((20 * 1152) / 44100, 9);
		expect(joinMp3([Buffer.concat([header, audio])]).frames).toBe(20);
	});

	test('data that is not MP3 is refused', () => {
		for (const bytes of [
			fixture('sample.png'),
			fixture('sample.wav'),
			Buffer.alloc(0),
			Buffer.from([0xff, 0xfb, 0x90]),
		]) {
			expect(thrown(() => parseMp3(bytes))).toMatchObject({
				reason: 'notMp3',
				message: expect.stringContaining('not an MP3'),
			});
		}
	});
});

describe('joinMp3', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ clock: 'manual' });
	});
	afterAll(() => emu.stop());

	test("a 10,000-character script's four TTS parts join into one MP3 that parses end to end, with one Info frame and the summed length", async () => {
		const parts = splitScript(englishScript(10_000, 11), 3000);
		expect(parts).toHaveLength(4);
		const answers: Answer[] = [];
		for (const part of parts) {
			const r = await api(emu, 'POST', '/api/v1/tts', {
				body: { text: part.text, voice_id: 'Echo' },
			});
			expect(r.status).toBe(200);
			answers.push(r);
		}
		// The request log shows which text each call carried.
		expect(emu.requests({ path: '/api/v1/tts' }).map((e) => e.text)).toEqual(
			parts.map((p) => p.text),
		);

		const mp3s = answers.map((r) => r.raw);
		const streams = mp3s.map((b) => parseMp3(b));
		streams.forEach((s, i) => {
			expect(s.tags.map((t) => t.kind)).toEqual(['id3v2']);
			expect(s.vbrHeaders).toEqual([
				expect.objectContaining({
					kind: 'Info',
					frames: s.frames.length,
					bytes: mp3s[i].length - s.tags[0].length,
				}),
			]);
			expectFramesBackToBack(s, s.tags[0].length, mp3s[i].length);
			expect(s.durationSec).toBeCloseTo(Number(answers[i].headers['x-audio-duration-sec']), 3);
		});

		const joined = joinMp3(mp3s);
		const s = parseMp3(joined.mp3);
		expect(s.tags).toEqual([]);
		expect(s.vbrHeaders).toHaveLength(1);
		expect(s.vbrHeaders[0]).toMatchObject({
			kind: 'Info',
			offset: 0,
			frames: s.frames.length,
			bytes: joined.mp3.length,
		});
		expectFramesBackToBack(s, 0, joined.mp3.length);
		expect(occurrences(joined.mp3, 'Info') + occurrences(joined.mp3, 'Xing')).toBe(1);
		expect(occurrences(joined.mp3, 'VisionStory emulator')).toBe(0);

		const reported = answers.reduce((sum, r) => sum + Number(r.headers['x-audio-duration-sec']), 0);
		expect(Math.abs(s.durationSec - reported)).toBeLessThan(frameSeconds(s));
		expect(s.frames.length).toBe(streams.reduce((n, p) => n + p.frames.length, 0));
		expect(joined).toMatchObject({
			frames: s.frames.length,
			durationSec: s.durationSec,
			sampleRate: s.sampleRate,
		});
		expect(joined.partDurationsSec).toEqual(streams.map((p) => p.durationSec));
		// Audio bytes are the parts' frames, in order and unchanged.
		expect(
			joined.mp3
				.subarray(s.frames[0].offset)
				.equals(
					Buffer.concat(
						streams.flatMap((p, i) =>
							p.frames.map((f) => mp3s[i].subarray(f.offset, f.offset + f.frameBytes)),
						),
					),
				),
		).toBe(true);

		// A real decoder agrees: every frame decodes, and with gapless on it trims the first part's
		// delay and the last part's padding, which it can only know from the new header.
		const decoded = decodeMp3(joined.mp3);
		expect(decoded.raw.errors).toEqual([]);
		expect(decoded.raw.samplesDecoded).toBe(s.samples);
		const delay = streams[0].vbrHeaders[0].encoderDelay!;
		const padding = streams.at(-1)!.vbrHeaders[0].encoderPadding!;
		expect(s.vbrHeaders[0]).toMatchObject({ encoderDelay: delay, encoderPadding: padding });
		expect(decoded.gapless.samplesDecoded).toBe(s.samples - delay - padding);
		// And so does the emulator's reader, from the Info frame's count.
		expect(probe(joined.mp3)!.durationSec).toBeCloseTo(s.durationSec, 3);
	});

	test('parts with varying bitrates get a Xing header with a rising seek table; tagged and damaged parts join clean', () => {
		const vbr = [
			tagged(sample, { id3v2Version: 3, id3v1: true }),
			Buffer.concat([
				silentFrames(40, { version: '2', sampleRate: 22050, kbps: 64, mono: true }),
				apeTag({ Title: 'x' }),
			]),
			Buffer.concat([
				Buffer.from('junk before the first frame'),
				silentFrames(25, { version: '2', sampleRate: 22050, kbps: 32, mono: true }),
			]),
			Buffer.concat([id3v24WithFooter('end'), sample.subarray(parseMp3(sample).frames[0].offset)]),
		];
		const joined = joinMp3(vbr);
		const s = parseMp3(joined.mp3);
		expect(s.tags).toEqual([]);
		expect(s.vbrHeaders).toEqual([
			expect.objectContaining({
				kind: 'Xing',
				offset: 0,
				frames: s.frames.length,
				bytes: joined.mp3.length,
			}),
		]);
		expectFramesBackToBack(s, 0, joined.mp3.length);
		expect(new Set(s.frames.map((f) => f.bitrateKbps)).size).toBe(3);
		expect(s.frames.length).toBe(vbr.map((p) => parseMp3(p).frames.length).reduce((a, b) => a + b));

		// The seek table: 100 entries after the Xing fields, rising, each pointing at a frame start.
		const xingAt = 4 + 9;
		const toc = joined.mp3.subarray(xingAt + 16, xingAt + 116);
		const starts = s.frames.map((f) => f.offset);
		for (let i = 0; i < 100; i++) {
			if (i > 0) expect(toc[i]).toBeGreaterThanOrEqual(toc[i - 1]);
			const frame = starts[Math.floor((i * s.frames.length) / 100)];
			expect(toc[i]).toBe(Math.floor((frame * 256) / joined.mp3.length));
		}
		const decoded = decodeMp3(joined.mp3);
		expect(decoded.raw.errors).toEqual([]);
		expect(decoded.raw.samplesDecoded).toBe(s.samples);
	});

	test.each([
		['MPEG 1 stereo', { version: '1', sampleRate: 44100, kbps: 128, mono: false }, 1152],
		['MPEG 1 mono', { version: '1', sampleRate: 48000, kbps: 32, mono: true }, 1152],
		['MPEG 2.5 mono', { version: '2.5', sampleRate: 8000, kbps: 8, mono: true }, 576],
	] as const)(
		'%s parts join with an Info frame large enough for its header, and decode',
		(_name, format, samplesPerFrame) => {
			const parts = [silentFrames(30, format), silentFrames(12, format), silentFrames(7, format)];
			const joined = joinMp3(parts);
			const s = parseMp3(joined.mp3);
			expect(s.vbrHeaders).toEqual([
				expect.objectContaining({ kind: 'Info', frames: 49, bytes: joined.mp3.length }),
			]);
			expect(s.vbrHeaders[0].encoder).toBeUndefined();
			expectFramesBackToBack(s, 0, joined.mp3.length);
			expect(s.samplesPerFrame).toBe(samplesPerFrame);
			expect(joined.durationSec).toBeCloseTo((49 * samplesPerFrame) / format.sampleRate, 9);
			const decoded = decodeMp3(joined.mp3);
			expect(decoded.raw.errors).toEqual([]);
			expect(decoded.raw.samplesDecoded).toBe(49 * samplesPerFrame);
		},
	);

	test('parts of another sample rate, MPEG version or channel count are refused, naming the part', () => {
		const other: Array<[Buffer, RegExp]> = [
			[
				silentFrames(5, { version: '2', sampleRate: 24000, kbps: 48, mono: true }),
				/Part 3 is MPEG 2, 24000 Hz, mono but part 1 is MPEG 2, 22050 Hz, mono/,
			],
			[
				silentFrames(5, { version: '1', sampleRate: 44100, kbps: 64, mono: true }),
				/Part 3 is MPEG 1, 44100 Hz/,
			],
			[
				silentFrames(5, { version: '2', sampleRate: 22050, kbps: 48, mono: false }),
				/Part 3 is MPEG 2, 22050 Hz, stereo/,
			],
		];
		for (const [odd, says] of other) {
			const error = thrown(() => joinMp3([sample, sample, odd, sample]));
			expect(error).toMatchObject({ reason: 'mismatch', part: 2 });
			expect(error.message).toMatch(says);
		}
		expect(thrown(() => joinMp3([]))).toMatchObject({ reason: 'noParts' });
		expect(thrown(() => joinMp3([sample, fixture('sample.png')]))).toMatchObject({
			reason: 'notMp3',
			part: 1,
			message: expect.stringContaining('Part 2 of 2 is not an MP3'),
		});
		const onlyHeader = sample.subarray(0, parseMp3(sample).frames[0].offset);
		expect(thrown(() => joinMp3([onlyHeader]))).toMatchObject({
			reason: 'notMp3',
			part: 0,
			message: 'The audio has no audio frames',
		});
	});

	test('one part joins to itself without its tags, same frames and length', () => {
		const joined = joinMp3([tagged(sample, { id3v2Version: 3, id3v1: true })]);
		const s = parseMp3(joined.mp3);
		expect(s.tags).toEqual([]);
		expect(s.frames.length).toBe(parseMp3(sample).frames.length);
		expect(joined.durationSec).toBe(mp3DurationSec(sample));
	});
});
