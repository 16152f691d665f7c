import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { InlineRules, MediaRef } from '../api/contract';
import { base64DecodedBytes, formatBytes, maxBytesFor } from '../api/contract';
import type { FieldIssue } from '../api/errors';
import type { ByteStream, Download } from '../api/http';
import type { MediaPart } from '../api/mediaBody';
import { toMediaRef } from '../api/mediaRefs';
import { mimeTypeForExtension } from '../api/mediaTypes';
import { resultFileName, resultFileType } from '../api/outputFiles';

/** A media input as the user gave it, with the parameter it came from; binary bytes are read only when the request is sent. */
export type MediaInput =
	| { source: 'url'; url: string; parameter: string }
	| { source: 'asset'; assetId: string; parameter: string }
	| {
			source: 'binary';
			parameter: string;
			property: string;
			mimeType: string;
			size: number;
			fileName?: string;
			binary: IBinaryData;
	  };

/**
 * Stands in for base64 while requests are validated, before any file is read. It is itself valid
 * base64 and numbers the input, so each placeholder is filled with its own file whatever the field.
 */
export function placeholderFor(position: number): string {
	return `vsmedia${String(position).padStart(5, '0')}`;
}

/** n8n often labels files application/octet-stream; the file name then tells what they are. */
export function effectiveMimeType(binary: IBinaryData): string {
	const mime = (binary.mimeType || '').toLowerCase().split(';')[0].trim();
	if (mime && mime !== 'application/octet-stream') return mime;
	const extension = (binary.fileExtension || binary.fileName?.split('.').pop() || '').toLowerCase();
	return mimeTypeForExtension(extension) ?? (mime || 'application/octet-stream');
}

/** Reads the file's size without loading it: metadata in filesystem mode, base64 length in memory mode. */
export async function binarySize(context: IExecuteFunctions, binary: IBinaryData): Promise<number> {
	if (binary.id) {
		const metadata = await context.helpers.getBinaryMetadata(binary.id);
		if (typeof metadata.fileSize === 'number') return metadata.fileSize;
	}
	return base64DecodedBytes(binary.data);
}

/** A binary property of an item as a media input; the error names the field when it is missing. */
export async function binaryMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	property: string,
): Promise<MediaInput | FieldIssue> {
	const item = context.getInputData()[itemIndex];
	const binary = item?.binary?.[property];
	if (!binary) {
		const available = Object.keys(item?.binary ?? {});
		return {
			field: parameter,
			message: `has no binary field "${property}" on this item${
				available.length
					? `; available: ${available.join(', ')}`
					: '; the input item carries no files'
			}`,
		};
	}
	return {
		source: 'binary',
		parameter,
		property,
		binary,
		mimeType: effectiveMimeType(binary),
		size: await binarySize(context, binary),
		fileName: binary.fileName,
	};
}

/** Checks a binary input's type and size against an endpoint's rules, before anything is read. */
export function checkInline(input: MediaInput, rules: InlineRules): FieldIssue | undefined {
	if (input.source !== 'binary') return undefined;
	if (!rules.mimeTypes.includes(input.mimeType)) {
		return {
			field: input.parameter,
			message: `holds a file of type "${input.mimeType}"${input.fileName ? ` (${input.fileName})` : ''}; allowed: ${rules.mimeTypes.join(', ')}`,
		};
	}
	const max = maxBytesFor(rules, input.mimeType);
	if (max !== undefined && input.size > max) {
		return {
			field: input.parameter,
			message: `holds ${formatBytes(input.size)}; the limit is ${formatBytes(max)}`,
		};
	}
	return undefined;
}

/** The MediaRef for an input; binary data stays a placeholder (for input `position`) until it is sent. */
export function mediaRefOf(input: MediaInput, position: number): MediaRef {
	return toMediaRef(
		input.source === 'binary'
			? { source: 'inline', data: placeholderFor(position), mimeType: input.mimeType }
			: input,
	);
}

/**
 * The files behind an item's placeholders. Files n8n keeps on disk (or in S3) are streamed when the
 * request is sent; files it keeps in memory are already base64.
 */
export function mediaParts(
	context: IExecuteFunctions,
	inputs: readonly MediaInput[],
): Record<string, MediaPart> {
	const parts: Record<string, MediaPart> = {};
	inputs.forEach((input, position) => {
		if (input.source !== 'binary') return;
		const { binary } = input;
		const id = binary.id;
		parts[placeholderFor(position)] = id
			? {
					identity: `${id}:${input.size}`,
					size: input.size,
					open: async () => (await context.helpers.getBinaryStream(id)) as unknown as ByteStream,
				}
			: {
					identity: `${input.size}:${binary.data.slice(0, 64)}:${binary.data.slice(-64)}`,
					base64: binary.data,
				};
	});
	return parts;
}

type BinaryStreamInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/**
 * Streams a download into n8n's binary store (to disk in filesystem mode; never a whole-file buffer
 * here), named as both hosts name result files (`api/outputFiles.ts`): the name it came with when its
 * extension is known, else `fallbackName` (made safe) with the extension its type gives, the kind's
 * usual one (`fallbackMime`) when the answer's type says nothing.
 */
export async function binaryFromDownload(
	context: IExecuteFunctions,
	download: Download,
	fallbackName: string,
	fallbackMime: string,
): Promise<IBinaryData> {
	const { mimeType } = resultFileType(download, fallbackMime);
	return await context.helpers.prepareBinaryData(
		download.stream as unknown as BinaryStreamInput,
		resultFileName(download, fallbackName, fallbackMime),
		mimeType,
	);
}

export function withBinary(
	item: INodeExecutionData,
	property: string,
	binary: IBinaryData,
): INodeExecutionData {
	return { ...item, binary: { ...(item.binary ?? {}), [property]: binary } };
}

/** The first `bytes` of a binary input, for reading its headers; only that much is read. */
export async function binaryHead(
	context: IExecuteFunctions,
	binary: IBinaryData,
	bytes: number,
): Promise<Buffer> {
	if (!binary.id) return Buffer.from(binary.data.slice(0, Math.ceil(bytes / 3) * 4), 'base64');
	const stream = (await context.helpers.getBinaryStream(binary.id)) as unknown as ByteStream & {
		destroy?: () => void;
	};
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream) {
			chunks.push(Buffer.from(chunk));
			size += chunk.length;
			if (size >= bytes) break;
		}
	} finally {
		stream.destroy?.();
	}
	return Buffer.concat(chunks).subarray(0, bytes);
}
