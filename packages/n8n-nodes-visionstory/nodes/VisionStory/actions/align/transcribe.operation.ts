import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { VisionStoryError } from '../../../shared/api/errors';
import { withBinary } from '../../../shared/n8n/binary';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { optional } from '../../../shared/framework/mapping';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { estimateOf, sendWithMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import {
	maxCreditsPerExecution,
	outputBinaryPropertyOption,
	toolDescription,
	validateOnly,
} from '../../../shared/descriptions/parameters';
import { checkCaptionOptions, withCaptions } from './captionOutput';
import { readAudio } from './speech';
import { audioInput, captionOptions, captions } from './parameters';

const option: OperationOption = {
	name: 'Transcribe',
	value: 'transcribe',
	action: 'Transcribe audio',
	description: 'Turn speech into text with word timings and, optionally, SRT subtitles',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Transcribe speech audio to text with word timings. Costs 1 credit per started 5 minutes of audio. Returns text, words with times, duration_sec and cost_credit.',
	),
	...audioInput,
	{
		displayName: 'Identify Speakers',
		name: 'diarize',
		type: 'boolean',
		default: false,
		description: 'Whether to label each word with who spoke it',
	},
	{
		displayName: "VisionStory's Subtitles (SRT)",
		name: 'srt',
		type: 'boolean',
		default: true,
		description:
			"Whether to also get VisionStory's own SRT subtitles, as text and as a .srt file (Captions below builds them from the word timings, with your limits)",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: 'transcript.srt',
				description: 'Name of the subtitle file in the output',
			},
			maxCreditsPerExecution,
			outputBinaryPropertyOption,
			validateOnly,
		],
		displayOptions: { show: { srt: [true] } },
	},
	captions,
	captionOptions,
];

type TranscribeRequest = MediaRequest<'transcribeAudio'>;

/** One item's recording and choices, read by name, into the checked request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<TranscribeRequest> {
	const context = ctx.n8n;
	const { audio, media } = await readAudio(ctx, index, 'transcribeAudio');
	const request = ctx.client.validate('transcribeAudio', {
		audio,
		diarize: param.boolean(context, 'diarize', index),
		srt: param.boolean(context, 'srt', index),
	});
	return { request, media };
}

/** Caption limits out of range are refused before any item is sent. */
async function check(
	ctx: OperationContext,
	items: Array<Prepared<TranscribeRequest>>,
): Promise<Map<number, VisionStoryError>> {
	return await checkCaptionOptions(ctx, items);
}

/** Transcription; VisionStory's own SRT also comes as a .srt file, and captions built from the word timings when asked. */
async function execute(
	ctx: OperationContext,
	item: Prepared<TranscribeRequest>,
): Promise<INodeExecutionData[]> {
	const result = await sendWithMedia(ctx, 'transcribeAudio', item);
	let output: INodeExecutionData = { json: result as IDataObject };
	if (result.srt) {
		const options = param.collection(ctx.n8n, 'options', item.index);
		const fileName = optional(options.fileName) ?? 'transcript.srt';
		const binary = await ctx.n8n.helpers.prepareBinaryData(
			Buffer.from(result.srt, 'utf8'),
			fileName.endsWith('.srt') ? fileName : `${fileName}.srt`,
			'application/x-subrip',
		);
		output = withBinary(output, String(options.outputBinaryProperty || 'data'), binary);
	}
	return [await withCaptions(ctx, item.index, output, result.words ?? [])];
}

export const transcribe: Operation<TranscribeRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	check,
	// The client's price for the call: none is known before it is sent (the spend cap then counts it as at least one credit).
	estimate: estimateOf('transcribeAudio'),
	execute,
};
