import type { INodeProperties } from 'n8n-workflow';

import {
	ALL_MEDIA_MIME_TYPES,
	ASSET_MAX_BYTES,
	ClientRequestId,
	CreateAiVideoRequest,
} from '../../../shared/api/contract/index';
import type { MediaRef } from '../../../shared/api/contract/index';
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
import { estimateOf, ItemMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import { createVideos, repeatedKeyErrors } from '../../../shared/framework/videoTasks';
import {
	idempotencyKey,
	maxCreditsPerExecution,
	mediaEntryValues,
	mediaSourceFields,
	mediaSources,
	requestsPerSecond,
	toolDescription,
	validateOnly,
	waitingParameters,
} from '../../../shared/descriptions/parameters';
import { checkAiVideoModels } from './modelChecks';
import { duration, generateAudio, modelId, resolution } from './parameters';

const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create an AI video',
	description: 'Generate a video from a prompt, optionally guided by frames and reference media',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Create an AI video from a prompt with a model (model ID from the AI video models tool). Costs credits by model, duration and resolution (the Estimate Cost tool tells the price first). Returns at once with video_id; the video renders in minutes. Next: check it with the AI video Check Status tool using video_id until status is created, then use video_url. Calling it again with the same input returns the same video, not charged again (existingVideo is true), unless that video failed or was deleted: then a new one is made.',
		false,
	),
	toolDescription(
		'Create an AI video from a prompt with a model (model ID from the AI video models tool). Costs credits by model, duration and resolution (the Estimate Cost tool tells the price first). Waits until the video is rendered (minutes), then returns video_id, status created and video_url (the MP4). If it is still rendering when the time limit is reached, the error names video_id: check it later with the AI video Check Status tool. Calling it again with the same input returns the same video, not charged again (existingVideo is true), unless that video failed or was deleted: then a new one is made.',
		true,
	),
	modelId,
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		required: true,
		placeholder: 'e.g. Slow dolly shot of the sneaker on a marble plinth, soft morning light',
		description: 'What happens in the video; each model has its own length limit',
	},
	duration,
	resolution,
	{
		displayName: 'Aspect Ratio Name or ID',
		name: 'aspectRatio',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getAiVideoAspectRatios',
			loadOptionsDependsOn: ['modelId.value'],
		},
		default: '',
		description:
			'Shape of the video. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	generateAudio,
	{
		displayName: 'First Frame Source',
		name: 'firstFrameSource',
		type: 'options',
		options: [{ name: 'None', value: 'none', description: 'No first frame' }, ...mediaSources],
		default: 'none',
		description: 'An image the video starts from (e.g. a product photo)',
	},
	...mediaSourceFields('firstFrame', 'First Frame', { assets: true }),
	{
		displayName: 'End Frame Source',
		name: 'endFrameSource',
		type: 'options',
		options: [{ name: 'None', value: 'none', description: 'No end frame' }, ...mediaSources],
		default: 'none',
		description: 'An image the video ends on (models that support it)',
	},
	...mediaSourceFields('endFrame', 'End Frame', { assets: true }),
	{
		displayName: 'Reference Media',
		name: 'refs',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Reference',
		default: {},
		description:
			'Images, clips or audio that guide the look, subject or sound (models that support it)',
		options: [
			{
				displayName: 'Reference',
				name: 'ref',
				values: mediaEntryValues('Where the reference comes from'),
			},
		],
	},
	...waitingParameters(
		'AI videos usually take 2 to 10 minutes; all items render at once, within your key’s concurrency limit',
	),
	{
		displayName: 'At Concurrency Limit',
		name: 'atConcurrencyLimit',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { waitForCompletion: [false] } },
		options: [
			{
				name: 'Return an Error for the Item',
				value: 'returnError',
				description:
					'The node answers within seconds; items over the limit are not sent and not charged',
			},
			{
				name: 'Hold Until a Slot Frees',
				value: 'holdForSlot',
				description:
					'The node keeps items over the limit and sends each as soon as a render finishes, up to the hold limit',
			},
		],
		default: 'returnError',
		description:
			'What to do with items your key cannot start now because it already renders as many AI videos as it may',
	},
	{
		displayName: 'Hold Limit (Minutes)',
		name: 'slotWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 5,
		displayOptions: { show: { waitForCompletion: [false], atConcurrencyLimit: ['holdForSlot'] } },
		description:
			'How long an item may wait for a free slot before it is returned as an error (nothing is charged for it)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [idempotencyKey, maxCreditsPerExecution, requestsPerSecond, validateOnly],
	},
];

/** The media the endpoint takes: every image, clip and audio type, within the asset library's sizes. */
const mediaRules = { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES };

/** Which parameter of a frame holds its reference, by the frame's source. */
const FRAME_PARAMETER: Record<string, string> = {
	binary: 'BinaryProperty',
	url: 'Url',
	asset: 'AssetId',
};

type CreateRequest = MediaRequest<'createAiVideo'>;

/**
 * A frame checked with the contract's rule for a media reference, so a URL it refuses names the
 * frame's own parameter (First Frame URL), not the reference list's URL.
 */
function checkedFrame(
	ctx: OperationContext,
	index: number,
	name: 'firstFrame' | 'endFrame',
	ref: MediaRef | undefined,
): MediaRef | undefined {
	if (!ref) return undefined;
	const parameter =
		name + (FRAME_PARAMETER[param.string(ctx.n8n, `${name}Source`, index)] ?? 'Source');
	return param.checked(parameter, ref, CreateAiVideoRequest.shape.first_frame) ?? undefined;
}

/** One item's parameters, read by name, into the checked create request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<CreateRequest> {
	const context = ctx.n8n;
	const options = param.collection(context, 'options', index);
	const media = new ItemMedia(context, index);
	const firstFrame = await media.one('firstFrame', mediaRules);
	const endFrame = await media.one('endFrame', mediaRules);
	const refs = await media.list('refs', mediaRules, { entry: 'ref' });
	media.check('createAiVideo');
	const request = ctx.client.validate('createAiVideo', {
		model_id: param.id(context, 'modelId', index),
		prompt: param.string(context, 'prompt', index),
		duration_sec: param.checked(
			'duration',
			param.number(context, 'duration', index),
			CreateAiVideoRequest.shape.duration_sec,
		),
		resolution: optional(param.string(context, 'resolution', index)),
		aspect_ratio: optional(param.string(context, 'aspectRatio', index)),
		generate_audio: param.boolean(context, 'generateAudio', index),
		first_frame: checkedFrame(ctx, index, 'firstFrame', firstFrame),
		end_frame: checkedFrame(ctx, index, 'endFrame', endFrame),
		refs: refs.length ? refs : undefined,
		client_request_id: param.checked(
			'idempotencyKey',
			optional(options.idempotencyKey),
			ClientRequestId.optional(),
		),
	});
	return { request, media: media.inputs };
}

/**
 * Before anything is sent: items sharing an Idempotency Key would get one video between them, and
 * the rest are checked against their model's durations, resolutions and media (read once for all).
 */
async function check(
	ctx: OperationContext,
	items: Array<Prepared<CreateRequest>>,
): Promise<Map<number, VisionStoryError>> {
	const repeated = repeatedKeyErrors('createAiVideo', items);
	const rest = items
		.filter((item) => !repeated.has(item.index))
		.map((item) => ({ index: item.index, request: item.request.request }));
	const rejected = rest.length
		? await checkAiVideoModels(ctx, rest)
		: new Map<number, VisionStoryError>();
	return new Map([...repeated, ...rejected]);
}

/** Submits every item, waits on all of them together, then streams the finished videos into binary. */
async function executeAll(
	ctx: OperationContext,
	items: Array<Prepared<CreateRequest>>,
): Promise<ItemOutcome[]> {
	return await createVideos(ctx, 'aiVideo', items);
}

export const create: Operation<CreateRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	check,
	// Validate Only: the price the cost endpoint gives for the model, duration and resolution.
	estimate: estimateOf('createAiVideo'),
	executeAll,
};
