/**
 * A media input mapped onto request fields, for every host: however a host reads it (n8n's binary
 * fields, a Node-RED message's Buffer), it becomes a URL, an asset of the library, or a file's bytes.
 */
import type { InlineData, MediaRef } from './contract';

/** A media input as a host read it; `data` is base64, or a placeholder the body fills when it is sent. */
export type MediaSource =
	| { source: 'url'; url: string }
	| { source: 'asset'; assetId: string }
	| { source: 'inline'; data: string; mimeType: string };

/** A media input an endpoint takes only as a URL or bytes (upload, avatar, voice clone, a talking video's audio). */
export type FileSource = Exclude<MediaSource, { source: 'asset' }>;

/** The MediaRef most endpoints take. */
export function toMediaRef(input: MediaSource): MediaRef {
	switch (input.source) {
		case 'url':
			return { url: input.url };
		case 'asset':
			return { asset_id: input.assetId };
		case 'inline':
			return { inline_data: { data: input.data, mime_type: input.mimeType } };
	}
}

/** A file's fields where the endpoint names its URL field itself (`img_url`, `audio_url`, `url`). */
export function fileFields<K extends string>(
	input: FileSource,
	urlField: K,
): Partial<Record<K, string>> & { inline_data?: InlineData } {
	const fields: Record<string, unknown> =
		input.source === 'url'
			? { [urlField]: input.url }
			: { inline_data: { data: input.data, mime_type: input.mimeType } };
	return fields as Partial<Record<K, string>> & { inline_data?: InlineData };
}
