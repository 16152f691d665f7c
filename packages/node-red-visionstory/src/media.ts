import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { Download, FileSource, MediaSource } from './api';
import { acceptedMimeType, extensionFor, outputPath } from './api';
import type { Context } from './context';

export const MEDIA_SOURCES = [
	['binary', 'File in the message (Buffer)'],
	['url', 'URL'],
	['asset', 'Asset ID'],
] as const;

/** File types told from their first bytes, for Buffers that arrive without a name. */
const SIGNATURES: Array<[string, (b: Buffer) => boolean]> = [
	[
		'image/png',
		(b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	],
	['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
	['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
	[
		'image/webp',
		(b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'WEBP',
	],
	[
		'audio/wav',
		(b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'WAVE',
	],
	[
		'audio/avi',
		(b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'AVI ',
	],
	['image/bmp', (b) => b.subarray(0, 2).toString('latin1') === 'BM'],
	[
		'audio/mpeg',
		(b) =>
			b.subarray(0, 3).toString('latin1') === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0),
	],
	['video/quicktime', (b) => b.subarray(4, 12).toString('latin1') === 'ftypqt  '],
	['video/mp4', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp'],
];

export function sniffMimeType(buffer: Buffer): string | undefined {
	return SIGNATURES.find(([, test]) => test(buffer))?.[0];
}

/** A property of the message by dotted path (`payload`, `files.0`). */
function property(msg: Record<string, unknown>, path: string): unknown {
	let current: unknown = msg;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[part];
	}
	return current;
}

/**
 * The media input `name` (audio, image, sample, file…): `<name>Source` picks a Buffer in the message
 * (`<name>BinaryProperty`, default payload), a URL (`<name>Url`) or an asset (`<name>AssetId`); a
 * msg.<name>Url or msg.<name>AssetId given with the message wins over the editor's choice.
 */
export function mediaInput(
	context: Context,
	name: string,
	accepted: readonly string[],
): MediaSource {
	const msgUrl = context.msg[`${name}Url`];
	const msgAsset = context.msg[`${name}AssetId`];
	const source =
		typeof msgUrl === 'string' && msgUrl.trim()
			? 'url'
			: typeof msgAsset === 'string' && msgAsset.trim()
				? 'asset'
				: (context.text(`${name}Source`) ?? 'binary');
	if (source === 'url') return { source: 'url', url: context.required(`${name}Url`) };
	if (source === 'asset') return { source: 'asset', assetId: context.required(`${name}AssetId`) };
	if (source !== 'binary')
		context.fail(`${name}Source`, `must be one of binary, url, asset (got "${source}")`);
	const path = context.text(`${name}BinaryProperty`) ?? 'payload';
	const value = property(context.msg, path);
	if (!Buffer.isBuffer(value)) {
		context.fail(
			`${name}BinaryProperty`,
			`msg.${path} must hold the file as a Buffer (got ${value === undefined ? 'nothing' : typeof value}); a File In node set to "a single Buffer object" gives one`,
		);
	}
	const buffer = value as Buffer;
	const given = typeof context.msg.mimetype === 'string' ? context.msg.mimetype : undefined;
	const sniffed = sniffMimeType(buffer) ?? given;
	if (!sniffed)
		context.fail(
			`${name}BinaryProperty`,
			`the type of the file in msg.${path} could not be told from its bytes; set msg.mimetype (allowed: ${accepted.join(', ')})`,
		);
	const mimeType = acceptedMimeType(sniffed!, accepted);
	if (!mimeType)
		context.fail(
			`${name}BinaryProperty`,
			`the file in msg.${path} is ${sniffed}; allowed here: ${accepted.join(', ')}`,
		);
	return { source: 'inline', data: buffer.toString('base64'), mimeType: mimeType! };
}

/** A media input of an endpoint that takes no asset: a Buffer or a URL, an asset refused by name. */
export function fileInput(context: Context, name: string, accepted: readonly string[]): FileSource {
	const input = mediaInput(context, name, accepted);
	if (input.source === 'asset')
		context.fail(`${name}Source`, 'must be a Buffer or a URL here (the endpoint takes no asset)');
	return input as FileSource;
}

/**
 * A result file: streamed to a file when Output File is set (`{id}`, `{index}` and `{ext}` are filled
 * in, and results of a batch under a path naming neither id nor index are numbered: `outputPath` in the
 * core), else read into a Buffer. Returns the path or the Buffer, and tells the node its msg.filename
 * and msg.mimetype (an incoming msg.filename names the file that came in, so it is not taken as the path).
 */
export async function deliver(
	context: Context,
	download: Download,
	id: string,
	index: number,
	count = 1,
): Promise<Buffer | string> {
	const template = context.text('outputFile');
	const ext = extensionFor(download.mimeType) ?? download.fileName?.split('.').pop() ?? 'bin';
	const mimetype = download.mimeType ?? 'application/octet-stream';
	if (template) {
		const path = outputPath(template, { id, index, ext, count });
		await mkdir(dirname(path), { recursive: true });
		await pipeline(download.stream, createWriteStream(path), { signal: context.signal });
		context.host.file(index, { filename: path, mimetype });
		return path;
	}
	const chunks: Buffer[] = [];
	for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Uint8Array));
	context.host.file(index, { filename: download.fileName ?? `${id}.${ext}`, mimetype });
	return Buffer.concat(chunks);
}
