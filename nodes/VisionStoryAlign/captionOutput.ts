import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { VisionStoryError } from '../shared/api/errors';
import { invalidInput } from '../shared/api/errors';
import { withBinary } from '../shared/n8n/binary';
import type { Params, Prepared, Scope } from '../shared/framework/operation';
import type { CaptionOptions, WordTiming } from './captions';
import { buildCaptions, CAPTION_DEFAULTS, CaptionError, captionOptions } from './captions';

/** Captions built here from the word timings: as files and as text, in the formats the user picks. */
export const captionParameters: INodeProperties[] = [
	{
		displayName: 'Captions',
		name: 'captions',
		type: 'options',
		options: [
			{ name: 'None', value: 'none' },
			{ name: 'SRT', value: 'srt', description: 'For video editors' },
			{ name: 'SRT and WebVTT', value: 'both' },
			{ name: 'WebVTT', value: 'vtt', description: 'For web players' },
		],
		default: 'none',
		description: 'Whether to build captions from the word timings, grouped into readable cues, as files and as text',
	},
	{
		displayName: 'Caption Options',
		name: 'captionOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { hide: { captions: ['none'] } },
		options: [
			{
				displayName: 'Break at Sentence Ends',
				name: 'breakOnSentenceEnd',
				type: 'boolean',
				default: true,
				description: 'Whether a new cue starts after a sentence ends',
			},
			{
				displayName: 'Break When the Speaker Changes',
				name: 'breakOnSpeakerChange',
				type: 'boolean',
				default: true,
				description: 'Whether a new cue starts when another speaker talks (with Identify Speakers)',
			},
			{
				displayName: 'Characters per Line',
				name: 'maxCharsPerLine',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 42,
				description: 'Most characters on one line; Chinese, Japanese and Korean characters count as two',
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: 'captions',
				description: 'Name of the caption files, without extension (.srt and .vtt are added)',
			},
			{
				displayName: 'Lines per Cue',
				name: 'maxLinesPerCue',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 2,
				description: 'Most lines shown at once',
			},
			{
				displayName: 'Longest Cue (Seconds)',
				name: 'maxCueDurationSec',
				type: 'number',
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				default: 7,
				description: 'Most seconds one cue stays on screen',
			},
			{
				displayName: 'New Cue After a Pause of (Seconds)',
				name: 'pauseSec',
				type: 'number',
				typeOptions: { minValue: 0.05, numberPrecision: 2 },
				default: 0.6,
				description: 'A silence at least this long between two words starts a new cue',
			},
			{
				displayName: 'Put SRT File in Field',
				name: 'srtBinaryProperty',
				type: 'string',
				default: 'srt',
				hint: 'The name of the output binary field to put the SRT file in',
			},
			{
				displayName: 'Put WebVTT File in Field',
				name: 'vttBinaryProperty',
				type: 'string',
				default: 'vtt',
				hint: 'The name of the output binary field to put the WebVTT file in',
			},
		],
	},
];

/** The parameter names of the limits, in the terms of the caption builder. */
function limitsOf(params: Params): CaptionOptions {
	const options = (params.captionOptions as IDataObject | undefined) ?? {};
	const limits: CaptionOptions = {};
	for (const key of Object.keys(CAPTION_DEFAULTS) as Array<keyof CaptionOptions>) {
		if (options[key] !== undefined && options[key] !== null && options[key] !== '') (limits as IDataObject)[key] = options[key];
	}
	return limits;
}

function limitsProblem(params: Params): CaptionError | undefined {
	try {
		captionOptions(limitsOf(params));
		return undefined;
	} catch (error) {
		// The builder reports bad limits as CaptionError; anything else is a bug and surfaces as one.
		return error instanceof CaptionError ? error : new CaptionError('words', String(error));
	}
}

/** Caption limits are checked with everything else, before anything is sent. */
export async function checkCaptionOptions(_scope: Scope, items: Prepared[]): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	for (const item of items) {
		if ((item.params.captions ?? 'none') === 'none') continue;
		const problem = limitsProblem(item.params);
		if (problem) rejected.set(item.index, invalidInput('captions', [{ field: problem.option, message: problem.message.replace(`${problem.option} `, '') }]));
	}
	return rejected;
}

/** The item with the captions the user asked for: text in `captions`, files in their binary fields. */
export async function withCaptions(scope: Scope, item: Prepared, output: INodeExecutionData, words: WordTiming[]): Promise<INodeExecutionData> {
	const format = String(item.params.captions ?? 'none');
	if (format === 'none') return output;
	const built = buildCaptions(words, limitsOf(item.params));
	const options = (item.params.captionOptions as IDataObject | undefined) ?? {};
	const base = String(options.fileName || 'captions').replace(/\.(srt|vtt)$/i, '');
	const text: IDataObject = { cues: built.cues.length };
	let result: INodeExecutionData = output;
	if (format === 'srt' || format === 'both') {
		text.srt = built.srt;
		const file = await scope.context.helpers.prepareBinaryData(Buffer.from(built.srt, 'utf8'), `${base}.srt`, 'application/x-subrip');
		result = withBinary(result, String(options.srtBinaryProperty || 'srt'), file);
	}
	if (format === 'vtt' || format === 'both') {
		text.vtt = built.vtt;
		const file = await scope.context.helpers.prepareBinaryData(Buffer.from(built.vtt, 'utf8'), `${base}.vtt`, 'text/vtt');
		result = withBinary(result, String(options.vttBinaryProperty || 'vtt'), file);
	}
	return { ...result, json: { ...result.json, captions: text } };
}
