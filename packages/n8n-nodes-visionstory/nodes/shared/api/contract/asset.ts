import { z } from 'zod/v3';

import {
	ALL_MEDIA_MIME_TYPES,
	ASSET_MAX_BYTES,
	Cursor,
	dto,
	exactlyOneOf,
	HttpUrl,
	Id,
	inlineData,
	wholeNumber,
} from './common';
import { num, requiredList, requiredString, str } from './lenient';

export const ASSET_KINDS = ['image', 'video', 'audio'] as const;

export const UploadAssetRequest = exactlyOneOf(
	{
		url: HttpUrl.nullish(),
		inline_data: inlineData({
			mimeTypes: ALL_MEDIA_MIME_TYPES,
			maxBytes: ASSET_MAX_BYTES,
		}).nullish(),
	},
	['url', 'inline_data'],
);
export type UploadAssetRequest = z.input<typeof UploadAssetRequest>;

export const AssetDto = dto({
	asset_id: requiredString(),
	kind: str(),
	mime: str(),
	width: num(),
	height: num(),
	duration_sec: num(),
	created_at: num(),
});
export type AssetDto = z.infer<typeof AssetDto>;

export const ListAssetsRequest = z
	.object({
		kind: z.enum(ASSET_KINDS).optional(),
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
	})
	.strict();
export const AssetPage = dto({ assets: requiredList(AssetDto), next_cursor: num() });

export const AssetIdQuery = z.object({ asset_id: Id }).strict();
