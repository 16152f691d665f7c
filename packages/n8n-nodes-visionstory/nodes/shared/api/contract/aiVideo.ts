import { z } from 'zod/v3';

import {
	ClientRequestId,
	Cursor,
	dto,
	Id,
	mediaRef,
	ParamSpec,
	TASK_STATUSES,
	wholeNumber,
} from './common';
import {
	bool,
	list,
	nested,
	num,
	read,
	record,
	requiredList,
	requiredString,
	status,
	str,
} from './lenient';

export const AI_VIDEO_BATCH_MAX = 20;
/** The longest prompt any model family takes (Wan); each model's own cap comes from the model list. */
export const AI_VIDEO_PROMPT_MAX = 20000;

export const CreateAiVideoRequest = z
	.object({
		model_id: Id,
		prompt: z.string().trim().min(1, 'must not be empty').max(AI_VIDEO_PROMPT_MAX),
		duration_sec: wholeNumber().positive('must be a positive number of seconds').nullish(),
		aspect_ratio: z.string().min(1).nullish(),
		resolution: z.string().min(1).nullish(),
		generate_audio: z.boolean().nullish(),
		first_frame: mediaRef().nullish(),
		end_frame: mediaRef().nullish(),
		refs: z.array(mediaRef()).nullish(),
		client_request_id: ClientRequestId.nullish(),
	})
	.strict();
export type CreateAiVideoRequest = z.input<typeof CreateAiVideoRequest>;
export const CreateAiVideoResponse = dto({ video_id: requiredString() });

export const AiVideoError = dto({
	code: read((v) => (typeof v === 'number' || typeof v === 'string' ? v : undefined)),
	message: str(),
});

/** A failed task's reason; a bare string is read as its message. */
const TaskError = z.preprocess(
	(v) => (typeof v === 'string' ? { message: v } : v),
	nested(AiVideoError),
);

export const AiVideoDto = dto({
	video_id: requiredString(),
	model_id: str(),
	status: status(),
	video_url: str(),
	cover_url: str(),
	duration_sec: num(),
	resolution: str(),
	aspect_ratio: str(),
	cost_credit: num(),
	created_at: num(),
	error: TaskError,
});
export type AiVideoDto = z.infer<typeof AiVideoDto>;

/** One id, or a batch of up to 20 (sent comma-separated); exactly one of the two. */
export const GetAiVideoRequest = z
	.object({
		video_id: Id.optional(),
		video_ids: z
			.array(Id)
			.min(1, 'needs at least one video ID')
			.max(AI_VIDEO_BATCH_MAX, `at most ${AI_VIDEO_BATCH_MAX} ids per call`)
			.optional(),
	})
	.strict()
	.superRefine((value, ctx) => {
		if ((value.video_id === undefined) === (value.video_ids === undefined)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: [],
				message: 'provide exactly one of video_id, video_ids',
			});
		}
	});
export const AiVideoBatch = dto({ videos: requiredList(AiVideoDto) });
export const GetAiVideoResponse = z.union([AiVideoBatch, AiVideoDto]);

export const ListAiVideosRequest = z
	.object({
		cursor: Cursor.optional(),
		limit: wholeNumber().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
		status: z.array(z.enum(TASK_STATUSES)).min(1, 'needs at least one status').optional(),
	})
	.strict();
export const AiVideoPage = dto({ videos: requiredList(AiVideoDto), next_cursor: num() });

export const EstimateAiVideoCostRequest = z
	.object({
		model_id: Id,
		duration_sec: wholeNumber().positive('must be a positive number of seconds'),
		resolution: z.string().min(1).nullish(),
		generate_audio: z.boolean().nullish(),
	})
	.strict();
export const AiVideoCost = dto({
	credit: z.preprocess(
		(v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
		z.number(),
	),
});

export const MediaSlotSpec = dto({
	supported: bool(),
	max: num(),
	mime_types: list(z.string(), { splitText: true }),
	kinds: list(z.string(), { splitText: true }),
});
export type MediaSlotSpec = z.infer<typeof MediaSlotSpec>;

/** A model entry (shape: a guess); params and media that cannot be read are skipped, the model stays listed. */
export const AiVideoModelDto = dto({
	model_id: requiredString(),
	name: str(),
	family: str(),
	params: record(ParamSpec),
	media: record(MediaSlotSpec),
});
export type AiVideoModelDto = z.infer<typeof AiVideoModelDto>;
export const AiVideoModelList = dto({ models: requiredList(AiVideoModelDto) });
