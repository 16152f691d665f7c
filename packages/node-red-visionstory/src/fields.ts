/** Properties more than one node shows, named as in the n8n nodes (the shared vocabulary). */
import type { Field, PickerList } from './field';

export function idField(
	name: string,
	label: string,
	ops: readonly string[],
	list?: PickerList,
	tip?: string,
): Field {
	return {
		name,
		label,
		type: list ? 'picker' : 'string',
		default: '',
		ops,
		override: true,
		...(list ? { list } : {}),
		...(tip ? { tip } : {}),
	};
}

/** The task a Get, Check or Delete is about: empty takes msg.payload.video_id, as a create leaves it. */
export function videoIdField(ops: readonly string[]): Field {
	return idField(
		'videoId',
		'Video ID',
		ops,
		undefined,
		'Left empty (and no msg.videoId): msg.payload.video_id, what Create sends on. Several: comma-separated, or an array.',
	);
}

export function waitFields(ops: readonly string[]): Field[] {
	const waiting = { field: 'waitForCompletion', values: [true] } as const;
	return [
		{
			name: 'waitForCompletion',
			label: 'Wait for completion',
			type: 'boolean',
			default: true,
			ops,
			tip: 'Off: sends the new video IDs on at once; Check Status or a Watch node picks them up later.',
		},
		{
			name: 'pollIntervalSeconds',
			label: 'Poll every (s)',
			type: 'number',
			default: 10,
			min: 5,
			ops,
			showIf: waiting,
		},
		{
			name: 'timeoutMinutes',
			label: 'Timeout (min)',
			type: 'number',
			default: 30,
			min: 1,
			ops,
			showIf: waiting,
		},
	];
}

export function downloadFields(ops: readonly string[]): Field[] {
	return [
		{
			name: 'downloadResult',
			label: 'Download result',
			type: 'boolean',
			default: true,
			ops,
			tip: 'On: msg.payload is the file (a Buffer, or its path with Output File); off: the API data with its URLs.',
		},
		{
			name: 'outputFile',
			label: 'Output file',
			type: 'string',
			default: '',
			ops,
			override: true,
			showIf: { field: 'downloadResult', values: [true] },
			tip: 'Streams the file to this path instead of memory (large videos); {id}, {index}, {ext} are filled in. In a batch, a path naming neither {id} nor {index} is numbered per result: video.mp4 → video-1.mp4, video-2.mp4… Empty: msg.outputFile, else a Buffer.',
		},
	];
}

export function idempotencyField(ops: readonly string[]): Field {
	return {
		name: 'idempotencyKey',
		label: 'Idempotency key',
		type: 'string',
		default: '',
		ops,
		override: true,
		tip: 'Empty (and no msg.idempotencyKey): derived from the message, the node and the entry, so the same message sent again never creates or charges twice.',
	};
}

export function listFields(ops: readonly string[]): Field[] {
	return [
		{ name: 'returnAll', label: 'Return all', type: 'boolean', default: false, ops },
		{
			name: 'limit',
			label: 'Limit',
			type: 'number',
			default: 50,
			min: 1,
			ops,
			override: true,
			showIf: { field: 'returnAll', values: [false] },
		},
	];
}

/** A media input: where the file comes from, then the property, URL or asset ID. */
export function mediaFields(
	name: string,
	label: string,
	ops: readonly string[],
	sources: readonly (readonly [string, string])[],
	defaultSource = 'binary',
): Field[] {
	const source = `${name}Source`;
	return [
		{ name: source, label, type: 'select', default: defaultSource, ops, options: sources },
		{
			name: `${name}BinaryProperty`,
			label: 'Buffer in',
			type: 'property',
			default: 'payload',
			ops,
			showIf: { field: source, values: ['binary'] },
			tip: 'The message property holding the file as a Buffer (msg.mimetype helps when the type cannot be told from the bytes).',
		},
		{
			name: `${name}Url`,
			label: 'URL',
			type: 'string',
			default: '',
			ops,
			override: true,
			showIf: { field: source, values: ['url'] },
			tip: `A public https link. A msg.${name}Url also switches the source above to URL.`,
		},
		{
			name: `${name}AssetId`,
			label: 'Asset ID',
			type: 'string',
			default: '',
			ops,
			override: true,
			showIf: { field: source, values: ['asset'] },
			tip: `A msg.${name}AssetId also switches the source above to Asset ID.`,
		},
	];
}
