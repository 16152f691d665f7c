import { MEDIA_MIME_TYPES } from '../api';
import { mediaFields } from '../fields';
import { MEDIA_SOURCES, mediaInput, mediaRef } from '../media';
import type { Context } from '../context';
import type { NodeSpec } from '../spec';

const BOTH = ['align', 'transcribe'];
const audioOf = (c: Context) => mediaRef(mediaInput(c, 'audio', MEDIA_MIME_TYPES.audio));

export const align: NodeSpec = {
	type: 'visionstory-align',
	label: 'align',
	icon: 'visionstory-align.svg',
	summary: 'Word timings of a recording and its text, or a transcription (with speakers and SRT).',
	operations: [
		{
			value: 'align',
			label: 'Align',
			description: 'Word timings of a recording against its known text',
			run: async (c) => ({
				payload: await c.call('alignAudio', { audio: audioOf(c), text: c.required('text') }),
			}),
		},
		{
			value: 'transcribe',
			label: 'Transcribe',
			description: 'The text of a recording, with word timings, speakers and SRT when asked',
			run: async (c) => ({
				payload: await c.call('transcribeAudio', {
					audio: audioOf(c),
					diarize: c.boolean('diarize') || undefined,
					srt: c.boolean('srt') || undefined,
				}),
			}),
		},
	],
	fields: [
		...mediaFields('audio', 'Audio', BOTH, MEDIA_SOURCES),
		{
			name: 'text',
			label: 'Text',
			type: 'text',
			default: '',
			ops: ['align'],
			override: true,
			tip: 'What is said in the recording. Or msg.text.',
		},
		{ name: 'diarize', label: 'Speakers', type: 'boolean', default: false, ops: ['transcribe'] },
		{ name: 'srt', label: 'SRT', type: 'boolean', default: false, ops: ['transcribe'] },
	],
};
