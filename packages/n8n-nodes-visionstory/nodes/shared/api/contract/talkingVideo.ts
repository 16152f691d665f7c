import { z } from 'zod/v3';

import {
	AspectRatio,
	ClientRequestId,
	Cursor,
	dto,
	exactlyOneOf,
	HttpUrl,
	Id,
	inlineData,
	MIB,
	SpeechRate,
	TASK_STATUSES,
	wholeNumber,
} from './common';
import { bool, list, num, requiredList, requiredString, status, str } from './lenient';

export const TALKING_VIDEO_RESOLUTIONS = ['720p', '1080p', '2k'] as const;
export const EMOTIONS = ['cheerful', 'angry', 'marketing', 'news', 'singing'] as const;

/** Inline media accepted by the talking-video endpoint (a narrower list than MediaRef's). */
export const TALKING_VIDEO_AUDIO_MIME_TYPES = [
	'audio/avi',
	'audio/mpeg',
	'audio/mp3',
	'audio/mp4',
	'audio/m4a',
	'audio/wav',
] as const;

export const TextScript = z
	.object({
		text: z.string().trim().min(1, 'must not be empty'),
		voice_id: Id,
		speech_rate: SpeechRate.nullish(),
	})
	.strict();

export const AudioScript = exactlyOneOf(
	{
		audio_url: HttpUrl.nullish(),
		inline_data: inlineData({
			mimeTypes: TALKING_VIDEO_AUDIO_MIME_TYPES,
			maxBytes: 50 * MIB,
		}).nullish(),
		voice_change: z.boolean().nullish(),
		voice_id: Id.nullish(),
		denoise: z.boolean().nullish(),
	},
	['audio_url', 'inline_data'],
).superRefine((value, ctx) => {
	if (value.voice_change && !value.voice_id) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['voice_id'],
			message: 'is required when Change Voice is on (the voice to convert the recording to)',
		});
	}
});

export const CreateTalkingVideoRequest = exactlyOneOf(
	{
		avatar_id: Id,
		text_script: TextScript.nullish(),
		audio_script: AudioScript.nullish(),
		model_id: Id.nullish(),
		aspect_ratio: AspectRatio.nullish(),
		resolution: z.enum([...TALKING_VIDEO_RESOLUTIONS, '480p']).nullish(), // 480p: legacy, rendered and billed as 720p
		emotion: z.enum(EMOTIONS).nullish(),
		background_color: z
			.string()
			.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a 6-digit hex color with a leading #, e.g. #00FF00')
			.nullish(),
		client_request_id: ClientRequestId.nullish(),
	},
	['text_script', 'audio_script'],
);
export type CreateTalkingVideoRequest = z.input<typeof CreateTalkingVideoRequest>;

export const CreateTalkingVideoResponse = dto({ video_id: requiredString() });

/** The talking video task as GET /api/v1/video returns it. */
export const TalkingVideoDto = dto({
	video_id: requiredString(),
	model_id: str(),
	status: status(),
	created_at: num(),
	aspect_ratio: str(),
	resolution: str(),
	cost_credit: num(),
	video_url: str(),
});
export type TalkingVideoDto = z.infer<typeof TalkingVideoDto>;

export const VideoIdQuery = z.object({ video_id: Id }).strict();

export const ListTalkingVideosRequest = z
	.object({
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
		status: z.array(z.enum(TASK_STATUSES)).min(1, 'needs at least one status').optional(),
	})
	.strict();
export const TalkingVideoPage = dto({ videos: requiredList(TalkingVideoDto), next_cursor: num() });

/** A model entry (shape unknown): resolutions may come as one comma-separated string. */
export const TalkingVideoModelDto = dto({
	model_id: requiredString(),
	name: str(),
	resolutions: list(z.string(), { splitText: true }),
	default_resolution: str(),
	is_default: bool(),
});
export type TalkingVideoModelDto = z.infer<typeof TalkingVideoModelDto>;
export const TalkingVideoModelList = dto({ models: requiredList(TalkingVideoModelDto) });
