import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { MediaRef } from '../shared/api/contract';
import { IMAGE_REFS_MAX, MEDIA_MIME_TYPES, MIB } from '../shared/api/contract';
import { catalogOperation, customOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { optional } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { binaryOutputOption, locator, mediaCollectionValues, optionsCollection } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { generateImage } from './generate';
import { checkImageModels } from './modelChecks';

export const imageOperations: OperationDef[] = [
	customOperation({
		value: 'generate',
		name: 'Generate',
		action: 'Generate or edit an image',
		description: 'Create an image from a prompt, or edit reference images by describing the change',
		toolDescription:
			'Generate one image from a prompt with an image model (model ID from the image models tool). Costs credits per image (price by model and resolution). Returns url (PNG, usable as a reference or video frame), width, height and cost_credit.',
		validateAs: 'generateImage',
		media: [{ name: 'refs', rules: { mimeTypes: MEDIA_MIME_TYPES.image, maxBytes: { image: 30 * MIB } }, list: { entry: 'ref', max: IMAGE_REFS_MAX } }],
		fieldParameters: { model_id: 'modelId', prompt: 'prompt', aspect_ratio: 'aspectRatio', resolution: 'resolution', refs: 'refs' },
		request: (p, media) => ({
			model_id: String(p.modelId ?? ''),
			prompt: String(p.prompt ?? ''),
			aspect_ratio: optional(p.aspectRatio),
			resolution: optional(p.resolution),
			refs: (media.refs as MediaRef[] | undefined)?.length ? (media.refs as MediaRef[]) : undefined,
		}),
		check: checkImageModels,
		runItem: generateImage,
		properties: [
			locator('modelId', 'Model', 'searchImageModels', { description: 'Models differ in quality, speed, resolutions and how many references they take' }),
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
				typeOptions: { loadOptionsMethod: 'getImageAspectRatios', loadOptionsDependsOn: ['modelId.value'] },
				default: '',
				description:
					'Shape of the image (default 1:1). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Resolution Name or ID',
				name: 'resolution',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getImageResolutions', loadOptionsDependsOn: ['modelId.value'] },
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
				options: [{ displayName: 'Reference Image', name: 'ref', values: mediaCollectionValues(['binary', 'url', 'asset'], 'Where the image comes from') }],
			},
			optionsCollection([binaryOutputOption]),
		],
	}),
	catalogOperation({
		value: 'listModels',
		name: 'List Models',
		action: 'List image models',
		description: 'List image models with their resolutions, reference limits and prices',
		toolDescription:
			'List the image models with their resolutions, reference limits and credit prices. Free.',
		call: 'listImageModels',
		items: (result) => result.models,
		properties: [],
	}),
];

export class VisionStoryImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Image',
		name: 'visionStoryImage',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(imageOperations),
		description: 'Generate and edit images with VisionStory',
		defaults: { name: 'VisionStory Image' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(imageOperations, 'generate'), ...operationProperties(imageOperations)],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, imageOperations);
	}
}
