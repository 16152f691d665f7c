import { z } from 'zod/v3';

import { dto, Id, MEDIA_MIME_TYPES, mediaRef, MIB, ParamSpec } from './common';
import { num, record, requiredList, requiredString, str } from './lenient';

/** The most references any image model takes (Seedream 5.0 Lite); each model's own cap is params.refs.max. */
export const IMAGE_REFS_MAX = 14;

export const GenerateImageRequest = z
	.object({
		model_id: Id,
		prompt: z.string().trim().min(1, 'must not be empty'),
		aspect_ratio: z.string().min(1).nullish(),
		resolution: z.string().min(1).nullish(),
		refs: z
			.array(mediaRef({ mimeTypes: MEDIA_MIME_TYPES.image, maxBytes: { image: 30 * MIB } }))
			.max(IMAGE_REFS_MAX)
			.nullish(),
	})
	.strict();
export type GenerateImageRequest = z.input<typeof GenerateImageRequest>;

export const ImageResultDto = dto({
	url: z.string(),
	width: num(),
	height: num(),
	model_id: str(),
	cost_credit: num(),
});
export type ImageResultDto = z.infer<typeof ImageResultDto>;

/** A model entry (shape partly shown); params and prices that cannot be read are skipped, the model stays listed. */
export const ImageModelDto = dto({
	model_id: requiredString(),
	name: str(),
	params: record(ParamSpec),
	credit_per_image: num(),
	credit_by_resolution: record(num()),
});
export type ImageModelDto = z.infer<typeof ImageModelDto>;
/** The list's shape is not shown: `{ models: [...] }`, or the bare array a service might send instead. */
export const ImageModelList = z.preprocess(
	(value) => (Array.isArray(value) ? { models: value } : value),
	dto({ models: requiredList(ImageModelDto) }),
);
