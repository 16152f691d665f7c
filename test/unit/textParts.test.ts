import {
	SCRIPT_MAX_CHARS,
	ScriptSplitError,
	splitScript,
	type ScriptPart,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/textParts';
import { cjkScript, englishParagraph, englishScript, unpunctuatedJapanese } from './scripts';

const LIMIT = 3000;

function boundariesOf(text: string, granularity: 'word' | 'grapheme'): Set<number> {
	const set = new Set<number>([text.length]);
	for (const s of new Intl.Segmenter(undefined, { granularity }).segment(text)) set.add(s.index);
	return set;
}

/**
 * Everything the module promises about any split, checked from the outside. `segment: false` skips
 * the Intl.Segmenter oracle (V8 segments a long string in quadratic time) and needs every cut to
 * touch whitespace instead, which settles it for scripts with spaces.
 */
function expectValidSplit(
	text: string,
	parts: ScriptPart[],
	max: number,
	{ segment = true } = {},
): void {
	const words = segment ? boundariesOf(text, 'word') : undefined;
	const graphemes = segment ? boundariesOf(text, 'grapheme') : undefined;
	let rebuilt = '';
	let pos = 0;
	parts.forEach((part, i) => {
		expect(part.index).toBe(i);
		expect(part.text).toBe(text.slice(part.start, part.end));
		expect(part.text.length).toBeGreaterThan(0);
		expect(part.text.length).toBeLessThanOrEqual(max);
		expect(part.text).not.toMatch(/^\s|\s$/u);
		const gap = text.slice(pos, part.start);
		expect(gap).toMatch(/^\s*$/u);
		rebuilt += gap + part.text;
		pos = part.end;
		for (const cut of [part.start, part.end]) {
			if (words && graphemes) {
				expect(words.has(cut)).toBe(true);
				expect(graphemes.has(cut)).toBe(true);
			} else if (cut > 0 && cut < text.length) {
				expect(/\s/u.test(text[cut - 1]) || /\s/u.test(text[cut])).toBe(true);
			}
		}
	});
	expect(text.slice(pos)).toMatch(/^\s*$/u);
	rebuilt += text.slice(pos);
	expect(rebuilt).toBe(text);
	if (parts.length > 0) expect(parts.at(-1)!.cut).toBe('end');
}

describe('splitScript', () => {
	test('a 10,000-character English script is cut at blank lines between paragraphs, each part more than half full', () => {
		const text = englishScript(10_000);
		expect(text.length).toBeGreaterThanOrEqual(10_000);
		const parts = splitScript(text, LIMIT);
		expectValidSplit(text, parts, LIMIT);
		expect(parts.length).toBe(Math.ceil(text.length / LIMIT));
		for (const part of parts.slice(0, -1)) {
			expect(part.cut).toBe('paragraph');
			expect(text.slice(part.end, parts[part.index + 1].start)).toMatch(/\n\s*\n/);
			expect(part.text.length).toBeGreaterThan(LIMIT / 2);
		}
	});

	test('one huge paragraph is cut at sentence ends', () => {
		const text = englishParagraph(12_000);
		expect(text).not.toContain('\n');
		const parts = splitScript(text, LIMIT);
		expectValidSplit(text, parts, LIMIT);
		expect(parts.length).toBeGreaterThanOrEqual(4);
		for (const part of parts.slice(0, -1)) {
			expect(part.cut).toBe('sentence');
			expect(part.text).toMatch(/[.!?]$/);
			expect(parts[part.index + 1].text).toMatch(/^[A-Z]/);
			expect(part.text.length).toBeGreaterThan(LIMIT / 2);
		}
	});

	test.each(['zh', 'ja'] as const)(
		'a long %s script without spaces is cut after sentence punctuation, closing quotes kept',
		(language) => {
			const text = cjkScript(10_000, language);
			expect(text).not.toMatch(/\s/);
			const parts = splitScript(text, LIMIT);
			expectValidSplit(text, parts, LIMIT);
			expect(parts.length).toBeGreaterThanOrEqual(4);
			for (const part of parts.slice(0, -1)) {
				expect(part.cut).toBe('sentence');
				expect(part.text).toMatch(/[。！？]」?$/);
				expect(parts[part.index + 1].start).toBe(part.end);
				expect(parts[part.index + 1].text).not.toMatch(/^[」。！？，]/);
			}
		},
	);

	test('a long run without punctuation falls back to word boundaries from Intl.Segmenter', () => {
		const text = unpunctuatedJapanese(7_000);
		const parts = splitScript(text, LIMIT);
		expectValidSplit(text, parts, LIMIT);
		expect(parts.length).toBe(3);
		for (const part of parts.slice(0, -1)) {
			expect(part.cut).toBe('word');
			// The segmenter's words here are the phrases the script was built from, so a cut lands between two of them.
			expect(part.end).toBeGreaterThan(LIMIT - 10);
		}
	});

	test('a paragraph break in the back half wins over a later sentence end; one in the front half does not', () => {
		const sentence = 'This is one plain sentence of the script. ';
		const late = sentence.repeat(45).trim() + '\n\n' + sentence.repeat(40).trim();
		const lateParts = splitScript(late, LIMIT);
		expectValidSplit(late, lateParts, LIMIT);
		expect(lateParts[0].cut).toBe('paragraph');
		expect(lateParts[0].end).toBe(late.indexOf('\n\n'));

		const early = 'Intro.\n\n' + sentence.repeat(100).trim();
		const earlyParts = splitScript(early, LIMIT);
		expectValidSplit(early, earlyParts, LIMIT);
		expect(earlyParts[0].cut).toBe('sentence');
		expect(earlyParts[0].text.length).toBeGreaterThan(LIMIT - sentence.length);
	});

	test('a title like "Mr." is not taken for a sentence end', () => {
		const filler = 'We spoke with the team about the launch plan today. ';
		const text =
			filler.repeat(56) + 'Then we called Mr. Smith about it again. ' + filler.repeat(10);
		const titleAt = text.indexOf('Mr.') + 3;
		expect(titleAt).toBeLessThan(LIMIT);
		const parts = splitScript(text, LIMIT);
		expectValidSplit(text, parts, LIMIT);
		expect(parts.map((p) => p.end)).not.toContain(titleAt);
		expect(parts[0].text).toMatch(/\.$/);
	});

	test('commas and other clause marks come before bare word boundaries', () => {
		const clause = 'and then the narrator keeps talking about the product, ';
		const text = clause.repeat(80).trim();
		const parts = splitScript(text, LIMIT);
		expectValidSplit(text, parts, LIMIT);
		for (const part of parts.slice(0, -1)) {
			expect(part.cut).toBe('clause');
			expect(part.text).toMatch(/,$/);
		}
	});

	test('emoji, flags, skin tones and ZWJ families are never split, with or without spaces between them', () => {
		const spaced = 'Family 👩‍👩‍👧‍👦 flag 🇯🇵 thumbs 👍🏽 café e\u0301 done. '.repeat(40);
		const spacedParts = splitScript(spaced, 50);
		expectValidSplit(spaced, spacedParts, 50);
		const packed = '😀👍🏽🇯🇵👩‍👩‍👧‍👦'.repeat(40);
		const packedParts = splitScript(packed, 51);
		expectValidSplit(packed, packedParts, 51);
		expect(packedParts.length).toBeGreaterThan(packed.length / 51);
		const within = (c: number, from: number, to: number): boolean => c >= from && c <= to;
		for (const part of [...spacedParts, ...packedParts]) {
			// Neither a low surrogate, joiner, combining accent or skin tone first, nor a high surrogate or joiner last.
			const first = part.text.codePointAt(0) as number;
			expect(
				within(first, 0xdc00, 0xdfff) ||
					first === 0x200d ||
					first === 0x301 ||
					within(first, 0x1f3fb, 0x1f3ff),
			).toBe(false);
			const last = part.text.charCodeAt(part.text.length - 1);
			expect(within(last, 0xd800, 0xdbff) || last === 0x200d).toBe(false);
		}
	});

	test('a word longer than one request is refused with where it is, since it cannot be sent without cutting it', () => {
		const long = 'x'.repeat(LIMIT + 1);
		const text = `${englishParagraph(4000)} ${long} The end.`;
		let error: unknown;
		try {
			splitScript(text, LIMIT);
		} catch (err) {
			error = err;
		}
		expect(error).toBeInstanceOf(ScriptSplitError);
		const e = error as ScriptSplitError;
		expect(e.reason).toBe('wordTooLong');
		expect(e.position).toBe(text.indexOf(long));
		expect(e.length).toBe(long.length);
		expect(e.limit).toBe(LIMIT);
		expect(e.message).toContain('3,001 characters');
		expect(e.message).toContain('at most 3,000');
		// A word of exactly the limit still goes through, as a part of its own.
		const fits = `Before it. ${'y'.repeat(LIMIT)} After it.`;
		const parts = splitScript(fits, LIMIT);
		expectValidSplit(fits, parts, LIMIT);
		expect(parts.map((p) => p.text)).toContain('y'.repeat(LIMIT));
	});

	test('the whole script is capped at SCRIPT_MAX_CHARS with an error naming both numbers', () => {
		expect(SCRIPT_MAX_CHARS).toBeGreaterThanOrEqual(100_000);
		const atCap = englishScript(SCRIPT_MAX_CHARS + 500).slice(0, SCRIPT_MAX_CHARS);
		const parts = splitScript(atCap, LIMIT);
		expectValidSplit(atCap, parts, LIMIT, { segment: false });
		expect(() => splitScript(atCap + 'x', LIMIT)).toThrow(
			expect.objectContaining({
				reason: 'scriptTooLong',
				length: SCRIPT_MAX_CHARS + 1,
				limit: SCRIPT_MAX_CHARS,
			}),
		);
		expect(() => splitScript(atCap + 'x', LIMIT)).toThrow(
			'100,001 characters long; the most it can be is 100,000',
		);
		expect(() => splitScript('short text', LIMIT, { maxTotalChars: 5 })).toThrow(
			expect.objectContaining({ reason: 'scriptTooLong' }),
		);
	});

	// How its time grows with the length is measured by `npm run bench` (text work).
	test('a script at the cap without spaces splits at sentence ends and loses nothing', () => {
		const text = cjkScript(SCRIPT_MAX_CHARS, 'zh', 9).slice(0, SCRIPT_MAX_CHARS);
		const parts = splitScript(text, LIMIT);
		expect(parts.map((p) => p.text).join('')).toBe(text);
		for (const part of parts.slice(0, -1)) expect(part.text).toMatch(/[。！？]$/);
	});

	test('short and blank scripts, bad limits and locales', () => {
		expect(splitScript('  \n\t ', LIMIT)).toEqual([]);
		expect(splitScript('\n Hello there. \n', LIMIT)).toEqual([
			{ index: 0, text: 'Hello there.', start: 2, end: 14, cut: 'end' },
		]);
		for (const bad of [0, -1, 1.5, Number.NaN]) {
			expect(() => splitScript('text', bad)).toThrow(
				expect.objectContaining({
					reason: 'badLimit',
					message: expect.stringContaining('maxChars'),
				}),
			);
		}
		const text = englishParagraph(5000);
		expect(splitScript(text, LIMIT, { locale: 'not a locale!' })).toEqual(splitScript(text, LIMIT));
		expectValidSplit(text, splitScript(text, LIMIT, { locale: 'en-GB' }), LIMIT);
	});

	test('scripts that use CRLF or single line breaks', () => {
		const lines = englishScript(9000, 7).replace(/\n\n/g, '\n');
		const lineParts = splitScript(lines, LIMIT);
		expectValidSplit(lines, lineParts, LIMIT);
		for (const part of lineParts.slice(0, -1)) expect(part.cut).toBe('line');
		const crlf = englishScript(9000, 8).replace(/\n/g, '\r\n');
		const crlfParts = splitScript(crlf, LIMIT);
		expectValidSplit(crlf, crlfParts, LIMIT);
		for (const part of crlfParts.slice(0, -1)) expect(part.cut).toBe('paragraph');
	});
});
