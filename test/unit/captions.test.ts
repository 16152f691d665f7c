import stringWidth from 'string-width';
import { parseSync, type NodeCue } from 'subtitle';
import { WebVTTParser } from 'webvtt-parser';
import {
	buildCaptions,
	buildCues,
	CAPTION_DEFAULTS,
	CaptionError,
	captionOptions,
	type CaptionOptions,
	type Cue,
	type WordTiming,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/captions/captions';
import { joinMp3 } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { splitScript } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/textParts';
import { startEmulator } from '../emulator';
import { createPrng } from '../emulator/prng';
import { api } from '../emulator/testkit';
import { cjkScript, englishScript } from './scripts';

// The parser's built-in entity map lacks the ";" forms and decodes "&amp;" as "&;"; its full HTML map is right.
const ENTITIES = require('webvtt-parser/html-entities.json');

/** Words of a script with speech-like timing: varied lengths, short gaps, now and then a pause; speakers if asked. */
function timedWords(tokens: string[], seed: number, speakers = false): WordTiming[] {
	const rand = createPrng(seed);
	let t = 0.3;
	let speaker = 0;
	return tokens.map((text) => {
		const start = t;
		const end = start + 0.12 + rand() * 0.4;
		t = end + (rand() < 0.06 ? 0.6 + rand() : rand() * 0.15);
		if (speakers && rand() < 0.05) speaker = 1 - speaker;
		return speakers
			? { text, start_sec: start, end_sec: end, speaker: `SPEAKER_0${speaker}` }
			: { text, start_sec: start, end_sec: end };
	});
}

const ms = (sec: number): number => Math.round(sec * 1000);

/** What every caption set must satisfy, checked without the module's own helpers. */
function expectValidCues(
	words: WordTiming[],
	cues: Cue[],
	options: CaptionOptions = {},
	joiner = ' ',
): void {
	const o = { ...CAPTION_DEFAULTS, ...options };
	const spoken = words.map((w, i) => [w.text.trim(), i] as const).filter(([text]) => text !== '');
	let nextWord = 0;
	let prevEnd = 0;
	cues.forEach((cue, k) => {
		expect(cue.index).toBe(k + 1);
		// Times: forward, not overlapping, within the longest duration, whole milliseconds.
		for (const t of [cue.start_sec, cue.end_sec])
			expect(Math.abs(t * 1000 - ms(t))).toBeLessThan(1e-6);
		expect(cue.end_sec).toBeGreaterThan(cue.start_sec);
		expect(cue.start_sec).toBeGreaterThanOrEqual(prevEnd);
		expect(ms(cue.end_sec) - ms(cue.start_sec)).toBeLessThanOrEqual(o.maxCueDurationSec * 1000);
		prevEnd = cue.end_sec;
		// Lines: at most so many, each at most so wide on screen.
		expect(cue.lines.length).toBeGreaterThanOrEqual(1);
		expect(cue.lines.length).toBeLessThanOrEqual(o.maxLinesPerCue);
		for (const line of cue.lines) {
			expect(stringWidth(line)).toBeLessThanOrEqual(o.maxCharsPerLine);
			expect(line).toBe(line.trim());
		}
		expect(cue.text).toBe(cue.lines.join('\n'));
		// Words: the next ones in order, each once.
		const own = spoken.filter(([, i]) => i >= cue.firstWord && i <= cue.lastWord);
		expect(own.length).toBeGreaterThan(0);
		expect(spoken.findIndex(([, i]) => i === cue.firstWord)).toBe(nextWord);
		nextWord += own.length;
		expect(cue.lines.join(joiner)).toBe(own.map(([text]) => text).join(joiner));
		expect(cue.start_sec).toBeGreaterThanOrEqual(ms(words[cue.firstWord].start_sec) / 1000);
		expect(cue.end_sec).toBeLessThanOrEqual(
			Math.max(ms(words[cue.lastWord].end_sec), ms(cue.start_sec) + 1) / 1000,
		);
		// No cue runs over a sentence end, a pause or a change of speaker.
		for (let j = 1; j < own.length; j++) {
			const a = words[own[j - 1][1]];
			const b = words[own[j][1]];
			if (o.breakOnSentenceEnd) expect(a.text).not.toMatch(/[.!?。！？]$/);
			expect(b.start_sec - a.end_sec).toBeLessThan(o.pauseSec);
			if (o.breakOnSpeakerChange) expect(b.speaker).toBe(a.speaker);
		}
	});
	expect(nextWord).toBe(spoken.length);
}

/** The files, read back by real parsers, give the same cues. */
function expectFilesParse(cues: Cue[], srt: string, vtt: string): void {
	const fromSrt = parseSync(srt).filter((n): n is NodeCue => n.type === 'cue');
	expect(fromSrt.map((n) => [n.data.start, n.data.end, n.data.text])).toEqual(
		cues.map((c) => [ms(c.start_sec), ms(c.end_sec), c.text]),
	);
	expect(srt).toMatch(/^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n/);

	const parsed = new WebVTTParser(ENTITIES).parse(vtt, 'subtitles');
	expect(parsed.errors).toEqual([]);
	expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
	const text = (node: { type?: string; value?: unknown; children?: unknown[] }): string =>
		node.type === 'text'
			? String(node.value)
			: (node.children ?? []).map((c) => text(c as typeof node)).join('');
	expect(parsed.cues.map((c) => [ms(c.startTime), ms(c.endTime), text(c.tree as never)])).toEqual(
		cues.map((c) => [ms(c.start_sec), ms(c.end_sec), c.text]),
	);
}

describe('captions', () => {
	test('defaults: 42 columns, 2 lines, 7 seconds, a 0.6 s pause, sentence and speaker breaks', () => {
		expect(captionOptions()).toEqual({
			maxCharsPerLine: 42,
			maxLinesPerCue: 2,
			maxCueDurationSec: 7,
			pauseSec: 0.6,
			breakOnSentenceEnd: true,
			breakOnSpeakerChange: true,
		});
	});

	test('a long English voice-over: every word once and in order, no limit broken, both files parse to the same cues', () => {
		const words = timedWords(englishScript(6000, 21).split(/\s+/), 5);
		const { cues, srt, vtt } = buildCaptions(words);
		expectValidCues(words, cues);
		expectFilesParse(cues, srt, vtt);
		// Readable, not one word a cue: most cues use most of a line.
		const avgWords = words.length / cues.length;
		expect(avgWords).toBeGreaterThan(4);
	});

	test.each([
		{ maxCharsPerLine: 32, maxLinesPerCue: 1, maxCueDurationSec: 3, pauseSec: 0.3 },
		{ maxCharsPerLine: 60, maxLinesPerCue: 3, maxCueDurationSec: 12, pauseSec: 2 },
		{
			maxCharsPerLine: 20,
			maxLinesPerCue: 2,
			maxCueDurationSec: 2.5,
			pauseSec: 1,
			breakOnSentenceEnd: false,
			breakOnSpeakerChange: false,
		},
	])('user limits %o are kept', (options) => {
		const words = timedWords(englishScript(3000, 22).split(/\s+/), 6, true);
		const { cues, srt, vtt } = buildCaptions(words, options);
		expectValidCues(words, cues, options);
		expectFilesParse(cues, srt, vtt);
	});

	test('lines are split at word boundaries and balanced, after punctuation when it costs little', () => {
		const text = 'We filmed the explainer in one afternoon, and the whole team loved the result.';
		const words = text
			.split(' ')
			.map((w, i) => ({ text: w, start_sec: i * 0.3, end_sec: i * 0.3 + 0.25 }));
		const cues = buildCues(words);
		expect(cues).toHaveLength(1);
		const [top, bottom] = cues[0].lines;
		expect(`${top} ${bottom}`).toBe(text);
		expect(top).toMatch(/,$/);
		expect(Math.abs(stringWidth(top) - stringWidth(bottom))).toBeLessThan(10);
		// Without the comma the split is the most even one.
		const plain = buildCues(
			words.map((w) => ({ ...w, text: w.text.replace(',', '') })),
		)[0].lines.map((l) => stringWidth(l));
		expect(Math.abs(plain[0] - plain[1])).toBeLessThanOrEqual(
			Math.max(...words.map((w) => w.text.length)) + 1,
		);
	});

	test('sentence ends, pauses and speaker changes start new cues', () => {
		const at = (text: string, start: number, speaker?: string): WordTiming => ({
			text,
			start_sec: start,
			end_sec: start + 0.2,
			speaker,
		});
		const words = [
			at('Hello', 0),
			at('there.', 0.25),
			at('How', 0.5),
			at('are', 0.75),
			at('you', 1.0),
			at('today', 1.8),
			at('my', 2.05, 'B'),
			at('friend?', 2.3, 'B'),
		];
		words.slice(0, 6).forEach((w) => (w.speaker = 'A'));
		const cues = buildCues(words);
		expect(cues.map((c) => c.text)).toEqual(['Hello there.', 'How are you', 'today', 'my friend?']);
		expect(cues.map((c) => c.speaker)).toEqual(['A', 'A', 'A', 'B']);
		expect(
			buildCues(words, { breakOnSentenceEnd: false, breakOnSpeakerChange: false, pauseSec: 5 }).map(
				(c) => c.text,
			),
		).toEqual(['Hello there. How are you today my friend?']);
		// "Mr." is a title, not a sentence end.
		expect(
			buildCues([at('Ask', 0), at('Mr.', 0.25), at('Smith.', 0.5)]).map((c) => c.text),
		).toEqual(['Ask Mr. Smith.']);
	});

	test.each(['zh', 'ja'] as const)(
		'%s: words joined without spaces, lines at most 42 columns (21 characters)',
		(language) => {
			const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
			const tokens = Array.from(segmenter.segment(cjkScript(1500, language, 30)), (s) => s.segment);
			const words = timedWords(tokens, 8);
			const { cues, srt, vtt } = buildCaptions(words);
			expectValidCues(words, cues, {}, '');
			expectFilesParse(cues, srt, vtt);
			for (const cue of cues) expect(cue.text).not.toMatch(/ /);
			expect(Math.max(...cues.flatMap((c) => c.lines.map((l) => stringWidth(l))))).toBeGreaterThan(
				30,
			);
		},
	);

	test('mixed scripts and punctuation tokens: spaces only where the language has them', () => {
		const tokens = [
			'我们',
			'用',
			'VisionStory',
			'做',
			'视频',
			'。',
			'Then',
			'we',
			'said',
			'hello',
			'(',
			'quietly',
			')',
			',',
			'and',
			'left',
			'.',
		];
		const words = tokens.map((text, i) => ({ text, start_sec: i * 0.2, end_sec: i * 0.2 + 0.15 }));
		expect(buildCues(words).map((c) => c.lines.join(' '))).toEqual([
			'我们用 VisionStory 做视频。',
			'Then we said hello (quietly), and left.',
		]);
	});

	test('a word wider than a line is broken at grapheme boundaries, the only word that is; a word longer than the longest cue is cut off in time', () => {
		const url = 'https://example.com/' + 'very-long-path-segment/'.repeat(6) + '👩‍👩‍👧‍👦';
		const words: WordTiming[] = [
			{ text: 'Visit', start_sec: 0, end_sec: 0.3 },
			{ text: url, start_sec: 0.35, end_sec: 4 },
			{ text: 'now', start_sec: 4.05, end_sec: 4.3 },
			{ text: 'Hmmmmmmm.', start_sec: 4.35, end_sec: 14.35 },
		];
		const cues = buildCues(words);
		const lines = cues.flatMap((c) => c.lines);
		for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(42);
		expect(
			cues
				.map((c) => c.lines.join(''))
				.join('')
				.replace(/ /g, ''),
		).toBe(words.map((w) => w.text).join(''));
		expect(lines.some((l) => l.includes('👩‍👩‍👧‍👦'))).toBe(true);
		const last = cues.at(-1)!;
		expect(last.text).toBe('Hmmmmmmm.');
		expect(last.end_sec - last.start_sec).toBeCloseTo(7, 3);
		for (let k = 1; k < cues.length; k++)
			expect(cues[k].start_sec).toBeGreaterThanOrEqual(cues[k - 1].end_sec);
	});

	test('overlapping, zero-length and out-of-order timings still give cues that never overlap or go back', () => {
		const rand = createPrng(99);
		const words = englishScript(2000, 23)
			.split(/\s+/)
			.map((text, i) => {
				const start = Math.max(0, i * 0.3 + (rand() - 0.5) * 0.8);
				return { text, start_sec: start, end_sec: start + (rand() < 0.1 ? 0 : rand() * 0.6) };
			});
		const { cues, srt, vtt } = buildCaptions(words, { pauseSec: 10 });
		let prev = 0;
		for (const cue of cues) {
			expect(cue.start_sec).toBeGreaterThanOrEqual(prev);
			expect(cue.end_sec).toBeGreaterThan(cue.start_sec);
			prev = cue.end_sec;
		}
		expect(cues.map((c) => c.lines.join(' ')).join(' ')).toBe(words.map((w) => w.text).join(' '));
		expectFilesParse(cues, srt, vtt);
	});

	test('WebVTT escapes markup and "-->" in words; blank words are left out; times past an hour', () => {
		const words = ['Use', '<b>bold</b>', '&', 'arrows', '-->', 'safely.', '  ', 'Done.'].map(
			(text, i) => ({ text, start_sec: 6000 + i, end_sec: 6000 + i + 0.5 }),
		);
		const { cues, srt, vtt } = buildCaptions(words, { pauseSec: 5 });
		expect(vtt).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; arrows --&gt; safely.');
		expect(srt).toContain('01:40:00,000 --> ');
		expect(cues.map((c) => c.text)).toEqual(['Use <b>bold</b> & arrows --> safely.', 'Done.']);
		expectFilesParse(cues, srt, vtt);
		expect(buildCaptions([])).toEqual({ cues: [], srt: '', vtt: 'WEBVTT\n' });
	});

	test('bad limits and bad timings are refused with the option named', () => {
		const word = [{ text: 'hi', start_sec: 0, end_sec: 1 }];
		const cases: Array<[CaptionOptions, string]> = [
			[{ maxCharsPerLine: 0 }, 'maxCharsPerLine'],
			[{ maxCharsPerLine: 12.5 }, 'maxCharsPerLine'],
			[{ maxLinesPerCue: -1 }, 'maxLinesPerCue'],
			[{ maxCueDurationSec: 0 }, 'maxCueDurationSec'],
			[{ maxCueDurationSec: Number.NaN }, 'maxCueDurationSec'],
			[{ pauseSec: -0.5 }, 'pauseSec'],
			[{ pauseSec: '1' as unknown as number }, 'pauseSec'],
			[{ breakOnSentenceEnd: 'yes' as unknown as boolean }, 'breakOnSentenceEnd'],
		];
		for (const [options, option] of cases) {
			expect(() => buildCues(word, options)).toThrow(
				expect.objectContaining({
					name: 'CaptionError',
					option,
					message: expect.stringMatching(new RegExp(`^${option} must be`)),
				}),
			);
		}
		const badWords: Array<[WordTiming[], RegExp]> = [
			[[{ text: 'a', start_sec: -1, end_sec: 1 }], /words\[0\]\.start_sec/],
			[
				[word[0], { text: 'b', start_sec: 2, end_sec: 1 }],
				/words\[1\]\.end_sec must be a number of seconds not before start_sec 2 \(got 1\)/,
			],
			[
				[{ text: 3 as unknown as string, start_sec: 0, end_sec: 1 }],
				/words\[0\]\.text must be a string/,
			],
			[[{ text: 'x', start_sec: Number.POSITIVE_INFINITY, end_sec: 1 }], /words\[0\]\.start_sec/],
		];
		for (const [words, says] of badWords) {
			let error: unknown;
			try {
				buildCues(words);
			} catch (err) {
				error = err;
			}
			expect(error).toBeInstanceOf(CaptionError);
			expect((error as CaptionError).option).toBe('words');
			expect((error as CaptionError).message).toMatch(says);
		}
	});

	test('a 10,000-character script through the emulator (parts, one MP3, alignment) makes readable cues', async () => {
		const emu = await startEmulator({ clock: 'manual' });
		try {
			const text = englishScript(10_000, 24);
			const parts = [];
			for (const part of splitScript(text, 3000))
				parts.push(
					(await api(emu, 'POST', '/api/v1/tts', { body: { text: part.text, voice_id: 'Echo' } }))
						.raw,
				);
			const voiceOver = joinMp3(parts);
			const aligned = await api(emu, 'POST', '/api/v1/audio/align', {
				body: {
					audio: {
						inline_data: { data: voiceOver.mp3.toString('base64'), mime_type: 'audio/mpeg' },
					},
					text,
				},
			});
			expect(aligned.status).toBe(200);
			expect(aligned.body.data.duration_sec).toBeCloseTo(voiceOver.durationSec, 2);
			const words = aligned.body.data.words as WordTiming[];
			const { cues, srt, vtt } = buildCaptions(words);
			expectValidCues(words, cues);
			expectFilesParse(cues, srt, vtt);
			expect(cues.at(-1)!.end_sec).toBeLessThanOrEqual(voiceOver.durationSec + 0.001);
		} finally {
			await emu.stop();
		}
	});
});
