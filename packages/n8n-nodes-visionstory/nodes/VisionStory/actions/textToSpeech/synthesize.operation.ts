import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { binaryFromDownload, withBinary } from '../../../shared/n8n/binary';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { instantScope } from '../../../shared/framework/action';
import { optional } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import {
	locatorModes,
	maxCreditsPerExecution,
	outputBinaryPropertyOption,
	toolDescription,
	validateOnly,
	speechRate,
} from '../../../shared/descriptions/parameters';
import type { SpeechRequest, SpokenText } from '../../../shared/api/speech/longSpeech';
import {
	checkedSpeech,
	PartialSpeechError,
	speak,
	speechEstimate,
} from '../../../shared/api/speech/longSpeech';

const option: OperationOption = {
	name: 'Synthesize',
	value: 'synthesize',
	action: 'Convert text to speech',
	description: 'Turn a text of any length into one MP3 spoken by a voice of your choice',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Turn a text into speech (MP3) with a voice (voice ID from the voices tool). Costs 2 credits per started 1,000 characters. Returns duration_sec, characters, cost_credit and audio_id; the MP3 itself is not part of this answer (the service keeps no copy and gives no URL). Next: a talking video can speak the same text with the same voice.',
	),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description:
			"What to say, up to 100,000 characters. A text longer than 3,000 characters is spoken in parts, cut between paragraphs or sentences, and joined into one MP3. Charged per character: the cost is in the output (cost_credit); current prices are on VisionStory's pricing page.",
	},
	{
		displayName: 'Voice',
		name: 'voiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'A public voice or one you cloned',
		...locatorModes('searchVoices'),
	},
	speechRate,
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
				default: '',
				placeholder: 'e.g. welcome.mp3',
				description: 'Name of the MP3 file in the output',
			},
			{
				displayName: 'Locale',
				name: 'locale',
				type: 'string',
				default: '',
				placeholder: 'e.g. en-GB',
				description: "Steers pronunciation and accent (BCP 47); defaults to the voice's own locale",
			},
			maxCreditsPerExecution,
			outputBinaryPropertyOption,
			validateOnly,
		],
	},
];

/** One item's text, voice and settings, read by name; a longer text is cut into its parts here, before anything is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<SpeechRequest> {
	const context = ctx.n8n;
	return checkedSpeech({
		text: param.string(context, 'text', index),
		voice_id: param.id(context, 'voiceId', index),
		locale: optional(param.collection(context, 'options', index).locale),
		speech_rate: optional(param.string(context, 'speechRate', index)),
	});
}

/** What the whole text costs: every part is charged on its own. */
async function estimate(_ctx: OperationContext, request: SpeechRequest): Promise<number> {
	return speechEstimate(request);
}

/**
 * The item of a spoken text: the MP3 in the binary field chosen, named as chosen (else after the audio
 * or the voice), and what the core says of it in JSON.
 */
async function speechItem(
	ctx: OperationContext,
	item: Prepared<SpeechRequest>,
	spoken: SpokenText,
): Promise<INodeExecutionData> {
	const options = param.collection(ctx.n8n, 'options', item.index);
	const chosenName = optional(options.fileName)?.replace(/\.mp3$/i, '');
	const audioId = spoken.details.audio_id;
	const name =
		chosenName ??
		`speech-${typeof audioId === 'string' && audioId ? audioId : item.request.voice_id}`;
	const binary = spoken.audio
		? await binaryFromDownload(
				ctx.n8n,
				{ stream: spoken.audio.stream, mimeType: spoken.audio.mimeType },
				name,
				'audio/mpeg',
			)
		: await ctx.n8n.helpers.prepareBinaryData(spoken.mp3, `${name}.mp3`, 'audio/mpeg');
	const json = { ...spoken.details, file_name: binary.fileName } as IDataObject;
	return withBinary({ json }, String(options.outputBinaryProperty || 'data'), binary);
}

/**
 * The MP3 goes to binary; duration, characters and cost to JSON. A text longer than one call takes is
 * spoken in parts with the same voice, locale and speed, joined into one MP3 (`api/speech`).
 */
async function execute(
	ctx: OperationContext,
	item: Prepared<SpeechRequest>,
): Promise<INodeExecutionData[]> {
	return [
		await speechItem(
			ctx,
			item,
			await speak(ctx.client, item.request, { signal: ctx.signal }, instantScope(ctx, item.index)),
		),
	];
}

/**
 * What a failure after charged parts leaves: the parts made as one MP3 with what they cost and how
 * much of the text they speak; the router puts it out beside the error, whatever On Error says.
 */
async function keptOnFailure(
	ctx: OperationContext,
	item: Prepared<SpeechRequest>,
	error: unknown,
): Promise<INodeExecutionData | undefined> {
	return error instanceof PartialSpeechError
		? await speechItem(ctx, item, error.spoken)
		: undefined;
}

/** Long speech sends several charged calls per item, none of them the request as a whole: charged by this flag, priced by its own estimate. */
export const synthesize: Operation<SpeechRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	estimate,
	execute,
	keptOnFailure,
};
