import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { MediaRef } from '../shared/api/contract';
import { MEDIA_MIME_TYPES, MIB } from '../shared/api/contract';
import { customOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { fileOutputOptions, mediaFields } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { captionParameters, checkCaptionOptions } from './captionOutput';
import { checkAlignDuration } from './duration';
import { alignAudio, transcribeAudio } from './speech';

const audioRules = { mimeTypes: MEDIA_MIME_TYPES.audio, maxBytes: { audio: 15 * MIB } };

const audio = mediaFields({
	name: 'audio',
	displayName: 'Audio',
	sources: ['binary', 'url', 'asset'],
	required: true,
	description: 'The speech recording (WAV or MP3, up to 30 minutes)',
	fileHint: 'Local files: WAV or MP3 up to 15 MB',
});

export const alignOperations: OperationDef[] = [
	customOperation({
		value: 'align',
		name: 'Align',
		action: 'Align text to audio',
		description: 'Get the start and end time of every word of a known text in a recording, and captions from them',
		toolDescription:
			'Align a known script with its audio: word timings and captions. Costs 1 credit per started 5 minutes of audio. Returns words with start and end times, duration_sec and cost_credit.',
		validateAs: 'alignAudio',
		media: [{ name: 'audio', rules: audioRules }],
		fieldParameters: { audio: 'audioSource', text: 'text' },
		request: (p, media) => ({ audio: media.audio as MediaRef, text: String(p.text ?? '') }),
		check: async (scope, items) => new Map([...(await checkAlignDuration(scope, items)), ...(await checkCaptionOptions(scope, items))]),
		runItem: alignAudio,
		properties: [
			...audio,
			{
				displayName: 'Text',
				name: 'text',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				description: 'Exactly what is said in the recording',
			},
			...captionParameters,
		],
	}),
	customOperation({
		value: 'transcribe',
		name: 'Transcribe',
		action: 'Transcribe audio',
		description: 'Turn speech into text with word timings and, optionally, SRT subtitles',
		toolDescription:
			'Transcribe speech audio to text with word timings. Costs 1 credit per started 5 minutes of audio. Returns text, words with times, duration_sec and cost_credit.',
		validateAs: 'transcribeAudio',
		media: [{ name: 'audio', rules: audioRules }],
		fieldParameters: { audio: 'audioSource', diarize: 'diarize', srt: 'srt' },
		request: (p, media) => ({ audio: media.audio as MediaRef, diarize: p.diarize === true, srt: p.srt === true }),
		check: checkCaptionOptions,
		runItem: transcribeAudio,
		properties: [
			...audio,
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
				description: "Whether to also get VisionStory's own SRT subtitles, as text and as a .srt file (Captions below builds them from the word timings, with your limits)",
			},
			{
				...fileOutputOptions({
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: 'transcript.srt',
					description: 'Name of the subtitle file in the output',
				}),
				displayOptions: { show: { srt: [true] } },
			},
			...captionParameters,
		],
	}),
];

export class VisionStoryAlign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Align',
		name: 'visionStoryAlign',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(alignOperations),
		description: 'Word timings and subtitles from speech with VisionStory',
		defaults: { name: 'VisionStory Align' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(alignOperations, 'align'), ...operationProperties(alignOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, alignOperations);
	}
}
