import { ApiError, invalid, notFound } from '../errors';
import { mediaRef, MIME, type MediaPolicy } from '../mediaRef';
import type { MediaKind } from '../mediaProbe';
import { AI_VIDEO_MODELS, findAiVideoModel, type AiVideoModel } from '../models';
import { paginate } from '../pagination';
import { aiVideoPrice } from '../pricing';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { tasksOf, type Account, type EmulatorState } from '../state';
import { deleteTask, submitTask } from '../submission';
import { aiVideoDto, isInFlight, statusAt } from '../tasks';
import { CLIENT_REQUEST_ID, Validator, type Json } from '../validation';
import { deleted, hasMarker, pageParams, queryId, statusFilter } from './common';

const BATCH_MAX = 20;

function modelField(v: Validator, value: string | undefined): AiVideoModel | undefined {
	if (value === undefined) return undefined;
	const model = findAiVideoModel(value);
	if (!model)
		v.fail(
			'model_id',
			`unknown model; use one of ${AI_VIDEO_MODELS.map((m) => m.model_id).join(', ')} (GET /api/v1/ai_video/models)`,
		);
	return model;
}

function refsPolicy(kinds: MediaKind[]): MediaPolicy {
	const mimes = MIME.general.filter((m) => kinds.some((k) => m.startsWith(`${k}/`)));
	return { mimes, kinds };
}

async function frame(
	v: Validator,
	body: Json,
	field: 'first_frame' | 'end_frame',
	model: AiVideoModel,
	account: Account,
): Promise<void> {
	if (body[field] === undefined || body[field] === null) return;
	const rule = model.media[field];
	if (!rule.supported) {
		v.fail(field, `is not supported by ${model.model_id}`);
		return;
	}
	await mediaRef(v, body[field], field, { mimes: rule.mime_types, kinds: ['image'] }, account);
}

function inFlightCount(account: Account, now: number): number {
	return [...account.aiVideos.values()].filter((t) => isInFlight(t, now)).length;
}

/** The per-key cap: rejected, not queued, with `details` as an object or (configurably) a JSON string. */
function admitUnderCap(state: EmulatorState, account: Account): () => void {
	return () => {
		const limit = state.config.aiConcurrencyCap;
		const in_flight = inFlightCount(account, state.now());
		if (in_flight < limit) return;
		const details = state.config.concurrencyDetailsAsString
			? JSON.stringify({ limit, in_flight })
			: { limit, in_flight };
		throw new ApiError(429, 429, `Too many AI video tasks in flight: ${in_flight} of ${limit}`, {
			details,
			hint: 'Wait until a running task finishes, then resend with the same client_request_id',
		});
	};
}

async function create(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const model = modelField(v, v.string(body, 'model_id', 'model_id', { required: true }));
	const client_request_id = v.string(body, 'client_request_id', 'client_request_id', {
		pattern: CLIENT_REQUEST_ID,
		patternMessage: 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
	});
	const prompt = v.string(body, 'prompt', 'prompt', {
		required: true,
		maxLength: model?.params.prompt.max_length,
	});
	// Without a known model nothing else can be checked: its entry holds every allowed value.
	if (!model) throw invalid(v.errors);
	const p = model.params;
	const duration_sec =
		v.number(body, 'duration_sec', 'duration_sec', {
			integer: true,
			oneOf: p.duration_sec.values,
		}) ?? p.duration_sec.default;
	const aspect_ratio =
		v.string(body, 'aspect_ratio', 'aspect_ratio', { oneOf: p.aspect_ratio.values }) ??
		p.aspect_ratio.default;
	const resolution =
		v.string(body, 'resolution', 'resolution', { oneOf: p.resolution.values }) ??
		p.resolution.default;
	if (v.boolean(body, 'generate_audio', 'generate_audio') === true && !p.generate_audio.supported) {
		v.fail('generate_audio', `${model.model_id} cannot generate audio`);
	}
	await frame(v, body, 'first_frame', model, ctx.account);
	await frame(v, body, 'end_frame', model, ctx.account);
	const refs = v.array(body, 'refs', 'refs', { max: model.media.refs.max });
	if (refs && refs.length > 0) {
		const policy = refsPolicy(model.media.refs.kinds);
		for (const [i, ref] of refs.entries())
			await mediaRef(v, ref, `refs[${i}]`, policy, ctx.account);
	}
	v.throwIfAny();

	const video_id = submitTask(
		ctx.state,
		ctx.account,
		{
			kind: 'aiVideo',
			client_request_id,
			price: aiVideoPrice(duration_sec, resolution),
			willFail: hasMarker(prompt, 'fail'),
			model_id: model.model_id,
			aspect_ratio,
			resolution,
			duration_sec,
		},
		admitUnderCap(ctx.state, ctx.account),
	);
	return ok({ video_id });
}

function get(ctx: RouteContext) {
	const v = new Validator();
	const single = v.queryString(ctx.query, 'video_id');
	const batch = v.queryString(ctx.query, 'video_ids');
	if ((single === undefined) === (batch === undefined))
		v.fail('video_id', 'provide exactly one of video_id, video_ids');
	const ids =
		batch
			?.split(',')
			.map((s) => s.trim())
			.filter((s) => s !== '') ?? [];
	if (batch !== undefined && ids.length === 0) v.fail('video_ids', 'must list at least one id');
	if (ids.length > BATCH_MAX)
		v.fail('video_ids', `must list at most ${BATCH_MAX} ids (got ${ids.length})`);
	v.throwIfAny();
	const media = ctx.state.mediaLinkBase();
	if (single !== undefined) {
		const task = ctx.account.aiVideos.get(single);
		if (!task) throw notFound('AI video', single);
		return ok(aiVideoDto(task, ctx.now, media, ctx.state.config));
	}
	// Unknown and foreign ids are left out rather than failing the whole batch.
	const videos = [...new Set(ids)].flatMap((id) => {
		const task = ctx.account.aiVideos.get(id);
		return task ? [aiVideoDto(task, ctx.now, media, ctx.state.config)] : [];
	});
	return ok({ videos });
}

function list(ctx: RouteContext) {
	const v = new Validator();
	const { cursor, limit } = pageParams(v, ctx.query, 100);
	v.throwIfAny();
	const statuses = statusFilter(ctx.query);
	const tasks = tasksOf(ctx.account, 'aiVideo').filter(
		(t) => !statuses || statuses.has(statusAt(t, ctx.now)),
	);
	const page = paginate(tasks, (t) => t.seq, cursor, limit);
	return ok({
		videos: page.items.map((t) =>
			aiVideoDto(t, ctx.now, ctx.state.mediaLinkBase(), ctx.state.config),
		),
		next_cursor: page.next_cursor,
	});
}

function remove(ctx: RouteContext) {
	const id = queryId(ctx.query, 'video_id');
	const task = ctx.account.aiVideos.get(id);
	if (task) deleteTask(ctx.state, ctx.account, task);
	return deleted();
}

function cost(ctx: RouteContext) {
	const v = new Validator();
	const model = modelField(v, v.queryString(ctx.query, 'model_id', true));
	const duration = v.queryInt(ctx.query, 'duration_sec', { required: true, min: 1 });
	v.queryBool(ctx.query, 'generate_audio', false);
	const resolution = v.queryString(ctx.query, 'resolution') ?? model?.params.resolution.default;
	if (model && duration !== undefined && !model.params.duration_sec.values.includes(duration)) {
		v.fail(
			'duration_sec',
			`must be one of ${model.params.duration_sec.values.join(', ')} for ${model.model_id}`,
		);
	}
	if (model && resolution !== undefined && !model.params.resolution.values.includes(resolution)) {
		v.fail(
			'resolution',
			`must be one of ${model.params.resolution.values.join(', ')} for ${model.model_id}`,
		);
	}
	v.throwIfAny();
	return ok({ credit: aiVideoPrice(duration as number, resolution as string) });
}

export const aiVideoRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/ai_video', handler: create },
	{ method: 'GET', path: '/api/v1/ai_video', handler: get },
	{ method: 'DELETE', path: '/api/v1/ai_video', handler: remove },
	{ method: 'GET', path: '/api/v1/ai_videos', handler: list },
	{ method: 'GET', path: '/api/v1/ai_video/cost', handler: cost },
	{
		method: 'GET',
		path: '/api/v1/ai_video/models',
		handler: () => ok({ models: AI_VIDEO_MODELS }),
	},
];
