import type { INodeProperties } from 'n8n-workflow';

import { mediaSourceFields, mediaSources } from '../../../shared/descriptions/parameters';

/** The recording of Align and Transcribe: where it comes from, then the field for that source. */
export const audioInput: INodeProperties[] = [
	{
		displayName: 'Audio Source',
		name: 'audioSource',
		type: 'options',
		options: mediaSources,
		default: 'binary',
		description: 'The speech recording (WAV or MP3, up to 30 minutes)',
	},
	...mediaSourceFields('audio', 'Audio', {
		assets: true,
		binaryHint: 'Local files: WAV or MP3 up to 15 MB',
	}),
];

export const captions: INodeProperties = {
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
	description:
		'Whether to build captions from the word timings, grouped into readable cues, as files and as text',
};

export const breakOnSentenceEnd: INodeProperties = {
	displayName: 'Break at Sentence Ends',
	name: 'breakOnSentenceEnd',
	type: 'boolean',
	default: true,
	description: 'Whether a new cue starts after a sentence ends',
};

export const breakOnSpeakerChange: INodeProperties = {
	displayName: 'Break When the Speaker Changes',
	name: 'breakOnSpeakerChange',
	type: 'boolean',
	default: true,
	description: 'Whether a new cue starts when another speaker talks (with Identify Speakers)',
};

export const maxCharsPerLine: INodeProperties = {
	displayName: 'Characters per Line',
	name: 'maxCharsPerLine',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 42,
	description: 'Most characters on one line; Chinese, Japanese and Korean characters count as two',
};

export const fileName: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: 'captions',
	description: 'Name of the caption files, without extension (.srt and .vtt are added)',
};

export const maxLinesPerCue: INodeProperties = {
	displayName: 'Lines per Cue',
	name: 'maxLinesPerCue',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 2,
	description: 'Most lines shown at once',
};

export const maxCueDurationSec: INodeProperties = {
	displayName: 'Longest Cue (Seconds)',
	name: 'maxCueDurationSec',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 7,
	description: 'Most seconds one cue stays on screen',
};

export const pauseSec: INodeProperties = {
	displayName: 'New Cue After a Pause of (Seconds)',
	name: 'pauseSec',
	type: 'number',
	typeOptions: { minValue: 0.05, numberPrecision: 2 },
	default: 0.6,
	description: 'A silence at least this long between two words starts a new cue',
};

export const srtBinaryProperty: INodeProperties = {
	displayName: 'Put SRT File in Field',
	name: 'srtBinaryProperty',
	type: 'string',
	default: 'srt',
	hint: 'The name of the output binary field to put the SRT file in',
};

export const vttBinaryProperty: INodeProperties = {
	displayName: 'Put WebVTT File in Field',
	name: 'vttBinaryProperty',
	type: 'string',
	default: 'vtt',
	hint: 'The name of the output binary field to put the WebVTT file in',
};

export const captionOptions: INodeProperties = {
	displayName: 'Caption Options',
	name: 'captionOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { hide: { captions: ['none'] } },
	options: [
		breakOnSentenceEnd,
		breakOnSpeakerChange,
		maxCharsPerLine,
		fileName,
		maxLinesPerCue,
		maxCueDurationSec,
		pauseSec,
		srtBinaryProperty,
		vttBinaryProperty,
	],
};
