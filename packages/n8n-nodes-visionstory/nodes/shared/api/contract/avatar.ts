import { z } from 'zod/v3';

import {
	AspectRatio,
	Cursor,
	dto,
	exactlyOneOf,
	HttpUrl,
	Id,
	inlineData,
	MIB,
	wholeNumber,
} from './common';
import { list, num, requiredList, requiredString, str } from './lenient';

export const AVATAR_IMAGE_MIME_TYPES = [
	'image/jpeg',
	'image/jpg',
	'image/png',
	'image/webp',
	'image/heic',
] as const;
export const AVATAR_IMAGE_MAX_BYTES = 10 * MIB;

export const CreateAvatarRequest = exactlyOneOf(
	{
		img_url: HttpUrl.nullish(),
		inline_data: inlineData({
			mimeTypes: AVATAR_IMAGE_MIME_TYPES,
			maxBytes: AVATAR_IMAGE_MAX_BYTES,
		}).nullish(),
	},
	['img_url', 'inline_data'],
);
export type CreateAvatarRequest = z.input<typeof CreateAvatarRequest>;

export const AvatarFraming = dto({
	aspect_ratio: z.string(),
	zoom: num(),
	offset_x: num(),
	offset_y: num(),
	image_url: str(),
});
export type AvatarFraming = z.infer<typeof AvatarFraming>;

export const AvatarDto = dto({
	avatar_id: requiredString(),
	thumbnail_url: str(),
	aspect_ratios: list(z.string(), { splitText: true }),
	created_at: num(),
	default_voice_id: str(),
	framing: list(AvatarFraming),
});
export type AvatarDto = z.infer<typeof AvatarDto>;

export const ListAvatarsRequest = z
	.object({
		is_public: z.boolean().optional(),
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
	})
	.strict();
export const AvatarPage = dto({ avatars: requiredList(AvatarDto), next_cursor: num() });

export const UpdateAvatarFramingRequest = z
	.object({
		avatar_id: Id,
		aspect_ratio: AspectRatio,
		zoom: z
			.number({ invalid_type_error: 'must be a number' })
			.min(1, 'must be at least 1 (1 shows the widest area of the source image)'),
		offset_x: z
			.number({ invalid_type_error: 'must be a number' })
			.min(-1, 'must be between -1 and 1')
			.max(1, 'must be between -1 and 1'),
		offset_y: z
			.number({ invalid_type_error: 'must be a number' })
			.min(-1, 'must be between -1 and 1')
			.max(1, 'must be between -1 and 1'),
	})
	.strict();
export type UpdateAvatarFramingRequest = z.input<typeof UpdateAvatarFramingRequest>;
export const FramingResultDto = dto({
	aspect_ratio: z.string(),
	avatar_id: requiredString(),
	image_url: str(),
	zoom: num(),
	offset_x: num(),
	offset_y: num(),
});

/** What Update Framing checks before reading the avatar: values left out keep their current setting. */
export const FramingChanges = UpdateAvatarFramingRequest.partial({
	zoom: true,
	offset_x: true,
	offset_y: true,
});

export const AvatarIdQuery = z.object({ avatar_id: Id }).strict();
