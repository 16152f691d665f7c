import { captionFiles } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/captions/captionFiles';
import {
	timingWarning,
	usableWords,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/captions/wordTimes';

/** Captions from the words an answer gives, whatever their times: made usable, never thrown over. */

const word = (text: string, start: unknown, end: unknown) => ({
	text,
	start_sec: start,
	end_sec: end,
});

test('words without times take the gap between their neighbours; an end before the start is the start', () => {
	const { words, notes } = usableWords([
		word('In', 0, 0.4),
		word('2024', null, null),
		word('we', 1, 0.98),
		word('grew', 1.1, 'soon'),
		word('fast.', undefined, 2),
	]);
	expect(words).toEqual([
		word('In', 0, 0.4),
		word('2024', 0.4, 1),
		word('we', 1, 1),
		word('grew', 1.1, 2),
		word('fast.', 2, 2),
	]);
	expect(notes).toMatchObject({
		untimed: ['2024', 'grew', 'fast.'],
		reversed: ['we'],
		skipped: 0,
		total: 5,
		noTimes: false,
	});
});

test('untimed words at the start wait for the first time known; entries without text are left out', () => {
	const { words, notes } = usableWords([
		word('Twenty', null, null),
		{ start_sec: 0.5, end_sec: 0.6 },
		word('one', 2, 2.5),
		'garbage',
	]);
	expect(words).toEqual([word('Twenty', 2, 2), word('one', 2, 2.5)]);
	expect(notes.skipped).toBe(2);
	expect(timingWarning(notes)).toBe(
		'Captions: 1 of 2 words came without times ("Twenty"): the captions show them with the words around them; 2 entries of words without text left out. The words themselves are as VisionStory answered them.',
	);
});

test('no word with a time: no captions, a warning, and no error', () => {
	const built = captionFiles([word('1', null, null), word('2', null, null)], 'both', {});
	expect(built).toEqual({
		cues: 0,
		files: [],
		warning:
			'Captions: no word came with times (2 words), so no captions were made. The words themselves are as VisionStory answered them.',
	});
});

test('good words, or none at all, make captions without a warning', () => {
	expect(captionFiles([word('Hi.', 0, 0.5)], 'srt', {}).warning).toBeUndefined();
	const empty = captionFiles([], 'vtt', {});
	expect(empty).toEqual({
		cues: 0,
		files: [{ format: 'vtt', fileName: 'captions.vtt', mimeType: 'text/vtt', text: 'WEBVTT\n' }],
	});
	expect(captionFiles(undefined, 'srt', {}).files).toHaveLength(1);
});

test('a limit the builder refuses at the last moment is a warning, not a failure', () => {
	const built = captionFiles([word('Hi.', 0, 0.5)], 'srt', { maxCharsPerLine: 0 });
	expect(built.files).toEqual([]);
	expect(built.warning).toMatch(/^Captions could not be made \(maxCharsPerLine must be/);
});
