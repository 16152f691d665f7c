import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * An operation's description for its AI-tool variant (shown only there, `@tool`): `text` is what the
 * model is told. A video create has one per Wait for Completion setting (`waitForCompletion`).
 */
export function toolDescription(text: string, waitForCompletion?: boolean): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		displayOptions: {
			show:
				waitForCompletion === undefined
					? { '@tool': [true] }
					: { '@tool': [true], waitForCompletion: [waitForCompletion] },
		},
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	};
}

/**
 * The modes of every resource locator of the node, to spread into it: picked From List (searched with
 * `searchListMethod`) or given By ID.
 */
export function locatorModes(searchListMethod: string): Pick<INodeProperties, 'modes'> {
	return {
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true, searchFilterRequired: false },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a2b3c4d' },
		],
	};
}

const waitForCompletionAsTool: INodeProperties = {
	displayName: 'Wait for Completion',
	name: 'waitForCompletion',
	type: 'boolean',
	default: false,
	noDataExpression: true,
	displayOptions: { show: { '@tool': [true] } },
	description:
		'Whether the tool waits until the video is rendered (minutes). Off: it answers at once with the video ID and the model checks on it with a Check Status tool.',
};

export const downloadResult: INodeProperties = {
	displayName: 'Download Result',
	name: 'downloadResult',
	type: 'boolean',
	default: true,
	description: 'Whether to put a finished video into a binary field of the output item',
	displayOptions: { hide: { '@tool': [true] } },
};

/**
 * As a tool, files stay out unless asked for: n8n hands a model only the JSON of a tool's output and
 * drops its binary data (with a log line), so a download would cost time and memory for nothing.
 */
export const downloadResultAsTool: INodeProperties = {
	displayName: 'Download Result',
	name: 'downloadResult',
	type: 'boolean',
	default: false,
	description:
		'Whether to download the file into the tool’s output. An AI model gets only the JSON (the URL is in it): n8n drops a tool’s files, so leave this off unless you need the file in the execution data.',
	displayOptions: { show: { '@tool': [true] } },
};

/** Download Result of a create, shown while it waits. */
const downloadResultWhenWaiting: INodeProperties = {
	...downloadResult,
	displayOptions: { show: { waitForCompletion: [true] }, hide: { '@tool': [true] } },
};

const downloadResultWhenWaitingAsTool: INodeProperties = {
	...downloadResultAsTool,
	displayOptions: { show: { '@tool': [true], waitForCompletion: [true] } },
};

export const outputBinaryPropertyOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputBinaryProperty',
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** The field a download goes to, shown when Download Result is on. */
export const outputBinaryProperty: INodeProperties = {
	...outputBinaryPropertyOption,
	displayOptions: { show: { downloadResult: [true] } },
};

const outputBinaryPropertyWhenWaiting: INodeProperties = {
	...outputBinaryPropertyOption,
	displayOptions: { show: { waitForCompletion: [true], downloadResult: [true] } },
};

const pollIntervalSeconds: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollIntervalSeconds',
	type: 'number',
	typeOptions: { minValue: 5 },
	default: 10,
	noDataExpression: true,
	displayOptions: { show: { waitForCompletion: [true] } },
	description:
		'How often to check on the videos (applies to all items); VisionStory asks for at least 5 seconds',
};

const timeoutMinutes: INodeProperties = {
	displayName: 'Timeout (Minutes)',
	name: 'timeoutMinutes',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 30,
	displayOptions: { show: { waitForCompletion: [true] } },
	description:
		'How long to wait for each video before giving up. The video keeps rendering after a timeout; the error names its ID so you can fetch it later.',
};

/**
 * The waiting knobs of a video create, in the order the editor shows them: Wait for Completion (its
 * `hint` says how long the resource's videos take) and its tool-variant twin, Download Result, the
 * output field, Poll Interval and Timeout.
 */
export function waitingParameters(hint: string): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: true,
			noDataExpression: true,
			hint,
			displayOptions: { hide: { '@tool': [true] } },
			description:
				'Whether to wait until the videos are rendered (applies to all items). Turn off to return the video IDs at once (e.g. to answer a webhook) and pick the results up later with Check Status, Get or the VisionStory Trigger.',
		},
		waitForCompletionAsTool,
		downloadResultWhenWaiting,
		downloadResultWhenWaitingAsTool,
		outputBinaryPropertyWhenWaiting,
		pollIntervalSeconds,
		timeoutMinutes,
	];
}

export const idempotencyKey: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. order-1234',
	description:
		'Sending the same key again within 24 hours returns the original video instead of creating and charging a new one. Leave empty to let the node derive one per execution and item.',
};

export const maxCreditsPerExecution: INodeProperties = {
	displayName: 'Max Credits per Execution',
	name: 'maxCreditsPerExecution',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 0,
	description:
		"Refuse, before sending and with nothing charged, any call that would take this execution's VisionStory spend (all VisionStory nodes and tool calls of the execution together) past this many credits; 0 uses the credential's default (none when that is 0 too)",
};

export const requestsPerSecond: INodeProperties = {
	displayName: 'Requests per Second',
	name: 'requestsPerSecond',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
	default: 5,
	noDataExpression: true,
	description:
		'The most submissions and status checks the node sends to VisionStory per second, for all items together and shared with other executions on the same credential. The node slows down by itself when VisionStory answers that the key sends too many requests, and speeds up again slowly.',
};

export const validateOnly: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to only check every item and return its estimated cost, sending nothing that is charged (a dry ctx)',
};

export const returnAll: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	displayOptions: { show: { returnAll: [false] } },
	description: 'Max number of results to return',
};

export const spendOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [maxCreditsPerExecution, validateOnly],
};

/** How fast a voice reads a text: Text to Speech and a talking video's text script. */
export const speechRate: INodeProperties = {
	displayName: 'Speech Rate',
	name: 'speechRate',
	type: 'options',
	options: [
		{ name: 'Slow', value: 'slow' },
		{ name: 'Normal', value: 'normal' },
		{ name: 'Fast', value: 'fast' },
	],
	default: 'normal',
};

/** Where a file comes from, for media inputs that take no asset. */
export const fileSources: INodePropertyOptions[] = [
	{ name: 'Binary File', value: 'binary', description: 'A file from a previous node' },
	{ name: 'URL', value: 'url', description: 'A public link VisionStory can download' },
];

/** Where a media file comes from, for a media input or a list of media (References, Inputs) that take assets too. */
export const mediaSources: INodePropertyOptions[] = [
	...fileSources,
	{
		name: 'Asset',
		value: 'asset',
		description: 'A file already in your VisionStory asset library',
	},
];

/**
 * The fields of media input `name` after its source choice (`<name>Source`), each shown for its
 * source, under the names `ItemMedia` reads: `<name>BinaryProperty`, `<name>Url` and, with
 * `assets`, `<name>AssetId`; `label` begins their display names ("First Frame" → "First Frame URL").
 * `shownWith`: display conditions the whole input has (Script Type: Audio).
 */
export function mediaSourceFields(
	name: string,
	label: string,
	options: { assets?: boolean; binaryHint?: string; shownWith?: IDisplayOptions['show'] } = {},
): INodeProperties[] {
	const shownFor = (source: string) => ({
		show: { ...options.shownWith, [`${name}Source`]: [source] },
	});
	const fields: INodeProperties[] = [
		{
			displayName: `${label} Input Binary Field`,
			name: `${name}BinaryProperty`,
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: shownFor('binary'),
			hint: options.binaryHint ?? 'The name of the input binary field containing the file',
		},
		{
			displayName: `${label} URL`,
			name: `${name}Url`,
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/file',
			displayOptions: shownFor('url'),
			description: 'Public URL of the file',
		},
	];
	if (options.assets)
		fields.push({
			displayName: `${label} Asset`,
			name: `${name}AssetId`,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: true,
			description: 'A file from your VisionStory asset library',
			displayOptions: shownFor('asset'),
			...locatorModes('searchAssets'),
		});
	return fields;
}

/** The fields of one entry of a list of media, each shown for its source. */
const mediaEntryBinaryProperty: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryProperty',
	type: 'string',
	default: 'data',
	displayOptions: { show: { source: ['binary'] } },
	hint: 'The name of the input binary field containing the file',
};

const mediaEntryUrl: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	default: '',
	placeholder: 'https://example.com/file',
	displayOptions: { show: { source: ['url'] } },
	description: 'Public URL of the file',
};

const mediaEntryAssetId: INodeProperties = {
	displayName: 'Asset ID',
	name: 'assetId',
	type: 'string',
	default: '',
	displayOptions: { show: { source: ['asset'] } },
	description: 'ID of a file in your VisionStory asset library (see the Asset node)',
};

/**
 * The fields of one entry of a list of media (`ItemMedia.list` reads them by these names): where the
 * file comes from (`sourceDescription` says what it is), then the field for that source.
 */
export function mediaEntryValues(sourceDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Source',
			name: 'source',
			type: 'options',
			options: mediaSources,
			default: 'binary',
			description: sourceDescription,
		},
		mediaEntryBinaryProperty,
		mediaEntryUrl,
		mediaEntryAssetId,
	];
}

/** A video task's statuses, to filter a list by, labelled as everywhere (`descriptions/statuses.ts`). */
export const videoStatuses: INodePropertyOptions[] = [
	{ name: 'Queued', value: 'queued', description: 'Waiting to render (status queued)' },
	{ name: 'Rendering', value: 'creating', description: 'Rendering (status creating)' },
	{
		name: 'Ready',
		value: 'created',
		description: 'Rendered; the video can be downloaded (status created)',
	},
	{
		name: 'Failed',
		value: 'failed',
		description: 'Failed; its credits were refunded (status failed)',
	},
];

/** Filters of a video list: Status, read by `statusFilter` (`framework/lists.ts`); `statusDescription` says what to know of the resource's statuses. */
export function videoStatusFilters(statusDescription?: string): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: videoStatuses,
				default: [],
				...(statusDescription ? { description: statusDescription } : {}),
			},
		],
	};
}
