import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { TaskStatus } from '../api/contract';
import { SPEECH_RATES, TASK_STATUSES } from '../api/contract';
import { DEFAULT_REQUESTS_PER_SECOND, MAX_REQUESTS_PER_SECOND } from '../api/requestBudget';

/**
 * Builders for the parameters every node shares, so one concept has one name and one wording
 * on every node (docs/architecture.md, the ui layer).
 */

export type MediaSource = 'binary' | 'url' | 'asset';

export interface MediaFieldOptions {
	/** Parameter prefix: `audio` gives audioSource, audioBinaryProperty, audioUrl, audioAssetId. */
	name: string;
	displayName: string;
	sources: readonly MediaSource[];
	/** What the file is for, shown under the source picker. */
	description: string;
	/** When absent the media is optional: a `none` source is offered and is the default. */
	required?: boolean;
	fileHint?: string;
}

const SOURCE_OPTIONS: Record<MediaSource, INodePropertyOptions> = {
	binary: { name: 'Binary File', value: 'binary', description: 'A file from a previous node' },
	url: { name: 'URL', value: 'url', description: 'A public link VisionStory can download' },
	asset: { name: 'Asset', value: 'asset', description: 'A file already in your VisionStory asset library' },
};

export function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** XSource, then XBinaryProperty / XUrl / XAssetId shown for the chosen source. */
export function mediaFields(options: MediaFieldOptions): INodeProperties[] {
	const { name, displayName, sources } = options;
	const sourceName = `${name}Source`;
	const sourceOptions = sources.map((s) => SOURCE_OPTIONS[s]);
	if (!options.required) sourceOptions.unshift({ name: 'None', value: 'none', description: `No ${displayName.toLowerCase()}` });
	const defaultSource = options.required ? sources[0] : 'none';
	const fields: INodeProperties[] = [
		{
			displayName: `${displayName} Source`,
			name: sourceName,
			type: 'options',
			options: sourceOptions,
			default: defaultSource,
			description: options.description,
		},
	];
	if (sources.includes('binary')) {
		fields.push({
			displayName: `${displayName} Input Binary Field`,
			name: `${name}BinaryProperty`,
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { [sourceName]: ['binary'] } },
			hint: options.fileHint ?? 'The name of the input binary field containing the file',
		});
	}
	if (sources.includes('url')) {
		fields.push({
			displayName: `${displayName} URL`,
			name: `${name}Url`,
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/file',
			displayOptions: { show: { [sourceName]: ['url'] } },
			description: 'Public URL of the file',
		});
	}
	if (sources.includes('asset')) {
		fields.push(assetLocator(`${name}AssetId`, `${displayName} Asset`, { show: { [sourceName]: ['asset'] } }));
	}
	return fields;
}

/** The same source choice inside a fixed collection entry (lists of media: refs, inputs). */
export function mediaCollectionValues(sources: readonly MediaSource[], kindHint: string): INodeProperties[] {
	const defaultSource = sources[0];
	return [
		{
			displayName: 'Source',
			name: 'source',
			type: 'options',
			options: sources.map((s) => SOURCE_OPTIONS[s]),
			default: defaultSource,
			description: kindHint,
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryProperty',
			type: 'string',
			default: 'data',
			displayOptions: { show: { source: ['binary'] } },
			hint: 'The name of the input binary field containing the file',
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/file',
			displayOptions: { show: { source: ['url'] } },
			description: 'Public URL of the file',
		},
		{
			displayName: 'Asset ID',
			name: 'assetId',
			type: 'string',
			default: '',
			displayOptions: { show: { source: ['asset'] } },
			description: 'ID of a file in your VisionStory asset library (see the Asset node)',
		},
	];
}

export function locator(
	name: string,
	displayName: string,
	searchListMethod: string,
	options: { description?: string; placeholder?: string; displayOptions?: INodeProperties['displayOptions']; required?: boolean } = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		displayOptions: options.displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder ?? 'e.g. 1a2b3c4d',
			},
		],
	};
}

export function assetLocator(name: string, displayName: string, displayOptions?: INodeProperties['displayOptions']) {
	return locator(name, displayName, 'searchAssets', {
		displayOptions,
		description: 'A file from your VisionStory asset library',
	});
}

export function returnAllLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

const downloadResult: INodeProperties = {
	displayName: 'Download Result',
	name: 'downloadResult',
	type: 'boolean',
	default: false,
	description: 'Whether to put a finished video into a binary field of the output item',
};

const outputBinaryProperty: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputBinaryProperty',
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** Whether a finished video goes into binary, and the field it goes to; one definition for every node. */
export function downloadResultFields(defaultValue: boolean, displayOptions?: INodeProperties['displayOptions']): INodeProperties[] {
	const show = displayOptions?.show ?? {};
	return [
		{ ...downloadResult, default: defaultValue, displayOptions },
		{ ...outputBinaryProperty, displayOptions: { ...displayOptions, show: { ...show, downloadResult: [true] } } },
	];
}

const waiting = { show: { waitForCompletion: [true] } };

/** Waiting knobs of the asynchronous creates (talking video, AI video). */
export function waitFields(renderHint: string, options: { concurrencyCap?: boolean } = {}): INodeProperties[] {
	const fields: INodeProperties[] = [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: true,
			// One wait spans all items, so it is set for the node, not per item.
			noDataExpression: true,
			hint: renderHint,
			displayOptions: { hide: { '@tool': [true] } },
			description:
				'Whether to wait until the videos are rendered (applies to all items). Turn off to return the video IDs at once (e.g. to answer a webhook) and pick the results up later with Check Status, Get or the VisionStory Trigger.',
		},
		{
			// As an AI tool the call answers within seconds with the video ID; the model checks the status with another tool.
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			displayOptions: { show: { '@tool': [true] } },
			description:
				'Whether the tool waits until the video is rendered (minutes). Off: it answers at once with the video ID and the model checks on it with a Check Status tool.',
		},
		...downloadResultFields(true, waiting),
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollIntervalSeconds',
			type: 'number',
			typeOptions: { minValue: 5 },
			default: 10,
			noDataExpression: true,
			displayOptions: waiting,
			description: 'How often to check on the videos (applies to all items); VisionStory asks for at least 5 seconds',
		},
		{
			displayName: 'Timeout (Minutes)',
			name: 'timeoutMinutes',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			displayOptions: waiting,
			description:
				'How long to wait for each video before giving up. The video keeps rendering after a timeout; the error names its ID so you can fetch it later.',
		},
	];
	if (!options.concurrencyCap) return fields;
	const notWaiting = { show: { waitForCompletion: [false] } };
	return [
		...fields,
		{
			displayName: 'At Concurrency Limit',
			name: 'atConcurrencyLimit',
			type: 'options',
			noDataExpression: true,
			displayOptions: notWaiting,
			options: [
				{
					name: 'Return an Error for the Item',
					value: 'returnError',
					description: 'The node answers within seconds; items over the limit are not sent and not charged',
				},
				{
					name: 'Hold Until a Slot Frees',
					value: 'holdForSlot',
					description: 'The node keeps items over the limit and sends each as soon as a render finishes, up to the hold limit',
				},
			],
			default: 'returnError',
			description: 'What to do with items your key cannot start now because it already renders as many AI videos as it may',
		},
		{
			displayName: 'Hold Limit (Minutes)',
			name: 'slotWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 5,
			displayOptions: { show: { ...notWaiting.show, atConcurrencyLimit: ['holdForSlot'] } },
			description: 'How long an item may wait for a free slot before it is returned as an error (nothing is charged for it)',
		},
	];
}

/** The request budget of the asynchronous creates: how fast the node may submit and check on videos. */
export const requestsPerSecondOption: INodeProperties = {
	displayName: 'Requests per Second',
	name: 'requestsPerSecond',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_REQUESTS_PER_SECOND, numberPrecision: 0 },
	default: DEFAULT_REQUESTS_PER_SECOND,
	noDataExpression: true,
	description:
		'The most submissions and status checks the node sends to VisionStory per second, for all items together and shared with other executions on the same credential. The node slows down by itself when VisionStory answers that the key sends too many requests, and speeds up again slowly.',
};

export const idempotencyKeyOption: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. order-1234',
	description:
		'Sending the same key again within 24 hours returns the original video instead of creating and charging a new one. Leave empty to let the node derive one per execution and item.',
};

export const binaryOutputOption = outputBinaryProperty;

/** The Filters collection of a Get Many operation. */
export function filters(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options };
}

/** One label per task status, wherever a status is shown or chosen. */
export const STATUS_LABELS: Record<TaskStatus, string> = {
	queued: 'Queued',
	creating: 'Rendering',
	created: 'Ready',
	failed: 'Failed',
};

/** A status's label; a status this package does not know yet is shown as the service wrote it. */
export function statusLabel(status: string): string {
	return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status as TaskStatus] : status;
}

const STATUS_DESCRIPTIONS: Record<TaskStatus, string> = {
	queued: 'Waiting to render (status queued)',
	creating: 'Rendering (status creating)',
	created: 'Rendered; the video can be downloaded (status created)',
	failed: 'Failed; its credits were refunded (status failed)',
};

/** Status choices, labelled the same everywhere. */
export function statusOptions(statuses: ReadonlyArray<TaskStatus> = TASK_STATUSES): INodePropertyOptions[] {
	return statuses.map((s) => ({ name: STATUS_LABELS[s], value: s, description: STATUS_DESCRIPTIONS[s] }));
}

export function statusFilter(description?: string): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'multiOptions',
		options: statusOptions(),
		default: [],
		description,
	};
}

export function speechRate(displayOptions?: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Speech Rate',
		name: 'speechRate',
		type: 'options',
		options: SPEECH_RATES.map((r) => ({ name: capitalize(r), value: r })),
		default: 'normal',
		displayOptions,
	};
}

/** Get operations can bring the video along when it is ready. */
export function downloadOnGet(show: NonNullable<INodeProperties['displayOptions']>['show'] = {}): INodeProperties[] {
	return downloadResultFields(false, Object.keys(show).length ? { show } : undefined);
}

/** The Options collection: the knobs most users leave alone. */
/** The spend cap options every charged operation has (merged into its Options). */
export const spendOptions: INodeProperties[] = [
	{
		displayName: 'Max Credits per Execution',
		name: 'maxCreditsPerExecution',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			"Refuse, before sending and with nothing charged, any call that would take this execution's VisionStory spend (all VisionStory nodes and tool calls of the execution together) past this many credits; 0 uses the credential's default (none when that is 0 too)",
	},
	{
		displayName: 'Validate Only',
		name: 'validateOnly',
		type: 'boolean',
		default: false,
		description: 'Whether to only check every item and return its estimated cost, sending nothing that is charged (a dry run)',
	},
];

export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

/** Options of operations that write one file: its name and the binary property. */
export function fileOutputOptions(fileName: INodeProperties): INodeProperties {
	return optionsCollection([fileName, binaryOutputOption]);
}

/** Check Status's parameters: the video (by default the incoming item's video_id) and the download. */
export function checkStatusProperties(videoId: INodeProperties): INodeProperties[] {
	return [
		{
			...videoId,
			default: { mode: 'id', value: '={{ $json.video_id }}' },
			hint: 'Finished videos leave by the Finished output; those still rendering by Still Rendering, which you connect back to a Wait node',
		},
		...downloadResultFields(true),
	];
}
