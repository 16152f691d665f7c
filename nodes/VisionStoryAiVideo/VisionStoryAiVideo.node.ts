import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CreateAiVideoRequest, MediaRef } from '../shared/api/contract';
import { AI_VIDEO_BATCH_MAX, ALL_MEDIA_MIME_TYPES, ASSET_MAX_BYTES } from '../shared/api/contract';
import { callOperation, catalogOperation, customOperation, listOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { deleteResult, idList, optional, optionalNumber, optionsOf, statusQuery } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { checkStatusOperation, getVideo, videoTaskOperation } from '../shared/framework/videoTasks';
import { credentials, nodeOutputs, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { checkStatusProperties, downloadOnGet, filters, idempotencyKeyOption, locator, requestsPerSecondOption, mediaCollectionValues, mediaFields, optionsCollection, returnAllLimit, statusFilter, waitFields } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { getAiVideos } from './getSeveral';
import { checkAiVideoModels } from './modelChecks';

const mediaRules = { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES };

const modelId = locator('modelId', 'Model', 'searchAiVideoModels', {
	description: 'The model decides the durations, resolutions and media it accepts',
});

// Literal objects, so n8n's lint rules for options loaded from a method see their names and descriptions.
const duration: INodeProperties = {
	displayName: 'Duration (Seconds) Name or ID',
	name: 'duration',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getAiVideoDurations', loadOptionsDependsOn: ['modelId.value'] },
	default: '',
	description:
		'Length of the video; the list shows what the model offers. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const resolution: INodeProperties = {
	displayName: 'Resolution Name or ID',
	name: 'resolution',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getAiVideoResolutions', loadOptionsDependsOn: ['modelId.value'] },
	default: '',
	description:
		'Higher resolutions cost more credits. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const aspectRatio: INodeProperties = {
	displayName: 'Aspect Ratio Name or ID',
	name: 'aspectRatio',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getAiVideoAspectRatios', loadOptionsDependsOn: ['modelId.value'] },
	default: '',
	description: 'Shape of the video. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const generateAudio = {
	displayName: 'Generate Audio',
	name: 'generateAudio',
	type: 'boolean' as const,
	default: false,
	description: 'Whether the model also makes a soundtrack (never changes the price)',
};

const videoId = locator('videoId', 'Video', 'searchAiVideos', { description: 'The AI video to use' });

export const aiVideoOperations: OperationDef[] = [
	videoTaskOperation({
		value: 'create',
		name: 'Create',
		action: 'Create an AI video',
		description: 'Generate a video from a prompt, optionally guided by frames and reference media',
		toolDescription:
			'Create an AI video from a prompt with a model (model ID from the AI video models tool). Costs credits by model, duration and resolution (the Estimate Cost tool tells the price first). Returns at once with video_id; the video renders in minutes. Next: check it with the AI video Check Status tool using video_id until status is created, then use video_url.',
		kind: 'aiVideo',
		media: [
			{ name: 'firstFrame', rules: mediaRules },
			{ name: 'endFrame', rules: mediaRules },
			{ name: 'refs', rules: mediaRules, list: { entry: 'ref' } },
		],
		fieldParameters: {
			model_id: 'modelId',
			prompt: 'prompt',
			duration_sec: 'duration',
			resolution: 'resolution',
			aspect_ratio: 'aspectRatio',
			generate_audio: 'generateAudio',
			first_frame: 'firstFrameSource',
			end_frame: 'endFrameSource',
			refs: 'refs',
			client_request_id: 'idempotencyKey',
		},
		request: (p, media): CreateAiVideoRequest => ({
			model_id: String(p.modelId ?? ''),
			prompt: String(p.prompt ?? ''),
			duration_sec: optionalNumber(p.duration),
			resolution: optional(p.resolution),
			aspect_ratio: optional(p.aspectRatio),
			generate_audio: p.generateAudio === true,
			first_frame: media.firstFrame as MediaRef | undefined,
			end_frame: media.endFrame as MediaRef | undefined,
			refs: (media.refs as MediaRef[] | undefined)?.length ? (media.refs as MediaRef[]) : undefined,
			client_request_id: optional(optionsOf(p).idempotencyKey),
		}),
		check: checkAiVideoModels,
		properties: [
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
			aspectRatio,
			generateAudio,
			...mediaFields({
				name: 'firstFrame',
				displayName: 'First Frame',
				sources: ['binary', 'url', 'asset'],
				description: 'An image the video starts from (e.g. a product photo)',
			}),
			...mediaFields({
				name: 'endFrame',
				displayName: 'End Frame',
				sources: ['binary', 'url', 'asset'],
				description: 'An image the video ends on (models that support it)',
			}),
			{
				displayName: 'Reference Media',
				name: 'refs',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Reference',
				default: {},
				description: 'Images, clips or audio that guide the look, subject or sound (models that support it)',
				options: [{ displayName: 'Reference', name: 'ref', values: mediaCollectionValues(['binary', 'url', 'asset'], 'Where the reference comes from') }],
			},
			...waitFields('AI videos usually take 2 to 10 minutes; all items render at once, within your key’s concurrency limit', { concurrencyCap: true }),
			optionsCollection([idempotencyKeyOption, requestsPerSecondOption]),
		],
	}),
	checkStatusOperation('aiVideo', checkStatusProperties(videoId)),
	customOperation({
		value: 'get',
		name: 'Get',
		action: 'Get an AI video',
		description: 'Get the status of one AI video, or of several at once',
		toolDescription:
			'Get an AI video by video_id: status (queued, creating, created, failed), video_url when created, duration_sec and cost_credit. Free.',
		validateAs: 'getAiVideo',
		fieldParameters: { video_id: 'videoId', video_ids: 'videoIds' },
		request: (p) => (p.select === 'many' ? { video_ids: idList(p.videoIds) } : { video_id: String(p.videoId ?? '') }),
		runItem: async (scope, item) => (item.params.select === 'many' ? await getAiVideos(scope, item) : await getVideo('aiVideo')(scope, item)),
		properties: [
			{
				displayName: 'Select',
				name: 'select',
				type: 'options',
				options: [
					{ name: 'One Video', value: 'one' },
					{ name: 'Several Videos', value: 'many', description: `Up to ${AI_VIDEO_BATCH_MAX} IDs, one output item each` },
				],
				default: 'one',
			},
			{ ...videoId, displayOptions: { show: { select: ['one'] } } },
			{
				displayName: 'Video IDs',
				name: 'videoIds',
				type: 'string',
				default: '',
				required: true,
				displayOptions: { show: { select: ['many'] } },
				placeholder: 'e.g. vid_1, vid_2',
				description: `Comma-separated video IDs, at most ${AI_VIDEO_BATCH_MAX}`,
			},
			...downloadOnGet({ select: ['one'] }),
		],
	}),
	listOperation({
		value: 'getMany',
		name: 'Get Many',
		action: 'Get many AI videos',
		description: 'List your AI videos, newest first',
		toolDescription:
			'List your AI videos, newest first: video_id, status, video_url. Free. Use Limit to keep the list short.',
		call: 'listAiVideos',
		pageSize: 100,
		request: statusQuery,
		items: (page) => page.videos,
		properties: [...returnAllLimit(), filters([statusFilter('Queued and Creating together are the videos holding your concurrency slots')])],
	}),
	callOperation({
		value: 'estimateCost',
		name: 'Estimate Cost',
		action: 'Estimate the cost of an AI video',
		description: 'Get the credits a video would cost, with the same formula as the real charge',
		toolDescription:
			'Tell the credit price of an AI video (model ID, duration in seconds, resolution) before creating it. Free; nothing is created.',
		call: 'estimateAiVideoCost',
		fieldParameters: { model_id: 'modelId', duration_sec: 'duration', resolution: 'resolution', generate_audio: 'generateAudio' },
		request: (p) => ({
			model_id: String(p.modelId ?? ''),
			duration_sec: optionalNumber(p.duration) as number,
			resolution: optional(p.resolution),
			generate_audio: p.generateAudio === true,
		}),
		output: (result, p) => ({ ...result, model_id: p.modelId, duration_sec: optionalNumber(p.duration), resolution: optional(p.resolution) ?? null }),
		properties: [modelId, { ...duration, required: true }, resolution, generateAudio],
	}),
	catalogOperation({
		value: 'listModels',
		name: 'List Models',
		action: 'List AI video models',
		description: 'List the models with their durations, resolutions and media limits',
		toolDescription:
			'List the AI video models with their durations, resolutions and prompt limits. Free.',
		call: 'listAiVideoModels',
		items: (result) => result.models,
		properties: [],
	}),
	callOperation({
		value: 'delete',
		name: 'Delete',
		action: 'Delete an AI video',
		description: 'Delete one of your AI videos for good',
		call: 'deleteAiVideo',
		fieldParameters: { video_id: 'videoId' },
		request: (p) => ({ video_id: String(p.videoId ?? '') }),
		output: deleteResult('video_id', 'videoId'),
		properties: [videoId],
	}),
];

export class VisionStoryAiVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory AI Video',
		name: 'visionStoryAiVideo',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(aiVideoOperations),
		description: 'Generate videos from a prompt, frames and reference media with VisionStory',
		defaults: { name: 'VisionStory AI Video' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: nodeOutputs(aiVideoOperations),
		credentials,
		properties: [operationProperty(aiVideoOperations, 'create'), ...operationProperties(aiVideoOperations)],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, aiVideoOperations);
	}
}
