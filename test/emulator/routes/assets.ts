import { createHash } from 'node:crypto';
import { CAPS, inlineData, mediaUrl, MIME, type MediaPolicy } from '../mediaRef';
import { probe, type MediaKind } from '../mediaProbe';
import { newestFirst, paginate } from '../pagination';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import type { AssetDto } from '../state';
import { Validator } from '../validation';
import { deleted, pageParams, queryId } from './common';

const KINDS: MediaKind[] = ['image', 'audio', 'video'];
const ASSET_POLICY: MediaPolicy = {
	mimes: MIME.general,
	kinds: KINDS,
	// Before the kind is known, the largest cap bounds how much of a URL is read.
	maxBytes: (kind) => (kind ? CAPS.asset[kind] : Math.max(...Object.values(CAPS.asset))),
};

async function upload(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const source = v.exactlyOne(body, ['url', 'inline_data'], 'url');
	const media =
		source === 'url'
			? await mediaUrl(v, body.url, 'url', ASSET_POLICY)
			: source === 'inline_data'
				? inlineData(v, body.inline_data, 'inline_data', ASSET_POLICY)
				: undefined;
	if (media && media.kind === undefined)
		v.fail(
			source as string,
			'cannot tell whether this is an image, audio or video; use a URL with a file extension or inline_data',
		);
	v.throwIfAny();
	if (!media) throw new Error('validated above');
	// The service deduplicates by content; a URL that was not fetched stands in for its content.
	const hash = createHash('sha256')
		.update(media.bytes ?? `url:${media.url}`)
		.digest('hex');
	const asset_id = `asset_${hash.slice(0, 24)}`;
	const existing = ctx.account.assets.get(asset_id);
	if (existing) return ok({ ...existing.dto });
	const probed = media.bytes ? probe(media.bytes, media.mime) : undefined;
	const dto: AssetDto = {
		asset_id,
		kind: probed?.kind ?? (media.kind as MediaKind),
		mime: probed?.mime ?? media.mime ?? '',
		width: probed?.width ?? 0,
		height: probed?.height ?? 0,
		duration_sec: probed?.durationSec ?? 0,
		created_at: Math.floor(ctx.now / 1000),
	};
	ctx.account.assets.set(asset_id, { dto, seq: ctx.state.nextSeq() });
	return ok({ ...dto });
}

function list(ctx: RouteContext) {
	const v = new Validator();
	const kind = v.queryString(ctx.query, 'kind');
	if (kind !== undefined && !KINDS.includes(kind as MediaKind))
		v.fail('kind', `must be one of ${KINDS.join(', ')}`);
	const { cursor, limit } = pageParams(v, ctx.query, 100);
	v.throwIfAny();
	const assets = newestFirst(ctx.account.assets.values(), (a) => a.seq).filter(
		(a) => !kind || a.dto.kind === kind,
	);
	const page = paginate(assets, (a) => a.seq, cursor, limit);
	return ok({ assets: page.items.map((a) => ({ ...a.dto })), next_cursor: page.next_cursor });
}

function remove(ctx: RouteContext) {
	ctx.account.assets.delete(queryId(ctx.query, 'asset_id'));
	return deleted();
}

export const assetRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/asset', handler: upload },
	{ method: 'GET', path: '/api/v1/assets', handler: list },
	{ method: 'DELETE', path: '/api/v1/asset', handler: remove },
];
