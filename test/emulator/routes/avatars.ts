import { ApiError, forbidden, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { CAPS, inlineData, mediaUrl, MIME, type MediaPolicy } from '../mediaRef';
import { TALKING_ASPECT_RATIOS } from '../models';
import { newestFirst, paginate } from '../pagination';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { avatarImageUrl, type AvatarDto } from '../seed';
import { AVATAR_MAX_ZOOM, type Account, type EmulatorState, type OwnAvatar } from '../state';
import { Validator } from '../validation';
import { deleted, pageParams, queryId } from './common';

const PORTRAIT_POLICY: MediaPolicy = {
	mimes: MIME.talkingImage,
	kinds: ['image'],
	maxBytes: () => CAPS.avatarImage,
};

export function findAvatar(
	state: EmulatorState,
	account: Account,
	avatarId: string,
): AvatarDto | undefined {
	return (
		account.avatars.get(avatarId)?.dto ?? state.publicAvatars.find((a) => a.avatar_id === avatarId)
	);
}

function isPublic(state: EmulatorState, avatarId: string): boolean {
	return state.publicAvatars.some((a) => a.avatar_id === avatarId);
}

function framingImage(
	state: EmulatorState,
	avatarId: string,
	ratio: string,
	version: number,
): string {
	return avatarImageUrl(
		state.mediaBaseUrl,
		`avatar-${avatarId}-${ratio.replace(':', 'x')}-v${version}`,
	);
}

async function create(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const source = v.exactlyOne(body, ['img_url', 'inline_data'], 'img_url');
	if (source === 'img_url') await mediaUrl(v, body.img_url, 'img_url', PORTRAIT_POLICY);
	if (source === 'inline_data') inlineData(v, body.inline_data, 'inline_data', PORTRAIT_POLICY);
	v.throwIfAny();
	const avatar_id = newId('avt');
	const avatar: OwnAvatar = {
		seq: ctx.state.nextSeq(),
		maxZoom: AVATAR_MAX_ZOOM,
		dto: {
			avatar_id,
			thumbnail_url: avatarImageUrl(ctx.state.mediaBaseUrl, `avatar-${avatar_id}`),
			aspect_ratios: [...TALKING_ASPECT_RATIOS],
			created_at: Math.floor(ctx.now / 1000),
			default_voice_id: '',
			// Automatic framing: the widest area of each ratio, centred.
			framing: TALKING_ASPECT_RATIOS.map((aspect_ratio) => ({
				aspect_ratio,
				zoom: 1,
				offset_x: 0,
				offset_y: 0,
				image_url: framingImage(ctx.state, avatar_id, aspect_ratio, 0),
			})),
		},
	};
	ctx.account.avatars.set(avatar_id, avatar);
	return ok(structuredClone(avatar.dto));
}

function list(ctx: RouteContext) {
	const v = new Validator();
	const isPublicList = v.queryBool(ctx.query, 'is_public', false);
	const { cursor, limit } = pageParams(v, ctx.query, 100);
	v.throwIfAny();
	if (isPublicList) {
		const all = ctx.state.publicAvatars;
		// The library is static; its markers count down so it reads newest first like every other list.
		const page = paginate(all, (a) => all.length - all.indexOf(a), cursor, limit);
		return ok({ avatars: structuredClone(page.items), next_cursor: page.next_cursor });
	}
	const own = newestFirst(ctx.account.avatars.values(), (a) => a.seq);
	const page = paginate(own, (a) => a.seq, cursor, limit);
	return ok({
		avatars: page.items.map((a) => structuredClone(a.dto)),
		next_cursor: page.next_cursor,
	});
}

function frame(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const avatarId = v.string(body, 'avatar_id', 'avatar_id', { required: true });
	const ratio = v.string(body, 'aspect_ratio', 'aspect_ratio', {
		required: true,
		oneOf: TALKING_ASPECT_RATIOS,
	});
	const zoom = v.number(body, 'zoom', 'zoom', { required: true, min: 1 });
	const offset_x = v.number(body, 'offset_x', 'offset_x', { required: true, min: -1, max: 1 });
	const offset_y = v.number(body, 'offset_y', 'offset_y', { required: true, min: -1, max: 1 });
	v.throwIfAny();
	const id = avatarId as string;
	if (isPublic(ctx.state, id))
		throw forbidden(
			'Public avatars cannot be reframed',
			'Create your own avatar with POST /api/v1/avatar to control its framing',
		);
	const avatar = ctx.account.avatars.get(id);
	if (!avatar) throw notFound('Avatar', id);
	const entry = avatar.dto.framing.find((f) => f.aspect_ratio === ratio);
	if (!entry) throw notFound('Framing', `${id} ${ratio}`);
	if (entry.zoom === null) {
		throw invalid(
			{ aspect_ratio: 'framing is unavailable for this avatar' },
			`Framing for ${ratio} is unavailable: this avatar was created before framing existed`,
			'Re-create the avatar from its portrait with POST /api/v1/avatar to get adjustable framing',
		);
	}
	if ((zoom as number) > avatar.maxZoom) {
		throw new ApiError(
			422,
			422,
			`zoom ${zoom} is above this avatar's maximum zoom of ${avatar.maxZoom}`,
			{
				details: JSON.stringify({ zoom: `must be at most ${avatar.maxZoom}` }),
				hint: `Use a zoom between 1 and ${avatar.maxZoom}`,
			},
		);
	}
	const version = (Number(/-v(\d+)\.png$/.exec(entry.image_url ?? '')?.[1] ?? 0) || 0) + 1;
	Object.assign(entry, {
		zoom,
		offset_x,
		offset_y,
		image_url: framingImage(ctx.state, id, entry.aspect_ratio, version),
	});
	return ok({
		aspect_ratio: entry.aspect_ratio,
		avatar_id: id,
		image_url: entry.image_url,
		zoom,
		offset_x,
		offset_y,
	});
}

function remove(ctx: RouteContext) {
	const id = queryId(ctx.query, 'avatar_id');
	if (isPublic(ctx.state, id)) throw forbidden('Public avatars cannot be deleted');
	ctx.account.avatars.delete(id);
	return deleted();
}

export const avatarRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/avatar', handler: create },
	{ method: 'GET', path: '/api/v1/avatars', handler: list },
	{ method: 'POST', path: '/api/v1/avatar/framing', handler: frame },
	{ method: 'DELETE', path: '/api/v1/avatar', handler: remove },
];
