import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { ByteStream, Download, FileSource, MediaSource, ResultKind } from './api';
import { USUAL_TYPE, acceptedMimeType, resultFileName, resultFileType, sniffMimeType } from './api';
import type { Context } from './context';

export { sniffMimeType };

export const MEDIA_SOURCES = [
	['binary', 'File in the message (Buffer)'],
	['url', 'URL'],
	['asset', 'Asset ID'],
] as const;

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

/** Bytes enough to tell a file's type from its start. */
const HEAD_BYTES = 16;

/**
 * The first bytes of a stream, and the whole stream again: read only as far as needed, nothing is
 * buffered beyond the chunks already read.
 */
async function peek(stream: ByteStream): Promise<{ head: Buffer; stream: Readable }> {
	const chunks: Buffer[] = [];
	const reading = stream[Symbol.asyncIterator]();
	let size = 0;
	while (size < HEAD_BYTES) {
		const next = await reading.next();
		if (next.done) break;
		const chunk = Buffer.from(next.value as Uint8Array);
		chunks.push(chunk);
		size += chunk.length;
	}
	async function* whole() {
		yield* chunks;
		for (let next = await reading.next(); !next.done; next = await reading.next())
			yield Buffer.from(next.value as Uint8Array);
	}
	return { head: Buffer.concat(chunks).subarray(0, HEAD_BYTES), stream: Readable.from(whole()) };
}

/**
 * A result file: streamed to a file when Output File is set (`{id}`, `{index}` and `{ext}` filled in
 * by the core's `outputPath`: the id made safe, results of a batch under a path naming neither id nor
 * index numbered, and a path this node already wrote a result to since it started numbered on, so no
 * two results share a file), else read into a Buffer. `{ext}` and msg.mimetype come from the file's
 * type, its name, its first bytes or its kind (`resultFileType`). Returns the path or the Buffer, and
 * tells the node its msg.filename and msg.mimetype (an incoming msg.filename names the file that came
 * in, so it is not taken as the path).
 */
export async function deliver(
	context: Context,
	download: Download,
	id: string,
	index: number,
	count = 1,
	kind: ResultKind = 'video',
): Promise<Buffer | string> {
	const template = context.text('outputFile');
	const usual = USUAL_TYPE[kind];
	const named = { mimeType: download.mimeType, fileName: download.fileName };
	if (template) {
		const { head, stream } = await peek(download.stream);
		const { ext, mimeType } = resultFileType({ ...named, head }, usual);
		const path = context.host.written.claim(template, { id, index, ext, count });
		await mkdir(dirname(path), { recursive: true });
		await pipeline(stream, createWriteStream(path), { signal: context.signal });
		context.host.file(index, { filename: path, mimetype: mimeType });
		return path;
	}
	const chunks: Buffer[] = [];
	for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Uint8Array));
	const bytes = Buffer.concat(chunks);
	const file = { ...named, head: bytes.subarray(0, HEAD_BYTES) };
	context.host.file(index, {
		filename: resultFileName(file, id, usual),
		mimetype: resultFileType(file, usual).mimeType,
	});
	return bytes;
}
