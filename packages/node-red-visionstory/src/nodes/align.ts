import type { CaptionFormat } from '../api';
import {
	CAPTION_DEFAULTS,
	MEDIA_MIME_TYPES,
	captionFiles,
	captionFormat,
	captionLimitsIssue,
	toMediaRef,
} from '../api';
import type { Context } from '../context';
import type { Field } from '../field';
import { mediaFields } from '../fields';
import { MEDIA_SOURCES, mediaInput } from '../media';
import type { NodeSpec } from '../spec';

const BOTH = ['align', 'transcribe'];
const audioOf = (c: Context) => toMediaRef(mediaInput(c, 'audio', MEDIA_MIME_TYPES.audio));

/** The caption limits as the core names them, read from the node (msg may set each). */
function limitsOf(c: Context): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(CAPTION_DEFAULTS).map(([name, fallback]) => [
			name,
			typeof fallback === 'boolean' ? c.boolean(name) : c.number(name),
		]),
	);
}

/** The format asked for, and its limits, checked before anything is sent. */
function captionsAsked(c: Context): { format: CaptionFormat; limits: Record<string, unknown> } {
	const format = captionFormat(c.text('captions'));
	if (typeof format !== 'string') return c.fail('captions', format.message);
	// The limits are read only when captions are asked for: hidden in the editor otherwise.
	if (format === 'none') return { format, limits: {} };
	const limits = limitsOf(c);
	const issue = captionLimitsIssue(limits);
	if (issue) c.fail(issue.field, issue.message);
	return { format, limits };
}

/**
 * The answer with captions built from its word timings by the core, as text in `captions`. The answer
 * was paid for: what stood in the captions' way (words without times) is a warning, once, and
 * `captionWarning` beside the captions; the message goes on.
 */
function withCaptions<T extends { words?: unknown }>(
	c: Context,
	result: T,
	asked: ReturnType<typeof captionsAsked>,
): T | (T & { captions: Record<string, unknown>; captionWarning?: string }) {
	if (asked.format === 'none') return result;
	const built = captionFiles(result.words, asked.format, asked.limits);
	const captions: Record<string, unknown> = { cues: built.cues };
	for (const file of built.files) captions[file.format] = file.text;
	if (!built.warning) return { ...result, captions };
	c.host.warn(built.warning);
	return { ...result, captions, captionWarning: built.warning };
}

const number = (name: string, label: string, min: number, tip: string): Field => ({
	name,
	label,
	type: 'number',
	default: CAPTION_DEFAULTS[name as keyof typeof CAPTION_DEFAULTS] as number,
	ops: BOTH,
	override: true,
	min,
	showIf: { field: 'captions', values: ['srt', 'vtt', 'both'] },
	tip,
});

const toggle = (name: string, label: string): Field => ({
	name,
	label,
	type: 'boolean',
	default: true,
	ops: BOTH,
	showIf: { field: 'captions', values: ['srt', 'vtt', 'both'] },
});

export const align: NodeSpec = {
	type: 'visionstory-align',
	label: 'align',
	icon: 'visionstory-align.svg',
	summary:
		'Word timings of a recording and its text, or a transcription (with speakers and SRT); SRT and WebVTT captions from the word timings.',
	operations: [
		{
			value: 'align',
			label: 'Align',
			description: 'Word timings of a recording against its known text, and captions from them',
			run: async (c) => {
				const asked = captionsAsked(c);
				const result = await c.call('alignAudio', { audio: audioOf(c), text: c.required('text') });
				return { payload: withCaptions(c, result, asked) };
			},
		},
		{
			value: 'transcribe',
			label: 'Transcribe',
			description:
				'The text of a recording, with word timings, speakers and SRT when asked, and captions from the word timings',
			run: async (c) => {
				const asked = captionsAsked(c);
				const result = await c.call('transcribeAudio', {
					audio: audioOf(c),
					diarize: c.boolean('diarize') || undefined,
					srt: c.boolean('srt') || undefined,
				});
				return { payload: withCaptions(c, result, asked) };
			},
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
		{
			name: 'captions',
			label: 'Captions',
			type: 'select',
			default: 'none',
			ops: BOTH,
			override: true,
			options: [
				['none', 'none'],
				['srt', 'SRT'],
				['vtt', 'WebVTT'],
				['both', 'SRT and WebVTT'],
			],
			tip: 'Built from the word timings into readable cues: msg.payload.captions.srt / .vtt. Or msg.captions.',
		},
		number(
			'maxCharsPerLine',
			'Characters per line',
			1,
			'Chinese, Japanese and Korean characters count as two.',
		),
		number('maxLinesPerCue', 'Lines per cue', 1, 'Most lines shown at once.'),
		number('maxCueDurationSec', 'Longest cue (s)', 0.1, 'Most seconds one cue stays on screen.'),
		number(
			'pauseSec',
			'New cue after a pause of (s)',
			0.05,
			'A silence this long between two words starts a new cue.',
		),
		toggle('breakOnSentenceEnd', 'New cue after a sentence'),
		toggle('breakOnSpeakerChange', 'New cue when the speaker changes'),
	],
};
