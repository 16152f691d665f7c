import type { INodeProperties } from 'n8n-workflow';

import {
	ALL_MEDIA_MIME_TYPES,
	ASSET_MAX_BYTES,
	OutputSchema,
	UNDERSTAND_INPUTS_MAX,
} from '../../../shared/api/contract/index';
import type {
	Operation,
	OperationOption,
	OperationContext,
} from '../../../shared/framework/action';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { estimateOf, executeSending, ItemMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import {
	mediaEntryValues,
	spendOptions,
	toolDescription,
} from '../../../shared/descriptions/parameters';
import { understandSchema } from './schema';

const option: OperationOption = {
	name: 'Analyze',
	value: 'analyze',
	action: 'Analyze media into structured data',
	description:
		'Label or extract information from images, audio and video as JSON that follows your schema',
};

const properties: INodeProperties[] = [
	toolDescription(
		"Answer a question about images, audio or video as JSON fields. Costs credits by the model's usage (at least 1; known only afterwards). Returns output (the fields), usage and cost_credit.",
	),
	{
		displayName: 'Media',
		name: 'inputs',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Media',
		default: {
			input: [{ source: 'binary', binaryProperty: 'data' }],
		},
		description: '1 to 8 images, audio files or videos, in the order the model sees them',
		options: [
			{
				displayName: 'Media',
				name: 'input',
				values: mediaEntryValues('Where the file comes from'),
			},
		],
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder:
			'e.g. Describe the product in the photo and rate how suitable it is for a summer campaign',
		description: 'The task, and what each output field means',
	},
	{
		displayName: 'Schema',
		name: 'schemaMode',
		type: 'options',
		options: [
			{
				name: 'Field List',
				value: 'fields',
				description: 'List the fields you want; the node writes the JSON Schema',
			},
			{
				name: 'JSON Schema',
				value: 'json',
				description: 'Paste a JSON Schema (top level must be an object)',
			},
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
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: 'What the field means, for the model',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. mood',
					},
					{
						displayName: 'Required',
						name: 'required',
						type: 'boolean',
						default: true,
						description: 'Whether the model must always fill this field',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Boolean', value: 'boolean' },
							{ name: 'Integer', value: 'integer' },
							{ name: 'List of Text', value: 'array' },
							{ name: 'Number', value: 'number' },
							{ name: 'String', value: 'string' },
						],
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
		default:
			'{\n  "type": "object",\n  "properties": {\n    "summary": { "type": "string" }\n  },\n  "required": ["summary"]\n}',
		displayOptions: { show: { schemaMode: ['json'] } },
		description:
			'JSON Schema (draft 2020-12 subset); keep it flat, with enums for fixed label sets',
	},
	spendOptions,
];

/** Analyses in flight at once: fewer than other operations, as each sends media and runs a model for a while. */
const CONCURRENCY = 3;

type AnalyzeRequest = MediaRequest<'understandMedia'>;

/** One item's parameters, read by name, into the checked analyze request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<AnalyzeRequest> {
	const context = ctx.n8n;
	const media = new ItemMedia(context, index);
	const inputs = await media.list(
		'inputs',
		{ mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES },
		{ entry: 'input', min: 1, max: UNDERSTAND_INPUTS_MAX },
	);
	media.check('analyze');
	const request = ctx.client.validate('understandMedia', {
		inputs,
		prompt: param.string(context, 'prompt', index),
		schema: param.checked('schemaMode', understandSchema(context, index), OutputSchema),
	});
	return { request, media: media.inputs };
}

export const analyze: Operation<AnalyzeRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	estimate: estimateOf('understandMedia'),
	execute: executeSending('understandMedia'),
	concurrency: CONCURRENCY,
};
