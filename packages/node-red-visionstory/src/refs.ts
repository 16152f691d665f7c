import { acceptedMimeType } from './api';
import type { Context } from './context';
import { sniffMimeType } from './media';

/** A list of media references (msg.refs or the JSON property): {url}, {assetId} or Buffers. */
export function refsOf(context: Context, accepted: readonly string[], name = 'refs') {
	const value = context.json(name);
	if (value === undefined || value === null || value === '') return undefined;
	if (!Array.isArray(value))
		return context.fail(name, 'must be an array of {url}, {assetId} or Buffers');
	return value.map((ref: unknown, index) => {
		if (Buffer.isBuffer(ref)) {
			const mime = acceptedMimeType(sniffMimeType(ref) ?? '', accepted);
			if (!mime)
				return context.fail(
					name,
					`entry ${index + 1} is a file of a type not accepted here (allowed: ${accepted.join(', ')})`,
				);
			return { inline_data: { data: ref.toString('base64'), mime_type: mime } };
		}
		if (typeof ref === 'string') return ref.startsWith('asset_') ? { asset_id: ref } : { url: ref };
		const r = (ref ?? {}) as Record<string, unknown>;
		if (typeof r.url === 'string') return { url: r.url };
		const asset = r.assetId ?? r.asset_id;
		if (typeof asset === 'string') return { asset_id: asset };
		return context.fail(
			name,
			`entry ${index + 1} must have url or assetId (got ${JSON.stringify(ref)})`,
		);
	});
}
