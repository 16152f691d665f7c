import { ApiError, badRequest } from '../errors';
import { newId } from '../ids';
import { mediaRef, MIME, type MediaPolicy } from '../mediaRef';
import { findImageModel, IMAGE_MODELS, IMAGE_TIER_PIXELS } from '../models';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { Validator } from '../validation';
import { hasMarker } from './common';

/** Unreadable reference images carry the service's own code, 37101. */
const REF_POLICY: MediaPolicy = {
	mimes: MIME.generalImage,
	kinds: ['image'],
	unreadableCode: 37101,
};

/** Pixel size of a tier at an aspect ratio: the tier fixes the long side. */
export function imageSize(tier: string, aspectRatio: string): { width: number; height: number } {
	const long = IMAGE_TIER_PIXELS[tier] ?? 1024;
	const [w, h] = aspectRatio.split(':').map(Number);
	const short = (long * Math.min(w, h)) / Math.max(w, h);
	const rounded = Math.round(short / 16) * 16;
	return w >= h ? { width: long, height: rounded } : { width: rounded, height: long };
}

async function generate(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const modelId = v.string(body, 'model_id', 'model_id', { required: true });
	const model = modelId === undefined ? undefined : findImageModel(modelId);
	if (modelId !== undefined && !model)
		v.fail(
			'model_id',
			`unknown model; use one of ${IMAGE_MODELS.map((m) => m.model_id).join(', ')}`,
		);
	const prompt = v.string(body, 'prompt', 'prompt', {
		required: true,
		maxLength: model?.params.prompt.max_length,
	});
	const aspect_ratio =
		v.string(body, 'aspect_ratio', 'aspect_ratio', { oneOf: model?.params.aspect_ratio.values }) ??
		'1:1';
	const resolution = v.string(body, 'resolution', 'resolution') ?? model?.params.resolution.default;
	const refs = v.array(body, 'refs', 'refs', { max: model?.params.refs.max });
	if (refs)
		for (const [i, ref] of refs.entries())
			await mediaRef(v, ref, `refs[${i}]`, REF_POLICY, ctx.account);
	v.throwIfAny();
	if (!model || resolution === undefined) throw new Error('validated above');
	if (!model.params.resolution.values.includes(resolution)) {
		throw badRequest(
			`Resolution ${resolution} is not supported by ${model.model_id}`,
			`Use one of ${model.params.resolution.values.join(', ')}`,
		);
	}
	if (hasMarker(prompt, 'moderate')) {
		throw new ApiError(403, 37100, 'The request was refused by content moderation', {
			hint: 'Rephrase the prompt or change the reference images',
		});
	}
	if (hasMarker(prompt, 'fail')) {
		throw new ApiError(403, 1, 'Image generation failed upstream; nothing was charged', {
			hint: 'Try again later or with another model',
		});
	}
	const price = model.credit_by_resolution[resolution];
	const imageId = newId('img');
	ctx.state.ledger.charge(ctx.account, ctx.now, 'image', price, imageId);
	return ok({
		url: `${ctx.state.mediaLinkBase()}/media/images/${imageId}.png`,
		...imageSize(resolution, aspect_ratio),
		model_id: model.model_id,
		cost_credit: price,
	});
}

export const imageRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/image', handler: generate },
	{ method: 'GET', path: '/api/v1/image/models', handler: () => ok({ models: IMAGE_MODELS }) },
];
