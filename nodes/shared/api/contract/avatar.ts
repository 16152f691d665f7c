import { z } from 'zod/v3';

import { AspectRatio, Cursor, dto, exactlyOneOf, HttpUrl, Id, inlineData, MIB, wholeNumber } from './common';

export const AVATAR_IMAGE_MIME_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/heic'] as const;
export const AVATAR_IMAGE_MAX_BYTES = 10 * MIB;

export const CreateAvatarRequest = exactlyOneOf(
	{
		img_url: HttpUrl.nullish(),
		inline_data: inlineData({ mimeTypes: AVATAR_IMAGE_MIME_TYPES, maxBytes: AVATAR_IMAGE_MAX_BYTES }).nullish(),
	},
	['img_url', 'inline_data'],
);
export type CreateAvatarRequest = z.input<typeof CreateAvatarRequest>;

export const AvatarFraming = dto({
	aspect_ratio: z.string(),
	zoom: z.number().nullish(),
	offset_x: z.number().nullish(),
	offset_y: z.number().nullish(),
	image_url: z.string().nullish(),
});
export type AvatarFraming = z.infer<typeof AvatarFraming>;

export const AvatarDto = dto({
	avatar_id: z.string(),
	thumbnail_url: z.string().nullish(),
	aspect_ratios: z.array(z.string()).nullish(),
	created_at: z.number().nullish(),
	default_voice_id: z.string().nullish(),
	framing: z.array(AvatarFraming).nullish(),
});
export type AvatarDto = z.infer<typeof AvatarDto>;

export const ListAvatarsRequest = z
	.object({
		is_public: z.boolean().optional(),
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
	})
	.strict();
export const AvatarPage = dto({ avatars: z.array(AvatarDto), next_cursor: z.number().nullish() });

export const UpdateAvatarFramingRequest = z
	.object({
		avatar_id: Id,
		aspect_ratio: AspectRatio,
		zoom: z.number({ invalid_type_error: 'must be a number' }).min(1, 'must be at least 1 (1 shows the widest area of the source image)'),
		offset_x: z.number({ invalid_type_error: 'must be a number' }).min(-1, 'must be between -1 and 1').max(1, 'must be between -1 and 1'),
		offset_y: z.number({ invalid_type_error: 'must be a number' }).min(-1, 'must be between -1 and 1').max(1, 'must be between -1 and 1'),
	})
	.strict();
export type UpdateAvatarFramingRequest = z.input<typeof UpdateAvatarFramingRequest>;
export const FramingResultDto = dto({
	aspect_ratio: z.string(),
	avatar_id: z.string(),
	image_url: z.string().nullish(),
	zoom: z.number().nullish(),
	offset_x: z.number().nullish(),
	offset_y: z.number().nullish(),
});

/** What Update Framing checks before reading the avatar: values left out keep their current setting. */
export const FramingChanges = UpdateAvatarFramingRequest.partial({ zoom: true, offset_x: true, offset_y: true });

export const AvatarIdQuery = z.object({ avatar_id: Id }).strict();
