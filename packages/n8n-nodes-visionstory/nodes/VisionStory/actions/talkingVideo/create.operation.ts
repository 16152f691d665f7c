import type { INodeProperties } from 'n8n-workflow';

import {
	ClientRequestId,
	MIB,
	TALKING_VIDEO_AUDIO_MIME_TYPES,
} from '../../../shared/api/contract/index';
import { invalidInput } from '../../../shared/api/errors';
import type { VisionStoryError } from '../../../shared/api/errors';
import type {
	ItemOutcome,
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { optional } from '../../../shared/framework/mapping';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { ItemMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import { createVideos, repeatedKeyErrors } from '../../../shared/framework/videoTasks';
import {
	fileSources,
	idempotencyKey,
	locatorModes,
	maxCreditsPerExecution,
	mediaSourceFields,
	requestsPerSecond,
	speechRate,
	toolDescription,
	validateOnly,
	waitingParameters,
} from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create a talking video',
	description: 'Make an avatar speak a text or audio script',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Create a talking-avatar video: the avatar (avatar ID) reads the text with the voice (voice ID). Costs credits (by resolution; 720p is cheapest). Returns at once with video_id; the video renders in 1 to 5 minutes. Next: check it with the talking video Check Status tool using video_id until status is created, then use video_url. Get voice IDs from the voices tool and avatar IDs from the avatars tool. Calling it again with the same input returns the same video, not charged again (existingVideo is true), unless that video failed or was deleted: then a new one is made.',
		false,
	),
	toolDescription(
		'Create a talking-avatar video: the avatar (avatar ID) reads the text with the voice (voice ID). Costs credits (by resolution; 720p is cheapest). Waits until the video is rendered (usually 1 to 5 minutes), then returns video_id, status created and video_url (the MP4). If it is still rendering when the time limit is reached, the error names video_id: check it later with the talking video Check Status tool. Get voice IDs from the voices tool and avatar IDs from the avatars tool. Calling it again with the same input returns the same video, not charged again (existingVideo is true), unless that video failed or was deleted: then a new one is made.',
		true,
	),
	{
		displayName: 'Avatar',
		name: 'avatarId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'Your own avatar or one from the public library',
		...locatorModes('searchAvatars'),
	},
	{
		displayName: 'Script Type',
		name: 'scriptType',
		type: 'options',
		options: [
			{
				name: 'Text',
				value: 'text',
				description: 'The avatar reads a text with a voice of your choice',
			},
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
		displayOptions: { show: { scriptType: ['text'] } },
		placeholder: 'e.g. Hi! Meet our new spring collection…',
		description: 'What the avatar says',
	},
	{
		displayName: 'Voice',
		name: 'voiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			"The voice that reads the script. Tip: the avatar's own voice is its default_voice_id (see Avatar → Get Many).",
		displayOptions: { show: { scriptType: ['text'] } },
		...locatorModes('searchVoices'),
	},
	{ ...speechRate, displayOptions: { show: { scriptType: ['text'] } } },
	{
		displayName: 'Audio Source',
		name: 'audioSource',
		type: 'options',
		options: fileSources,
		default: 'binary',
		description: 'The recording the avatar lip-syncs to (MP3, WAV, M4A, MP4 audio)',
		displayOptions: { show: { scriptType: ['audio'] } },
	},
	...mediaSourceFields('audio', 'Audio', { shownWith: { scriptType: ['audio'] } }),
	{
		displayName: 'Change Voice',
		name: 'voiceChange',
		type: 'boolean',
		default: false,
		displayOptions: { show: { scriptType: ['audio'] } },
		description: 'Whether to re-speak the recording with another voice, keeping its timing',
	},
	{
		displayName: 'Target Voice',
		name: 'targetVoiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The voice the recording is converted to',
		displayOptions: { show: { scriptType: ['audio'], voiceChange: [true] } },
		...locatorModes('searchVoices'),
	},
	{
		displayName: 'Model',
		name: 'modelId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: "Leave empty for VisionStory's default model",
		...locatorModes('searchTalkingVideoModels'),
	},
	{
		displayName: 'Aspect Ratio',
		name: 'aspectRatio',
		type: 'options',
		options: [
			{ name: '9:16 (Vertical)', value: '9:16' },
			{ name: '16:9 (Landscape)', value: '16:9' },
			{ name: '1:1 (Square)', value: '1:1' },
		],
		default: '9:16',
	},
	{
		displayName: 'Resolution Name or ID',
		name: 'resolution',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getTalkingVideoResolutions',
			loadOptionsDependsOn: ['modelId.value'],
		},
		default: '',
		description:
			'Higher resolutions cost more credits and render longer. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...waitingParameters('Rendering usually takes 1 to 5 minutes; all items render at the same time'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
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
				description:
					'Whether to remove background noise from the recording first (audio scripts only)',
			},
			{
				displayName: 'Emotion',
				name: 'emotion',
				type: 'options',
				options: [
					{ name: 'Angry', value: 'angry' },
					{ name: 'Cheerful', value: 'cheerful' },
					{ name: 'Marketing', value: 'marketing' },
					{ name: 'News', value: 'news' },
					{ name: 'Singing', value: 'singing' },
				],
				default: 'cheerful',
			},
			idempotencyKey,
			maxCreditsPerExecution,
			requestsPerSecond,
			validateOnly,
		],
	},
];

type CreateRequest = MediaRequest<'createTalkingVideo'>;

/** One item's parameters, read by name, into the checked create request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<CreateRequest> {
	const context = ctx.n8n;
	const options = param.collection(context, 'options', index);
	const media = new ItemMedia(context, index);
	const audio = await media.one('audio', {
		mimeTypes: TALKING_VIDEO_AUDIO_MIME_TYPES,
		maxBytes: 50 * MIB,
	});
	media.check('createTalkingVideo');
	const voiceChange = param.boolean(context, 'voiceChange', index);
	const targetVoiceId = voiceChange ? param.id(context, 'targetVoiceId', index) : '';
	if (voiceChange && !targetVoiceId) {
		throw invalidInput('createTalkingVideo', [
			{
				field: 'targetVoiceId',
				message: 'is required when Change Voice is on (the voice to convert the recording to)',
			},
		]);
	}
	const request = ctx.client.validate('createTalkingVideo', {
		avatar_id: param.id(context, 'avatarId', index),
		model_id: optional(param.id(context, 'modelId', index)),
		aspect_ratio: optional(param.string(context, 'aspectRatio', index)),
		resolution: optional(param.string(context, 'resolution', index)),
		emotion: optional(options.emotion),
		background_color: optional(options.backgroundColor),
		client_request_id: param.checked(
			'idempotencyKey',
			optional(options.idempotencyKey),
			ClientRequestId.optional(),
		),
		...(param.string(context, 'scriptType', index) === 'audio'
			? {
					audio_script: {
						audio_url: audio?.url,
						inline_data: audio?.inline_data,
						voice_change: voiceChange,
						voice_id: optional(targetVoiceId),
						denoise: options.denoise === true,
					},
				}
			: {
					text_script: {
						text: param.string(context, 'text', index),
						voice_id: param.id(context, 'voiceId', index),
						speech_rate: optional(param.string(context, 'speechRate', index)),
					},
				}),
	});
	return { request, media: media.inputs };
}

/** Items given the same Idempotency Key would get one video between them: each is refused before anything is sent. */
async function check(
	_ctx: OperationContext,
	items: Array<Prepared<CreateRequest>>,
): Promise<Map<number, VisionStoryError>> {
	return repeatedKeyErrors('createTalkingVideo', items);
}

/** Submits every item, waits on all of them together, then streams the finished videos into binary. */
async function executeAll(
	ctx: OperationContext,
	items: Array<Prepared<CreateRequest>>,
): Promise<ItemOutcome[]> {
	return await createVideos(ctx, 'talkingVideo', items);
}

export const create: Operation<CreateRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	check,
	executeAll,
};
