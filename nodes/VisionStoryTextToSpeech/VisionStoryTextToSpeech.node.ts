import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SPEECH_RATES, TTS_TEXT_MAX } from '../shared/api/contract';
import { customOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { optional, optionsOf } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { binaryOutputOption, locator, optionsCollection, speechRate } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { estimateSpeech, SpeechRequest, synthesizeSpeech } from './synthesize';
import { SCRIPT_MAX_CHARS } from './textParts';

export const textToSpeechOperations: OperationDef[] = [
	customOperation({
		value: 'synthesize',
		name: 'Synthesize',
		action: 'Convert text to speech',
		description: 'Turn a text of any length into one MP3 spoken by a voice of your choice',
		toolDescription:
			'Turn a text into speech (MP3) with a voice (voice ID from the voices tool). Costs 2 credits per started 1,000 characters. Returns duration_sec, characters, cost_credit and audio_id; the MP3 stays in the workflow as a file (the service keeps no copy and gives no URL). Next: a talking video can speak the same text with the same voice.',
		schema: SpeechRequest,
		fieldParameters: { text: 'text', voice_id: 'voiceId', locale: 'locale', speech_rate: 'speechRate' },
		request: (p) => ({
			text: String(p.text ?? ''),
			voice_id: String(p.voiceId ?? ''),
			locale: optional(optionsOf(p).locale),
			speech_rate: optional(p.speechRate) as (typeof SPEECH_RATES)[number] | undefined,
		}),
		runItem: synthesizeSpeech,
		charged: true,
		estimate: estimateSpeech,
		properties: [
			{
				displayName: 'Text',
				name: 'text',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				description: `What to say, up to ${SCRIPT_MAX_CHARS.toLocaleString('en-US')} characters. A text longer than ${TTS_TEXT_MAX.toLocaleString('en-US')} characters is spoken in parts, cut between paragraphs or sentences, and joined into one MP3. Charged per character: the cost is in the output (cost_credit); current prices are on VisionStory's pricing page.`,
			},
			locator('voiceId', 'Voice', 'searchVoices', { description: 'A public voice or one you cloned' }),
			speechRate(),
			optionsCollection([
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
				binaryOutputOption,
			]),
		],
	}),
];

export class VisionStoryTextToSpeech implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Text to Speech',
		name: 'visionStoryTextToSpeech',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(textToSpeechOperations),
		description: 'Turn text into natural speech (MP3) with VisionStory voices',
		defaults: { name: 'VisionStory Text to Speech' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(textToSpeechOperations, 'synthesize'), ...operationProperties(textToSpeechOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, textToSpeechOperations);
	}
}
