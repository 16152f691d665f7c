import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { MediaRef } from '../shared/api/contract';
import { ALL_MEDIA_MIME_TYPES, ASSET_MAX_BYTES, UNDERSTAND_INPUTS_MAX } from '../shared/api/contract';
import { callOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { capitalize, mediaCollectionValues } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { FIELD_TYPES, understandSchema } from './schema';

export const understandOperations: OperationDef[] = [
	callOperation({
		value: 'analyze',
		name: 'Analyze',
		action: 'Analyze media into structured data',
		description: 'Label or extract information from images, audio and video as JSON that follows your schema',
		toolDescription:
			"Answer a question about images, audio or video as JSON fields. Costs credits by the model's usage (at least 1; known only afterwards). Returns output (the fields), usage and cost_credit.",
		call: 'understandMedia',
		concurrency: 3,
		media: [
			{
				name: 'inputs',
				rules: { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES },
				list: { entry: 'input', min: 1, max: UNDERSTAND_INPUTS_MAX },
			},
		],
		fieldParameters: { inputs: 'inputs', prompt: 'prompt', schema: 'schemaMode' },
		request: (p, media) => ({
			inputs: (media.inputs as MediaRef[] | undefined) ?? [],
			prompt: String(p.prompt ?? ''),
			schema: understandSchema(p),
		}),
		properties: [
			{
				displayName: 'Media',
				name: 'inputs',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Media',
				default: { input: [{ source: 'binary', binaryProperty: 'data' }] },
				description: `1 to ${UNDERSTAND_INPUTS_MAX} images, audio files or videos, in the order the model sees them`,
				options: [{ displayName: 'Media', name: 'input', values: mediaCollectionValues(['binary', 'url', 'asset'], 'Where the file comes from') }],
			},
			{
				displayName: 'Prompt',
				name: 'prompt',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				placeholder: 'e.g. Describe the product in the photo and rate how suitable it is for a summer campaign',
				description: 'The task, and what each output field means',
			},
			{
				displayName: 'Schema',
				name: 'schemaMode',
				type: 'options',
				options: [
					{ name: 'Field List', value: 'fields', description: 'List the fields you want; the node writes the JSON Schema' },
					{ name: 'JSON Schema', value: 'json', description: 'Paste a JSON Schema (top level must be an object)' },
				],
				default: 'fields',
			},
			{
				displayName: 'Fields',
				name: 'fields',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Field',
				default: {},
				displayOptions: { show: { schemaMode: ['fields'] } },
				options: [
					{
						displayName: 'Field',
						name: 'field',
						values: [
							{
								displayName: 'Allowed Values',
								name: 'allowedValues',
								type: 'string',
								default: '',
								placeholder: 'e.g. happy, neutral, sad',
								description: 'Comma-separated; leave empty for free values',
							},
							{ displayName: 'Description', name: 'description', type: 'string', default: '', description: 'What the field means, for the model' },
							{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. mood' },
							{ displayName: 'Required', name: 'required', type: 'boolean', default: true, description: 'Whether the model must always fill this field' },
							{
								displayName: 'Type',
								name: 'type',
								type: 'options',
								options: FIELD_TYPES.map((t) => ({ name: t === 'array' ? 'List of Text' : capitalize(t), value: t })),
								default: 'string',
							},
						],
					},
				],
			},
			{
				displayName: 'JSON Schema',
				name: 'jsonSchema',
				type: 'json',
				default: '{\n  "type": "object",\n  "properties": {\n    "summary": { "type": "string" }\n  },\n  "required": ["summary"]\n}',
				displayOptions: { show: { schemaMode: ['json'] } },
				description: 'JSON Schema (draft 2020-12 subset); keep it flat, with enums for fixed label sets',
			},
		],
	}),
];

export class VisionStoryUnderstand implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Understand',
		name: 'visionStoryUnderstand',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(understandOperations),
		description: 'Turn images, audio and video into structured JSON with VisionStory',
		defaults: { name: 'VisionStory Understand' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(understandOperations, 'analyze'), ...operationProperties(understandOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, understandOperations);
	}
}
