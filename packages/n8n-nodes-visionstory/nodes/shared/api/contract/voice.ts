import { z } from 'zod/v3';

import { Cursor, dto, exactlyOneOf, HttpUrl, Id, inlineData, MIB, wholeNumber } from './common';
import { bool, list, num, read, requiredList, requiredString, str } from './lenient';

export const VOICE_SAMPLE_MIME_TYPES = [
	'audio/mpeg',
	'audio/mp3',
	'audio/wav',
	'audio/x-wav',
	'audio/wave',
	'audio/mp4',
	'audio/m4a',
	'audio/x-m4a',
	'audio/avi',
	'video/mp4',
	'video/avi',
	'video/x-msvideo',
] as const;
export const VOICE_SAMPLE_MAX_BYTES = 30 * MIB;
export const PREVIEW_TEXT_MAX = 100;

export const VoiceDto = dto({
	voice_id: requiredString(),
	language: str(),
	locale: str(),
	preview_audio_url: str(),
	is_free: bool(),
	provider: str(),
	gender: str(),
	age: str(),
	accent: str(),
	tags: read((v) =>
		typeof v === 'string'
			? v
			: Array.isArray(v)
				? v.filter((t) => typeof t === 'string').join(', ')
				: v === null
					? null
					: undefined,
	),
	use_cases: list(z.string(), { splitText: true }),
});
export type VoiceDto = z.infer<typeof VoiceDto>;

export const ListVoicesRequest = z
	.object({
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(500, 'must be at most 500').optional(),
		locale: z.string().min(2, 'must be a language or locale code such as en or en-GB').optional(),
		provider: z.string().min(1).optional(),
	})
	.strict();
export const VoiceList = dto({
	my_voices: requiredList(VoiceDto),
	public_voices: requiredList(VoiceDto),
	next_cursor: num(),
});
export type VoiceList = z.infer<typeof VoiceList>;

export const CloneVoiceRequest = exactlyOneOf(
	{
		audio_url: HttpUrl.nullish(),
		inline_data: inlineData({
			mimeTypes: VOICE_SAMPLE_MIME_TYPES,
			maxBytes: VOICE_SAMPLE_MAX_BYTES,
		}).nullish(),
		preview_text: z
			.string()
			.max(PREVIEW_TEXT_MAX, `must be at most ${PREVIEW_TEXT_MAX} characters`)
			.nullish(),
	},
	['audio_url', 'inline_data'],
);
export type CloneVoiceRequest = z.input<typeof CloneVoiceRequest>;
export const ClonedVoiceDto = dto({
	voice_id: requiredString(),
	locale: str(),
	language: str(),
	gender: str(),
	preview_audio_url: str(),
});

export const VoiceIdQuery = z.object({ voice_id: Id }).strict();
