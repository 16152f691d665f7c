import MP3Tag from 'mp3tag.js';

/**
 * MP3 inputs the sample file does not cover. Tags come from mp3tag.js where it writes them; the APEv2
 * tag and the ID3v2.4 footer, which no well-kept writer produces, are built here from their specs.
 */

export interface SilentFormat {
	version: '1' | '2' | '2.5';
	sampleRate: number;
	kbps: number;
	mono: boolean;
	crc?: boolean;
}

const VERSION_BITS = { '1': 3, '2': 2, '2.5': 0 } as const;
const RATES = {
	'1': [44100, 48000, 32000],
	'2': [22050, 24000, 16000],
	'2.5': [11025, 12000, 8000],
} as const;
const KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/**
 * Layer III frames that decode to silence: side information and main data all zero, which every
 * decoder reads as empty granules. With `crc`, the (zero) CRC word follows the header.
 */
export function silentFrames(count: number, f: SilentFormat): Buffer {
	const kbps = (f.version === '1' ? KBPS_V1 : KBPS_V2).indexOf(f.kbps);
	const rate = (RATES[f.version] as readonly number[]).indexOf(f.sampleRate);
	if (kbps < 1 || rate < 0) throw new Error(`no such format ${JSON.stringify(f)}`);
	const length = Math.floor(((f.version === '1' ? 144 : 72) * f.kbps * 1000) / f.sampleRate);
	const frame = Buffer.alloc(length);
	frame[0] = 0xff;
	frame[1] = 0xe0 | (VERSION_BITS[f.version] << 3) | (1 << 1) | (f.crc ? 0 : 1);
	frame[2] = (kbps << 4) | (rate << 2);
	frame[3] = (f.mono ? 3 : 1) << 6;
	return Buffer.concat(Array.from({ length: count }, () => frame));
}

/** `mp3` re-tagged by mp3tag.js: an ID3v2 tag of that version (with padding) and, if asked, ID3v1. */
export function tagged(
	mp3: Buffer,
	options: { id3v2Version: 3 | 4; id3v1: boolean; unsynch?: boolean },
): Buffer {
	const tag = new MP3Tag(
		mp3.buffer.slice(mp3.byteOffset, mp3.byteOffset + mp3.length) as ArrayBuffer,
		false,
	);
	tag.read();
	tag.tags.v2 = { TIT2: 'Voice-over part', TPE1: 'Narrator' };
	if (options.id3v1)
		tag.tags.v1 = {
			title: 'Voice-over part',
			artist: 'Narrator',
			album: '',
			year: '2024',
			comment: '',
			track: '',
			genre: 'Speech',
		};
	tag.save({
		strict: false,
		id3v1: { include: options.id3v1 },
		id3v2: {
			include: true,
			version: options.id3v2Version,
			padding: 64,
			unsynch: options.unsynch ?? false,
		},
	});
	if (tag.error) throw new Error(tag.error);
	return Buffer.from(tag.buffer as ArrayBuffer);
}

function syncsafe(n: number): Buffer {
	return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

/** An ID3v2.4 tag with the footer flag set and its "3DI" footer. */
export function id3v24WithFooter(title: string): Buffer {
	const text = Buffer.concat([Buffer.from([3]), Buffer.from(title, 'utf8')]);
	const frame = Buffer.concat([
		Buffer.from('TIT2', 'latin1'),
		syncsafe(text.length),
		Buffer.from([0, 0]),
		text,
	]);
	const head = (magic: string) =>
		Buffer.concat([
			Buffer.from(magic, 'latin1'),
			Buffer.from([4, 0, 0x10]),
			syncsafe(frame.length),
		]);
	return Buffer.concat([head('ID3'), frame, head('3DI')]);
}

/** An APEv2 tag with header and footer, as foobar2000 and Mp3tag append them. */
export function apeTag(items: Record<string, string>): Buffer {
	const body = Buffer.concat(
		Object.entries(items).map(([key, value]) => {
			const v = Buffer.from(value, 'utf8');
			const head = Buffer.alloc(8);
			head.writeUInt32LE(v.length, 0);
			return Buffer.concat([head, Buffer.from(`${key}\0`, 'latin1'), v]);
		}),
	);
	const block = (isHeader: boolean) => {
		const b = Buffer.alloc(32);
		b.write('APETAGEX', 0, 'latin1');
		b.writeUInt32LE(2000, 8);
		b.writeUInt32LE(body.length + 32, 12);
		b.writeUInt32LE(Object.keys(items).length, 16);
		b.writeUInt32LE((0x80000000 | (isHeader ? 0x20000000 : 0)) >>> 0, 20);
		return b;
	};
	return Buffer.concat([block(true), body, block(false)]);
}
