import { z } from 'zod/v3';

import { dto, Id, MEDIA_MIME_TYPES, mediaRef, MIB, ParamSpec } from './common';

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
	width: z.number().nullish(),
	height: z.number().nullish(),
	model_id: z.string().nullish(),
	cost_credit: z.number().nullish(),
});
export type ImageResultDto = z.infer<typeof ImageResultDto>;

export const ImageModelDto = dto({
	model_id: z.string(),
	name: z.string().nullish(),
	params: z.record(ParamSpec).nullish(),
	credit_per_image: z.number().nullish(),
	credit_by_resolution: z.record(z.number()).nullish(),
});
export type ImageModelDto = z.infer<typeof ImageModelDto>;
export const ImageModelList = dto({ models: z.array(ImageModelDto) });
