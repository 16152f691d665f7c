import { z } from 'zod/v3';

import { Cursor, dto, exactlyOneOf, HttpUrl, Id, inlineData, MIB, wholeNumber } from './common';

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
	voice_id: z.string(),
	language: z.string().nullish(),
	locale: z.string().nullish(),
	preview_audio_url: z.string().nullish(),
	is_free: z.boolean().nullish(),
	provider: z.string().nullish(),
	gender: z.string().nullish(),
	age: z.string().nullish(),
	accent: z.string().nullish(),
	tags: z.string().nullish(),
	use_cases: z.array(z.string()).nullish(),
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
	my_voices: z.array(VoiceDto),
	public_voices: z.array(VoiceDto),
	next_cursor: z.number().nullish(),
});
export type VoiceList = z.infer<typeof VoiceList>;

export const CloneVoiceRequest = exactlyOneOf(
	{
		audio_url: HttpUrl.nullish(),
		inline_data: inlineData({ mimeTypes: VOICE_SAMPLE_MIME_TYPES, maxBytes: VOICE_SAMPLE_MAX_BYTES }).nullish(),
		preview_text: z.string().max(PREVIEW_TEXT_MAX, `must be at most ${PREVIEW_TEXT_MAX} characters`).nullish(),
	},
	['audio_url', 'inline_data'],
);
export type CloneVoiceRequest = z.input<typeof CloneVoiceRequest>;
export const ClonedVoiceDto = dto({
	voice_id: z.string(),
	locale: z.string().nullish(),
	language: z.string().nullish(),
	gender: z.string().nullish(),
	preview_audio_url: z.string().nullish(),
});

export const VoiceIdQuery = z.object({ voice_id: Id }).strict();
