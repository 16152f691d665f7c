/** File types by extension: the one table for naming output files and reading input ones. */
const MIME_BY_EXTENSION: Record<string, string> = {
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	m4a: 'audio/m4a',
	aac: 'audio/aac',
	mp4: 'video/mp4',
	mov: 'video/quicktime',
	avi: 'video/avi',
	webm: 'video/webm',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
	gif: 'image/gif',
	bmp: 'image/bmp',
	tif: 'image/tiff',
	tiff: 'image/tiff',
	heic: 'image/heic',
	srt: 'application/x-subrip',
	vtt: 'text/vtt',
};

/** The extension a file of this type is saved with (the first one the table lists for it). */
const EXTENSION_BY_MIME: Record<string, string> = { 'audio/mp3': 'mp3' };
for (const [extension, mime] of Object.entries(MIME_BY_EXTENSION))
	EXTENSION_BY_MIME[mime] ??= extension;

export type MediaKind = 'image' | 'audio' | 'video';

export function mimeTypeForExtension(extension: string | undefined): string | undefined {
	return extension ? MIME_BY_EXTENSION[extension.toLowerCase()] : undefined;
}

export function extensionFor(mimeType: string | undefined): string | undefined {
	return mimeType ? EXTENSION_BY_MIME[mimeType.toLowerCase()] : undefined;
}

/** File types told from their first bytes, for files that arrive without a usable name or type. */
const SIGNATURES: Array<[string, (b: Uint8Array) => boolean]> = [
	['image/png', (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
	['image/jpeg', (b) => startsWith(b, [0xff, 0xd8, 0xff])],
	['image/gif', (b) => text(b, 0, 4) === 'GIF8'],
	['image/webp', (b) => text(b, 0, 4) === 'RIFF' && text(b, 8, 12) === 'WEBP'],
	['audio/wav', (b) => text(b, 0, 4) === 'RIFF' && text(b, 8, 12) === 'WAVE'],
	['audio/avi', (b) => text(b, 0, 4) === 'RIFF' && text(b, 8, 12) === 'AVI '],
	['image/bmp', (b) => text(b, 0, 2) === 'BM'],
	['audio/mpeg', (b) => text(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)],
	['video/quicktime', (b) => text(b, 4, 12) === 'ftypqt  '],
	['video/mp4', (b) => text(b, 4, 8) === 'ftyp'],
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
	return prefix.every((byte, i) => bytes[i] === byte);
}

function text(bytes: Uint8Array, from: number, to: number): string {
	return String.fromCharCode(...bytes.subarray(from, to));
}

/** A file's type from its first bytes (a dozen are enough); undefined when they say nothing known. */
export function sniffMimeType(head: Uint8Array): string | undefined {
	return SIGNATURES.find(([, test]) => test(head))?.[0];
}

/** image, audio or video, from a MIME type; undefined for anything else. */
export function mediaKindOf(mimeType: string | undefined): MediaKind | undefined {
	const prefix = mimeType?.split('/')[0];
	return prefix === 'image' || prefix === 'audio' || prefix === 'video' ? prefix : undefined;
}

/** The extension at the end of a URL's path, lower case. */
export function urlExtension(url: string): string | undefined {
	try {
		return /\.([a-z0-9]{2,4})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
	} catch {
		return undefined;
	}
}

/**
 * Names one file type goes by. n8n labels a file by where it came from (a form upload, an HTTP
 * download, Read Files), so a WAV may arrive as audio/wave, audio/vnd.wave or audio/x-wav. Each
 * group lists the names in the order they are preferred when an endpoint accepts several.
 */
const ALIAS_GROUPS: readonly (readonly string[])[] = [
	['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/x-pn-wav'],
	[
		'audio/mpeg',
		'audio/mp3',
		'audio/mpeg3',
		'audio/x-mpeg',
		'audio/x-mp3',
		'audio/x-mpeg-3',
		'audio/mpg',
	],
	// An MP4 or M4A recording: n8n labels an .mp4 video/mp4 even when it holds only sound.
	['audio/mp4', 'audio/m4a', 'audio/x-m4a', 'video/mp4'],
	['audio/avi', 'video/avi', 'video/x-msvideo', 'video/msvideo'],
	['image/jpeg', 'image/jpg', 'image/pjpeg'],
	['image/png', 'image/x-png'],
	['image/bmp', 'image/x-bmp', 'image/x-ms-bmp'],
	['image/tiff', 'image/tif'],
	['image/heic', 'image/heif'],
	['video/quicktime', 'video/mov'],
];

/**
 * The name an endpoint accepts for a file of type `mimeType`: the type itself when accepted, else
 * the first accepted alias of it; undefined when the endpoint takes no name of it.
 */
export function acceptedMimeType(
	mimeType: string,
	accepted: readonly string[],
): string | undefined {
	const mime = mimeType.toLowerCase();
	if (accepted.includes(mime)) return mime;
	const group = ALIAS_GROUPS.find((names) => names.includes(mime));
	return group?.find((name) => accepted.includes(name));
}
