import { SPEECH_RATES } from '../api';
import { downloadFields, idField } from '../fields';
import { deliver } from '../media';
import type { NodeSpec } from '../spec';

const SYNTH = ['synthesize'];

export const textToSpeech: NodeSpec = {
	type: 'visionstory-text-to-speech',
	label: 'text to speech',
	icon: 'visionstory-text-to-speech.svg',
	summary: 'Speech (MP3) from a text, in one of the voices.',
	operations: [
		{
			value: 'synthesize',
			label: 'Synthesize',
			description:
				'An MP3 of the text (2 credits per started 1000 characters, at most 3000 a message)',
			run: async (c) => {
				const audio = await c.client.synthesizeSpeech(
					{
						text: c.script('text'),
						voice_id: c.required('voiceId'),
						locale: c.text('locale'),
						speech_rate: c.text('speechRate') as (typeof SPEECH_RATES)[number] | undefined,
					},
					c.options(),
				);
				const data = { ...audio.metadata, mime_type: audio.mimeType };
				if (!c.boolean('downloadResult')) {
					audio.stream.resume();
					return { payload: data, data };
				}
				const file = { stream: audio.stream, mimeType: audio.mimeType };
				return { payload: await deliver(c, file, audio.metadata.audio_id ?? 'speech', 0), data };
			},
		},
	],
	fields: [
		{
			name: 'text',
			label: 'Text',
			type: 'text',
			default: '',
			ops: SYNTH,
			override: true,
			tip: 'Or msg.text, or a text msg.payload.',
		},
		idField('voiceId', 'Voice', SYNTH, 'voices'),
		{
			name: 'speechRate',
			label: 'Speech rate',
			type: 'select',
			default: '',
			ops: SYNTH,
			options: [['', 'default'], ...SPEECH_RATES.map((v) => [v, v] as const)],
		},
		{
			name: 'locale',
			label: 'Locale',
			type: 'string',
			default: '',
			ops: SYNTH,
			override: true,
			placeholder: 'en-GB',
		},
		...downloadFields(SYNTH).map((f) =>
			f.name === 'downloadResult'
				? {
						...f,
						tip: 'On: msg.payload is the MP3 (a Buffer, or its path with Output File); off: only its duration, characters and cost.',
					}
				: f,
		),
	],
};
