import type { z } from 'zod/v3';

import * as aiVideo from './aiVideo';
import * as asset from './asset';
import * as audio from './audio';
import * as avatar from './avatar';
import * as billing from './billing';
import { DeleteResult, Empty } from './common';
import * as image from './image';
import * as talkingVideo from './talkingVideo';
import * as understand from './understand';
import * as voice from './voice';

export * from './aiVideo';
export * from './asset';
export * from './audio';
export * from './avatar';
export * from './billing';
export * from './common';
export * from './image';
export * from './talkingVideo';
export * from './understand';
export * from './voice';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * Whether a request may be sent again after it may already have reached the service.
 * `always`: reads, deletes, and creates made safe by client_request_id or content deduplication.
 * `unsentOnly`: calls that are charged or create something on every request.
 */
export type Replay = 'always' | 'unsentOnly';

export interface EndpointSpec<
	Req extends z.ZodTypeAny = z.ZodTypeAny,
	Res extends z.ZodTypeAny = z.ZodTypeAny,
> {
	method: HttpMethod;
	path: string;
	/** Where the request's fields travel. */
	in: 'query' | 'body';
	request: Req;
	/** Schema of the success envelope's `data` (for `audio`, of the metadata headers). */
	response: Res;
	replay: Replay;
	timeoutMs: number;
	/** The body carries client_request_id, which the exchange fills when the caller did not. */
	clientRequestId?: true;
	/** The body is the file itself (TTS), not the JSON envelope. */
	result?: 'audio';
}

const SECOND = 1000;
const DEFAULT_TIMEOUT = 60 * SECOND;
/** The official clients' timeouts for slow synchronous work. */
const SLOW_TIMEOUT = 300 * SECOND;
const UNDERSTAND_TIMEOUT = 180 * SECOND;
const IMAGE_TIMEOUT = 180 * SECOND;

function endpoint<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny>(
	spec: EndpointSpec<Req, Res>,
) {
	return spec;
}

/** Every endpoint of the VisionStory API (28), keyed by the client method that calls it. */
export const endpoints = {
	createTalkingVideo: endpoint({
		method: 'POST',
		path: '/api/v1/video',
		in: 'body',
		request: talkingVideo.CreateTalkingVideoRequest,
		response: talkingVideo.CreateTalkingVideoResponse,
		replay: 'always',
		clientRequestId: true,
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	getTalkingVideo: endpoint({
		method: 'GET',
		path: '/api/v1/video',
		in: 'query',
		request: talkingVideo.VideoIdQuery,
		response: talkingVideo.TalkingVideoDto,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	listTalkingVideos: endpoint({
		method: 'GET',
		path: '/api/v1/videos',
		in: 'query',
		request: talkingVideo.ListTalkingVideosRequest,
		response: talkingVideo.TalkingVideoPage,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	deleteTalkingVideo: endpoint({
		method: 'DELETE',
		path: '/api/v1/video',
		in: 'query',
		request: talkingVideo.VideoIdQuery,
		response: DeleteResult,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	listTalkingVideoModels: endpoint({
		method: 'GET',
		path: '/api/v1/models',
		in: 'query',
		request: Empty,
		response: talkingVideo.TalkingVideoModelList,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	createAiVideo: endpoint({
		method: 'POST',
		path: '/api/v1/ai_video',
		in: 'body',
		request: aiVideo.CreateAiVideoRequest,
		response: aiVideo.CreateAiVideoResponse,
		replay: 'always',
		clientRequestId: true,
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	getAiVideo: endpoint({
		method: 'GET',
		path: '/api/v1/ai_video',
		in: 'query',
		request: aiVideo.GetAiVideoRequest,
		response: aiVideo.GetAiVideoResponse,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	listAiVideos: endpoint({
		method: 'GET',
		path: '/api/v1/ai_videos',
		in: 'query',
		request: aiVideo.ListAiVideosRequest,
		response: aiVideo.AiVideoPage,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	estimateAiVideoCost: endpoint({
		method: 'GET',
		path: '/api/v1/ai_video/cost',
		in: 'query',
		request: aiVideo.EstimateAiVideoCostRequest,
		response: aiVideo.AiVideoCost,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	listAiVideoModels: endpoint({
		method: 'GET',
		path: '/api/v1/ai_video/models',
		in: 'query',
		request: Empty,
		response: aiVideo.AiVideoModelList,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	deleteAiVideo: endpoint({
		method: 'DELETE',
		path: '/api/v1/ai_video',
		in: 'query',
		request: talkingVideo.VideoIdQuery,
		response: DeleteResult,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	generateImage: endpoint({
		method: 'POST',
		path: '/api/v1/image',
		in: 'body',
		request: image.GenerateImageRequest,
		response: image.ImageResultDto,
		replay: 'unsentOnly',
		timeoutMs: IMAGE_TIMEOUT,
	}),
	listImageModels: endpoint({
		method: 'GET',
		path: '/api/v1/image/models',
		in: 'query',
		request: Empty,
		response: image.ImageModelList,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	synthesizeSpeech: endpoint({
		method: 'POST',
		path: '/api/v1/tts',
		in: 'body',
		request: audio.SynthesizeSpeechRequest,
		response: audio.SpeechHeaders,
		replay: 'unsentOnly',
		result: 'audio',
		timeoutMs: 2 * DEFAULT_TIMEOUT,
	}),
	alignAudio: endpoint({
		method: 'POST',
		path: '/api/v1/audio/align',
		in: 'body',
		request: audio.AlignAudioRequest,
		response: audio.AlignResultDto,
		replay: 'unsentOnly',
		timeoutMs: SLOW_TIMEOUT,
	}),
	transcribeAudio: endpoint({
		method: 'POST',
		path: '/api/v1/audio/transcribe',
		in: 'body',
		request: audio.TranscribeAudioRequest,
		response: audio.TranscriptionDto,
		replay: 'unsentOnly',
		timeoutMs: SLOW_TIMEOUT,
	}),
	createAvatar: endpoint({
		method: 'POST',
		path: '/api/v1/avatar',
		in: 'body',
		request: avatar.CreateAvatarRequest,
		response: avatar.AvatarDto,
		replay: 'unsentOnly',
		timeoutMs: SLOW_TIMEOUT,
	}),
	listAvatars: endpoint({
		method: 'GET',
		path: '/api/v1/avatars',
		in: 'query',
		request: avatar.ListAvatarsRequest,
		response: avatar.AvatarPage,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	updateAvatarFraming: endpoint({
		method: 'POST',
		path: '/api/v1/avatar/framing',
		in: 'body',
		request: avatar.UpdateAvatarFramingRequest,
		response: avatar.FramingResultDto,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	deleteAvatar: endpoint({
		method: 'DELETE',
		path: '/api/v1/avatar',
		in: 'query',
		request: avatar.AvatarIdQuery,
		response: DeleteResult,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	listVoices: endpoint({
		method: 'GET',
		path: '/api/v1/voices',
		in: 'query',
		request: voice.ListVoicesRequest,
		response: voice.VoiceList,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	cloneVoice: endpoint({
		method: 'POST',
		path: '/api/v1/voice',
		in: 'body',
		request: voice.CloneVoiceRequest,
		response: voice.ClonedVoiceDto,
		replay: 'unsentOnly',
		timeoutMs: SLOW_TIMEOUT,
	}),
	deleteVoice: endpoint({
		method: 'DELETE',
		path: '/api/v1/voice',
		in: 'query',
		request: voice.VoiceIdQuery,
		response: DeleteResult,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	understandMedia: endpoint({
		method: 'POST',
		path: '/api/v1/media/understand',
		in: 'body',
		request: understand.UnderstandMediaRequest,
		response: understand.UnderstandResultDto,
		replay: 'unsentOnly',
		timeoutMs: UNDERSTAND_TIMEOUT,
	}),
	uploadAsset: endpoint({
		// Assets are deduplicated by content hash, so a resend returns the same asset.
		method: 'POST',
		path: '/api/v1/asset',
		in: 'body',
		request: asset.UploadAssetRequest,
		response: asset.AssetDto,
		replay: 'always',
		timeoutMs: SLOW_TIMEOUT,
	}),
	listAssets: endpoint({
		method: 'GET',
		path: '/api/v1/assets',
		in: 'query',
		request: asset.ListAssetsRequest,
		response: asset.AssetPage,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	deleteAsset: endpoint({
		method: 'DELETE',
		path: '/api/v1/asset',
		in: 'query',
		request: asset.AssetIdQuery,
		response: DeleteResult,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
	getCredits: endpoint({
		method: 'GET',
		path: '/api/v1/billing/credits',
		in: 'query',
		request: Empty,
		response: billing.CreditsDto,
		replay: 'always',
		timeoutMs: DEFAULT_TIMEOUT,
	}),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type RequestOf<N extends EndpointName> = z.input<Endpoints[N]['request']>;
export type ResponseOf<N extends EndpointName> = z.output<Endpoints[N]['response']>;
