import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CreateTalkingVideoRequest } from '../shared/api/contract';
import {
	ASPECT_RATIOS,
	EMOTIONS,
	MIB,
	SPEECH_RATES,
	TALKING_VIDEO_AUDIO_MIME_TYPES,
} from '../shared/api/contract';
import { callOperation, catalogOperation, customOperation, listOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { deleteResult, optional, optionsOf, statusQuery } from '../shared/framework/mapping';
import type { OperationDef, Params } from '../shared/framework/operation';
import { checkStatusOperation, getVideo, videoTaskOperation } from '../shared/framework/videoTasks';
import { credentials, nodeOutputs, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { checkStatusProperties, downloadOnGet, filters, idempotencyKeyOption, locator, requestsPerSecondOption, mediaFields, optionsCollection, returnAllLimit, speechRate, statusFilter, waitFields } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';

const text = { show: { scriptType: ['text'] } };
const audio = { show: { scriptType: ['audio'] } };

function createRequest(p: Params, media: { audio?: unknown }): CreateTalkingVideoRequest {
	const options = optionsOf(p);
	const audioRef = media.audio as { url?: string; inline_data?: { data: string; mime_type: string } } | undefined;
	return {
		avatar_id: String(p.avatarId ?? ''),
		model_id: optional(p.modelId),
		aspect_ratio: optional(p.aspectRatio) as CreateTalkingVideoRequest['aspect_ratio'],
		resolution: optional(p.resolution) as CreateTalkingVideoRequest['resolution'],
		emotion: optional(options.emotion) as CreateTalkingVideoRequest['emotion'],
		background_color: optional(options.backgroundColor),
		client_request_id: optional(options.idempotencyKey),
		...(p.scriptType === 'audio'
			? {
					audio_script: {
						audio_url: audioRef?.url,
						inline_data: audioRef?.inline_data,
						voice_change: p.voiceChange === true,
						voice_id: p.voiceChange === true ? optional(p.targetVoiceId) : undefined,
						denoise: options.denoise === true,
					},
				}
			: {
					text_script: {
						text: String(p.text ?? ''),
						voice_id: String(p.voiceId ?? ''),
						speech_rate: optional(p.speechRate) as (typeof SPEECH_RATES)[number] | undefined,
					},
				}),
	};
}

const videoId = locator('videoId', 'Video', 'searchTalkingVideos', { description: 'The talking video to use' });

export const talkingVideoOperations: OperationDef[] = [
	videoTaskOperation({
		value: 'create',
		name: 'Create',
		action: 'Create a talking video',
		description: 'Make an avatar speak a text or audio script',
		toolDescription:
			'Create a talking-avatar video: the avatar (avatar ID) reads the text with the voice (voice ID). Costs credits (by resolution; 720p is cheapest). Returns at once with video_id; the video renders in 1 to 5 minutes. Next: check it with the talking video Check Status tool using video_id until status is created, then use video_url. Get voice IDs from the voices tool and avatar IDs from the avatars tool.',
		kind: 'talkingVideo',
		media: [{ name: 'audio', rules: { mimeTypes: TALKING_VIDEO_AUDIO_MIME_TYPES, maxBytes: 50 * MIB } }],
		fieldParameters: {
			avatar_id: 'avatarId',
			'text_script.text': 'text',
			'text_script.voice_id': 'voiceId',
			'text_script.speech_rate': 'speechRate',
			'audio_script.voice_id': 'targetVoiceId',
			audio_script: 'audioSource',
			model_id: 'modelId',
			aspect_ratio: 'aspectRatio',
			resolution: 'resolution',
			emotion: 'emotion',
			background_color: 'backgroundColor',
			client_request_id: 'idempotencyKey',
		},
		request: createRequest,
		properties: [
			locator('avatarId', 'Avatar', 'searchAvatars', { description: 'Your own avatar or one from the public library' }),
			{
				displayName: 'Script Type',
				name: 'scriptType',
				type: 'options',
				options: [
					{ name: 'Text', value: 'text', description: 'The avatar reads a text with a voice of your choice' },
					{ name: 'Audio', value: 'audio', description: 'The avatar lip-syncs to a recording' },
				],
				default: 'text',
			},
			{
				displayName: 'Script',
				name: 'text',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				displayOptions: text,
				placeholder: 'e.g. Hi! Meet our new spring collection…',
				description: 'What the avatar says',
			},
			locator('voiceId', 'Voice', 'searchVoices', {
				displayOptions: text,
				description: "The voice that reads the script. Tip: the avatar's own voice is its default_voice_id (see Avatar → Get Many).",
			}),
			speechRate(text),
			...mediaFields({
				name: 'audio',
				displayName: 'Audio',
				sources: ['binary', 'url'],
				required: true,
				description: 'The recording the avatar lip-syncs to (MP3, WAV, M4A, MP4 audio)',
			}).map((p) => ({ ...p, displayOptions: { show: { ...audio.show, ...p.displayOptions?.show } } })),
			{
				displayName: 'Change Voice',
				name: 'voiceChange',
				type: 'boolean',
				default: false,
				displayOptions: audio,
				description: 'Whether to re-speak the recording with another voice, keeping its timing',
			},
			locator('targetVoiceId', 'Target Voice', 'searchVoices', {
				displayOptions: { show: { scriptType: ['audio'], voiceChange: [true] } },
				description: 'The voice the recording is converted to',
			}),
			locator('modelId', 'Model', 'searchTalkingVideoModels', {
				required: false,
				description: "Leave empty for VisionStory's default model",
			}),
			{
				displayName: 'Aspect Ratio',
				name: 'aspectRatio',
				type: 'options',
				options: ASPECT_RATIOS.map((r) => ({
					name: r === '9:16' ? '9:16 (Vertical)' : r === '16:9' ? '16:9 (Landscape)' : '1:1 (Square)',
					value: r,
				})),
				default: '9:16',
			},
			{
				displayName: 'Resolution Name or ID',
				name: 'resolution',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getTalkingVideoResolutions', loadOptionsDependsOn: ['modelId.value'] },
				default: '',
				description:
					'Higher resolutions cost more credits and render longer. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			...waitFields('Rendering usually takes 1 to 5 minutes; all items render at the same time'),
			optionsCollection([
				{
					displayName: 'Background Color',
					name: 'backgroundColor',
					type: 'color',
					default: '',
					description: 'Render the avatar on this solid color instead of its own background',
				},
				{
					displayName: 'Denoise Audio',
					name: 'denoise',
					type: 'boolean',
					default: false,
					description: 'Whether to remove background noise from the recording first (audio scripts only)',
				},
				{
					displayName: 'Emotion',
					name: 'emotion',
					type: 'options',
					options: EMOTIONS.map((e) => ({ name: e.charAt(0).toUpperCase() + e.slice(1), value: e })),
					default: 'cheerful',
				},
				idempotencyKeyOption,
				requestsPerSecondOption,
			]),
		],
	}),
	checkStatusOperation('talkingVideo', checkStatusProperties(videoId)),
	customOperation({
		value: 'get',
		name: 'Get',
		action: 'Get a talking video',
		description: 'Get the status of a talking video and, when ready, the video itself',
		toolDescription:
			'Get one talking video by video_id: status (queued, creating, created, failed), video_url when created, duration_sec and cost_credit. Free.',
		properties: [videoId, ...downloadOnGet()],
		fieldParameters: { video_id: 'videoId' },
		validateAs: 'getTalkingVideo',
		request: (p) => ({ video_id: String(p.videoId ?? '') }),
		runItem: getVideo('talkingVideo'),
	}),
	listOperation({
		value: 'getMany',
		name: 'Get Many',
		action: 'Get many talking videos',
		description: 'List your talking videos, newest first',
		toolDescription:
			'List your talking videos, newest first: video_id, status, video_url. Free. Use Limit to keep the list short.',
		call: 'listTalkingVideos',
		pageSize: 100,
		request: statusQuery,
		items: (page) => page.videos,
		properties: [...returnAllLimit(), filters([statusFilter()])],
	}),
	callOperation({
		value: 'delete',
		name: 'Delete',
		action: 'Delete a talking video',
		description: 'Delete one of your talking videos for good',
		call: 'deleteTalkingVideo',
		fieldParameters: { video_id: 'videoId' },
		request: (p) => ({ video_id: String(p.videoId ?? '') }),
		output: deleteResult('video_id', 'videoId'),
		properties: [videoId],
	}),
	catalogOperation({
		value: 'listModels',
		name: 'List Models',
		action: 'List talking video models',
		description: 'List the models talking videos can be made with',
		toolDescription:
			'List the talking video models and the resolutions each supports. Free.',
		call: 'listTalkingVideoModels',
		items: (result) => result.models,
		properties: [],
	}),
];

export class VisionStoryTalkingVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Talking Video',
		name: 'visionStoryTalkingVideo',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(talkingVideoOperations),
		description: 'Make an avatar speak a script, as a video, with VisionStory',
		defaults: { name: 'VisionStory Talking Video' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: nodeOutputs(talkingVideoOperations),
		credentials,
		properties: [operationProperty(talkingVideoOperations, 'create'), ...operationProperties(talkingVideoOperations)],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, talkingVideoOperations);
	}
}
