import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { IMAGE_REFS_MAX, MEDIA_MIME_TYPES, MIB } from '../../../shared/api/contract/index';
import type { VisionStoryError } from '../../../shared/api/errors';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { withDownload } from '../../../shared/framework/download';
import { optional } from '../../../shared/framework/mapping';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { estimateOf, ItemMedia, sendWithMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import {
	downloadResultAsTool,
	locatorModes,
	maxCreditsPerExecution,
	mediaEntryValues,
	outputBinaryPropertyOption,
	toolDescription,
	validateOnly,
} from '../../../shared/descriptions/parameters';
import { checkImageModels } from './modelChecks';

const option: OperationOption = {
	name: 'Generate',
	value: 'generate',
	action: 'Generate or edit an image',
	description: 'Create an image from a prompt, or edit reference images by describing the change',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Generate one image from a prompt with an image model (model ID from the image models tool). Costs credits per image (price by model and resolution). Returns url (PNG, usable as a reference or video frame), width, height and cost_credit.',
	),
	{
		displayName: 'Model',
		name: 'modelId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'Models differ in quality, speed, resolutions and how many references they take',
		...locatorModes('searchImageModels'),
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. The bottle from the reference on a beach at sunset, product photo',
		description: 'What to create, or with references, what to change in them (no mask needed)',
	},
	{
		displayName: 'Aspect Ratio Name or ID',
		name: 'aspectRatio',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getImageAspectRatios',
			loadOptionsDependsOn: ['modelId.value'],
		},
		default: '',
		description:
			'Shape of the image (default 1:1). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Resolution Name or ID',
		name: 'resolution',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getImageResolutions',
			loadOptionsDependsOn: ['modelId.value'],
		},
		default: '',
		description:
			'Resolution tier; some models charge more for higher tiers. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Reference Images',
		name: 'refs',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Reference Image',
		default: {},
		description: 'Images to edit or take the subject from; each model has its own maximum',
		options: [
			{
				displayName: 'Reference Image',
				name: 'ref',
				values: mediaEntryValues('Where the image comes from'),
			},
		],
	},
	downloadResultAsTool,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [maxCreditsPerExecution, outputBinaryPropertyOption, validateOnly],
	},
];

type GenerateRequest = MediaRequest<'generateImage'>;

/** One item's parameters, read by name, into the checked generate request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<GenerateRequest> {
	const context = ctx.n8n;
	const media = new ItemMedia(context, index);
	const refs = await media.list(
		'refs',
		{ mimeTypes: MEDIA_MIME_TYPES.image, maxBytes: { image: 30 * MIB } },
		{ entry: 'ref', max: IMAGE_REFS_MAX },
	);
	media.check('generateImage');
	const request = ctx.client.validate('generateImage', {
		model_id: param.id(context, 'modelId', index),
		prompt: param.string(context, 'prompt', index),
		aspect_ratio: optional(param.string(context, 'aspectRatio', index)),
		resolution: optional(param.string(context, 'resolution', index)),
		refs: refs.length ? refs : undefined,
	});
	return { request, media: media.inputs };
}

/** A resolution, aspect ratio or number of references the model does not offer fails here, before anything is charged. */
async function check(
	ctx: OperationContext,
	items: Array<Prepared<GenerateRequest>>,
): Promise<Map<number, VisionStoryError>> {
	return await checkImageModels(
		ctx,
		items.map((item) => ({ index: item.index, request: item.request.request })),
	);
}

/**
 * The image as binary (PNG) beside its URL and cost; a failed download keeps the URL and cost. As a
 * tool (Download Result shown only there, off by default) the URL alone.
 */
async function execute(
	ctx: OperationContext,
	item: Prepared<GenerateRequest>,
): Promise<INodeExecutionData[]> {
	const context = ctx.n8n;
	const result = await sendWithMedia(ctx, 'generateImage', item);
	if (!param.boolean(context, 'downloadResult', item.index, true))
		return [{ json: result as IDataObject }];
	const options = param.collection(context, 'options', item.index);
	return [
		await withDownload(
			ctx,
			{ json: result as IDataObject },
			{
				url: result.url,
				property: String(options.outputBinaryProperty || 'data'),
				fallbackName: 'image',
				fallbackMime: 'image/png',
				made: 'The image was generated',
				costCredit: result.cost_credit ?? undefined,
				again:
					'Nothing is lost: download it from url (for example with the HTTP Request node), or use url directly as a reference image or video frame. Generating again would charge again.',
			},
		),
	];
}

export const generate: Operation<GenerateRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	check,
	estimate: estimateOf('generateImage'),
	execute,
};
