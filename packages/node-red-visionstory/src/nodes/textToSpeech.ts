import { Readable } from 'node:stream';

import type { SpokenText } from '../api';
import {
	PartialSpeechError,
	SPEECH_RATES,
	VisionStoryError,
	checkedSpeech,
	invalidInput,
	speak,
} from '../api';
import type { Context } from '../context';
import { describe } from '../errors';
import { downloadFields, idField } from '../fields';
import { deliver } from '../media';
import type { Result } from '../operation';
import type { NodeSpec } from '../spec';

const SYNTH = ['synthesize'];

/** The text checked and cut into parts by the core, its problems named with the editor's labels. */
function speechRequest(c: Context) {
	try {
		return checkedSpeech({
			text: c.script('text'),
			voice_id: c.required('voiceId'),
			locale: c.text('locale'),
			speech_rate: c.text('speechRate') as (typeof SPEECH_RATES)[number] | undefined,
		});
	} catch (error) {
		if (error instanceof VisionStoryError && error.issues)
			throw invalidInput(c.operation, c.relabel(error.issues));
		throw error;
	}
}

/** The MP3 (a Buffer, or its path with Output File) or, with Download off, only its figures. */
async function output(c: Context, spoken: SpokenText): Promise<Result> {
	const data = spoken.details;
	if (!c.boolean('downloadResult')) {
		spoken.audio?.stream.resume();
		return { payload: data, data };
	}
	const file = spoken.audio
		? { stream: spoken.audio.stream, mimeType: spoken.audio.mimeType }
		: { stream: Readable.from([spoken.mp3]), mimeType: 'audio/mpeg' };
	const id = String(spoken.details.audio_id ?? 'speech');
	return { payload: await deliver(c, file, id, 0, 1, 'speech'), data };
}

/**
 * A text of any length up to the core's cap as one MP3 (`speak`: cut, priced and admitted whole,
 * spoken in parts, joined). When a part fails after others were charged, their audio still leaves
 * with the message (msg.visionstory.partial) by the failure output, with msg.error.
 */
async function synthesize(c: Context): Promise<Result> {
	const request = speechRequest(c);
	try {
		return await output(c, await speak(c.client, request, c.options(), c.instantScope()));
	} catch (error) {
		if (!(error instanceof PartialSpeechError)) throw error;
		return { ...(await output(c, error.spoken)), failure: describe(error) };
	}
}

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
				'One MP3 of a text of up to 100,000 characters, spoken in parts of at most 3000 and joined; the whole text is priced before the first part (2 credits per started 1000 characters of each part)',
			run: async (c) => await synthesize(c),
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
			tip: 'Up to 100,000 characters; over 3000 it is spoken in parts and joined into one MP3. Or msg.text, or a text msg.payload.',
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
