import { notFound } from '../errors';
import { inlineData, mediaUrl, MIME, type MediaPolicy } from '../mediaRef';
import {
	DEFAULT_TALKING_MODEL,
	RETIRED_TALKING_MODELS,
	SPEECH_RATES,
	TALKING_ASPECT_RATIOS,
	TALKING_EMOTIONS,
	TALKING_MODELS,
} from '../models';
import { paginate } from '../pagination';
import { talkingVideoPrice } from '../pricing';
import { jsonBody, ok, routeNotFound, type Route, type RouteContext } from '../router';
import { tasksOf } from '../state';
import { deleteTask, submitTask } from '../submission';
import { statusAt, talkingVideoDto, type Task } from '../tasks';
import { CLIENT_REQUEST_ID, HEX_COLOR, Validator } from '../validation';
import { findVoice } from './voices';
import { findAvatar } from './avatars';
import { deleted, hasMarker, pageParams, queryId, statusFilter } from './common';

const REQUEST_RESOLUTIONS = ['480p', '720p', '1080p', '2k'];
const AUDIO_POLICY: MediaPolicy = { mimes: MIME.talkingAudio, kinds: ['audio', 'video'] };

async function create(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const avatarId = v.string(body, 'avatar_id', 'avatar_id', { required: true });
	const scriptKind = v.exactlyOne(body, ['text_script', 'audio_script'], 'text_script');
	let voiceId: string | undefined;
	let text: string | undefined;
	if (scriptKind === 'text_script') {
		const script = v.object(body, 'text_script', 'text_script', true);
		if (script) {
			text = v.string(script, 'text', 'text_script.text', { required: true });
			voiceId = v.string(script, 'voice_id', 'text_script.voice_id', { required: true });
			v.string(script, 'speech_rate', 'text_script.speech_rate', { oneOf: SPEECH_RATES });
		}
	} else if (scriptKind === 'audio_script') {
		const script = v.object(body, 'audio_script', 'audio_script', true);
		if (script) {
			const source = v.exactlyOne(script, ['audio_url', 'inline_data'], 'audio_script');
			if (source === 'audio_url')
				await mediaUrl(v, script.audio_url, 'audio_script.audio_url', AUDIO_POLICY);
			if (source === 'inline_data')
				inlineData(v, script.inline_data, 'audio_script.inline_data', AUDIO_POLICY);
			const voiceChange = v.boolean(script, 'voice_change', 'audio_script.voice_change');
			voiceId = v.string(script, 'voice_id', 'audio_script.voice_id', {
				required: voiceChange === true,
			});
			v.boolean(script, 'denoise', 'audio_script.denoise');
		}
	}
	const knownModels = [...TALKING_MODELS.map((m) => m.model_id), ...RETIRED_TALKING_MODELS];
	const requestedModel =
		v.string(body, 'model_id', 'model_id', { oneOf: knownModels }) ?? DEFAULT_TALKING_MODEL;
	const aspect_ratio =
		v.string(body, 'aspect_ratio', 'aspect_ratio', { oneOf: TALKING_ASPECT_RATIOS }) ?? '9:16';
	const requestedResolution =
		v.string(body, 'resolution', 'resolution', { oneOf: REQUEST_RESOLUTIONS }) ?? '720p';
	v.string(body, 'emotion', 'emotion', { oneOf: TALKING_EMOTIONS });
	if (body.background_color !== '') {
		v.string(body, 'background_color', 'background_color', {
			pattern: HEX_COLOR,
			patternMessage: 'must be a 6-digit hex colour like #1A2B3C',
		});
	}
	const client_request_id = v.string(body, 'client_request_id', 'client_request_id', {
		pattern: CLIENT_REQUEST_ID,
		patternMessage: 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
	});

	// Retired models and 480p are still accepted; they render (and bill) as vs_character_v4 at 720p.
	const retired = RETIRED_TALKING_MODELS.includes(requestedModel);
	const model_id = retired ? DEFAULT_TALKING_MODEL : requestedModel;
	const resolution = retired || requestedResolution === '480p' ? '720p' : requestedResolution;
	const model = TALKING_MODELS.find((m) => m.model_id === model_id);
	if (model && !v.has('resolution') && !model.resolutions.includes(resolution)) {
		v.fail('resolution', `${model_id} supports ${model.resolutions.join(', ')}`);
	}
	v.throwIfAny();

	if (!findAvatar(ctx.state, ctx.account, avatarId as string))
		throw notFound('Avatar', avatarId as string);
	if (voiceId !== undefined && !findVoice(ctx.state, ctx.account, voiceId))
		throw notFound('Voice', voiceId);

	const video_id = submitTask(ctx.state, ctx.account, {
		kind: 'talkingVideo',
		client_request_id,
		price: talkingVideoPrice(resolution),
		willFail: hasMarker(text, 'fail'),
		model_id,
		aspect_ratio,
		resolution,
		duration_sec: 0,
	});
	return ok({ video_id });
}

function get(ctx: RouteContext) {
	const id = queryId(ctx.query, 'video_id');
	const task = ctx.account.talkingVideos.get(id);
	if (!task) throw notFound('Video', id);
	return ok(talkingVideoDto(task, ctx.now, ctx.state.mediaLinkBase(), ctx.state.config));
}

function remove(ctx: RouteContext) {
	const id = queryId(ctx.query, 'video_id');
	const task = ctx.account.talkingVideos.get(id);
	if (task) deleteTask(ctx.state, ctx.account, task);
	return deleted();
}

function list(ctx: RouteContext) {
	const mode = ctx.state.config.talkingVideoList;
	if (mode === 'absent') throw routeNotFound('GET', '/api/v1/videos');
	const all = tasksOf(ctx.account, 'talkingVideo');
	if (mode === 'ignoresCursor') {
		const page = paginate(all, (t) => t.seq, 0, 20);
		const videos = page.items.map((t) =>
			talkingVideoDto(t, ctx.now, ctx.state.mediaLinkBase(), ctx.state.config),
		);
		return ok({ videos, next_cursor: page.next_cursor });
	}
	const v = new Validator();
	const { cursor, limit } = pageParams(v, ctx.query, 100);
	v.throwIfAny();
	// A list that knows no status cannot filter by one either.
	if (mode === 'idsOnly') return idsOnlyPage(all, cursor, limit);
	const statuses = statusFilter(ctx.query);
	const tasks = all.filter((t) => !statuses || statuses.has(statusAt(t, ctx.now)));
	const page = paginate(tasks, (t) => t.seq, cursor, limit);
	return ok({
		videos: page.items.map((t) =>
			talkingVideoDto(t, ctx.now, ctx.state.mediaLinkBase(), ctx.state.config),
		),
		next_cursor: page.next_cursor,
	});
}

/** `talkingVideoList: 'idsOnly'`: paged like the full list, each entry only `video_id` and `created_at`. */
function idsOnlyPage(all: Task[], cursor: number, limit: number) {
	const page = paginate(all, (t) => t.seq, cursor, limit);
	const videos = page.items.map((t) => ({ video_id: t.video_id, created_at: t.createdAt }));
	return ok({ videos, next_cursor: page.next_cursor });
}

export const talkingVideoRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/video', handler: create },
	{ method: 'GET', path: '/api/v1/video', handler: get },
	{ method: 'DELETE', path: '/api/v1/video', handler: remove },
	{ method: 'GET', path: '/api/v1/videos', handler: list },
	{ method: 'GET', path: '/api/v1/models', handler: () => ok({ models: TALKING_MODELS }) },
];
