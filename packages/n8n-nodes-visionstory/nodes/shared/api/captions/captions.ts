/**
 * Captions from word timings: words grouped into cues a viewer can read, written as SRT and WebVTT.
 *
 * Widths are display columns: one per grapheme, two for CJK, fullwidth and emoji graphemes, which
 * take two columns on screen (so 42 columns hold 42 Latin letters or 21 Chinese characters).
 */

export interface WordTiming {
	text: string;
	start_sec: number;
	end_sec: number;
	speaker?: string | null;
}

export interface CaptionOptions {
	/** Display columns per line; default 42. */
	maxCharsPerLine?: number;
	/** Lines per cue; default 2. */
	maxLinesPerCue?: number;
	/** Seconds a cue stays on screen at most; default 7. */
	maxCueDurationSec?: number;
	/** A silence at least this long (seconds) between two words starts a new cue; default 0.6. */
	pauseSec?: number;
	/** Whether a sentence end starts a new cue; default true. */
	breakOnSentenceEnd?: boolean;
	/** Whether a change of speaker starts a new cue; default true. */
	breakOnSpeakerChange?: boolean;
}

export const CAPTION_DEFAULTS: Required<CaptionOptions> = {
	maxCharsPerLine: 42,
	maxLinesPerCue: 2,
	maxCueDurationSec: 7,
	pauseSec: 0.6,
	breakOnSentenceEnd: true,
	breakOnSpeakerChange: true,
};

export interface Cue {
	/** 1-based, as SRT numbers them. */
	index: number;
	/** Whole milliseconds. */
	start_sec: number;
	end_sec: number;
	lines: string[];
	/** The lines joined with line breaks. */
	text: string;
	speaker?: string;
	/**
	 * Indices into the words given, first and last inclusive. Consecutive cues share an index only
	 * when a word wider than a line was broken across them.
	 */
	firstWord: number;
	lastWord: number;
}

export interface Captions {
	cues: Cue[];
	srt: string;
	vtt: string;
}

/** A limit or a word timing the captions cannot be made from; `option` names it ("words" for the timings). */
export class CaptionError extends Error {
	constructor(
		readonly option: keyof CaptionOptions | 'words',
		message: string,
	) {
		super(message);
		this.name = 'CaptionError';
	}
}

/** Cues, SRT and WebVTT in one go. */
export function buildCaptions(words: WordTiming[], options: CaptionOptions = {}): Captions {
	const cues = buildCues(words, options);
	return { cues, srt: toSrt(cues), vtt: toWebVtt(cues) };
}

/** The options with defaults filled in. @throws CaptionError naming the first bad option. */
export function captionOptions(options: CaptionOptions = {}): Required<CaptionOptions> {
	const o = { ...CAPTION_DEFAULTS };
	for (const [key, value] of Object.entries(options) as Array<[keyof CaptionOptions, unknown]>) {
		if (value !== undefined && key in CAPTION_DEFAULTS) (o as Record<string, unknown>)[key] = value;
	}
	wholeNumber(o, 'maxCharsPerLine');
	wholeNumber(o, 'maxLinesPerCue');
	positive(o, 'maxCueDurationSec');
	positive(o, 'pauseSec');
	for (const key of ['breakOnSentenceEnd', 'breakOnSpeakerChange'] as const) {
		if (typeof o[key] !== 'boolean')
			throw new CaptionError(key, `${key} must be true or false (got ${show(o[key])})`);
	}
	return o;
}

function show(value: unknown): string {
	return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function wholeNumber(o: Required<CaptionOptions>, key: 'maxCharsPerLine' | 'maxLinesPerCue'): void {
	if (!Number.isInteger(o[key]) || o[key] < 1)
		throw new CaptionError(
			key,
			`${key} must be a whole number of at least 1 (got ${show(o[key])})`,
		);
}

function positive(o: Required<CaptionOptions>, key: 'maxCueDurationSec' | 'pauseSec'): void {
	if (typeof o[key] !== 'number' || !Number.isFinite(o[key]) || o[key] <= 0)
		throw new CaptionError(key, `${key} must be a number of seconds above 0 (got ${show(o[key])})`);
}

/** What is laid out: a word, or one piece of a word wider than a line. */
interface Token {
	word: number;
	text: string;
	width: number;
	/** Columns of the space before it when it follows another token on a line: 0 or 1. */
	gap: number;
	start: number;
	end: number;
	speaker?: string;
}

/**
 * Groups the words into cues. Sentence ends, pauses and speaker changes (each as the options say)
 * always start a new cue; between them words go into as few cues as the limits allow, made even in
 * length and ended after a comma where that costs no extra cue. Each cue's lines are split at word
 * boundaries and balanced. Blank words are left out; a word wider than a line is broken at grapheme
 * boundaries, the one case where a word is split.
 *
 * Times: a cue runs from its first word's start to its last word's end, in whole milliseconds, cut to
 * the longest duration allowed (a single word can last longer) and moved to start no earlier than the
 * previous cue ends, so cues never overlap or go backwards however the timings overlap.
 *
 * @throws CaptionError for a bad option or a word whose times are not numbers with end ≥ start ≥ 0.
 */
export function buildCues(words: WordTiming[], options: CaptionOptions = {}): Cue[] {
	const o = captionOptions(options);
	if (!Array.isArray(words))
		throw new CaptionError('words', 'words must be a list of word timings');
	const tokens = tokenize(words, o.maxCharsPerLine);
	const cues: Cue[] = [];
	let prevEndMs = 0;
	for (const [from, to] of hardSegments(tokens, o)) {
		for (const [a, b] of cueRanges(tokens, from, to, o)) {
			const cueTokens = tokens.slice(a, b);
			const startMs = Math.max(Math.round(cueTokens[0].start * 1000), prevEndMs);
			const maxMs = Math.max(1, Math.floor(o.maxCueDurationSec * 1000));
			const endMs = Math.max(
				Math.min(Math.round(cueTokens[cueTokens.length - 1].end * 1000), startMs + maxMs),
				startMs + 1,
			);
			prevEndMs = endMs;
			const lines = layoutLines(cueTokens, o);
			const cue: Cue = {
				index: cues.length + 1,
				start_sec: startMs / 1000,
				end_sec: endMs / 1000,
				lines,
				text: lines.join('\n'),
				firstWord: cueTokens[0].word,
				lastWord: cueTokens[cueTokens.length - 1].word,
			};
			if (cueTokens[0].speaker !== undefined) cue.speaker = cueTokens[0].speaker;
			cues.push(cue);
		}
	}
	return cues;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// East Asian Wide and Fullwidth blocks: Hangul Jamo, CJK radicals to Yi, Hangul syllables, CJK
// compatibility, vertical and small forms, fullwidth forms, and the supplementary ideograph planes.
const WIDE =
	/[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{1b000}-\u{1b2ff}\u{1f200}-\u{1f2ff}\u{20000}-\u{3fffd}]|\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
// Scripts written without spaces between words.
const UNSPACED =
	/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;
// Punctuation that hangs on the word before it ("," "." "!" "。" ")" "”"), when a word of its own.
const TRAILING = /^[\p{Sentence_Terminal}\p{Pe}\p{Pf},;:%\u2026\u3001\uff0c\uff1b\uff1a]+$/u;
const LEADING = /[\p{Ps}\p{Pi}]$/u;
const SENTENCE_END = /\p{Sentence_Terminal}[\p{Pe}\p{Pf}"']*$/u;
// Titles end in a full stop but do not end a sentence.
const TITLE = /^(?:Mr|Mrs|Ms|Dr|Prof|St|Sr|Jr)\.$/u;
const CLAUSE_END = /[,;:\u2013\u2014\u3001\uff0c\uff1b\uff1a][\p{Pe}\p{Pf}"']*$/u;

function graphemesOf(text: string): string[] {
	return Array.from(graphemes.segment(text), (s) => s.segment);
}

function graphemeWidth(g: string): number {
	return WIDE.test(g) ? 2 : 1;
}

/** Display columns of a text. */
export function displayWidth(text: string): number {
	return graphemesOf(text).reduce((n, g) => n + graphemeWidth(g), 0);
}

function checkWord(w: WordTiming, i: number): void {
	if (!w || typeof w !== 'object' || typeof w.text !== 'string')
		throw new CaptionError('words', `words[${i}].text must be a string`);
	const { start_sec: start, end_sec: end } = w;
	if (typeof start !== 'number' || !Number.isFinite(start) || start < 0)
		throw new CaptionError(
			'words',
			`words[${i}].start_sec must be a number of seconds of at least 0 (got ${show(start)})`,
		);
	if (typeof end !== 'number' || !Number.isFinite(end) || end < start)
		throw new CaptionError(
			'words',
			`words[${i}].end_sec must be a number of seconds not before start_sec ${start} (got ${show(end)})`,
		);
}

function tokenize(words: WordTiming[], maxWidth: number): Token[] {
	const tokens: Token[] = [];
	let previous = '';
	words.forEach((w, i) => {
		checkWord(w, i);
		const text = w.text.trim();
		if (text === '') return;
		const speaker = typeof w.speaker === 'string' && w.speaker !== '' ? w.speaker : undefined;
		const gap = previous === '' || !spaced(previous, text) ? 0 : 1;
		previous = text;
		const width = displayWidth(text);
		if (width <= maxWidth) {
			tokens.push({ word: i, text, width, gap, start: w.start_sec, end: w.end_sec, speaker });
			return;
		}
		// Too wide for any line: pieces that fill a line each, timed in proportion to their length.
		const pieces = chunk(graphemesOf(text), maxWidth);
		const total = pieces.reduce((n, p) => n + p.width, 0);
		let done = 0;
		for (const [k, piece] of pieces.entries()) {
			const start = w.start_sec + ((w.end_sec - w.start_sec) * done) / total;
			done += piece.width;
			const end = w.start_sec + ((w.end_sec - w.start_sec) * done) / total;
			tokens.push({
				word: i,
				text: piece.text,
				width: piece.width,
				gap: k === 0 ? gap : 0,
				start,
				end,
				speaker,
			});
		}
	});
	return tokens;
}

function chunk(parts: string[], maxWidth: number): Array<{ text: string; width: number }> {
	const pieces: Array<{ text: string; width: number }> = [];
	let text = '';
	let width = 0;
	for (const g of parts) {
		const w = graphemeWidth(g);
		if (width + w > maxWidth && text !== '') {
			pieces.push({ text, width });
			text = '';
			width = 0;
		}
		text += g;
		width += w;
	}
	if (text !== '') pieces.push({ text, width });
	return pieces;
}

/** Whether a space goes between two words: not inside CJK or Thai text, nor before "," or after "(". */
function spaced(before: string, after: string): boolean {
	if (TRAILING.test(after) || LEADING.test(before)) return false;
	const last = Array.from(before).pop() ?? '';
	const first = Array.from(after)[0] ?? '';
	return !(UNSPACED.test(last) && UNSPACED.test(first));
}

/** Runs of tokens no cue may span: split at sentence ends, pauses and speaker changes. */
function hardSegments(tokens: Token[], o: Required<CaptionOptions>): Array<[number, number]> {
	const segments: Array<[number, number]> = [];
	let from = 0;
	for (let i = 1; i <= tokens.length; i++) {
		if (i === tokens.length || hardBreak(tokens[i - 1], tokens[i], o)) {
			if (i > from) segments.push([from, i]);
			from = i;
		}
	}
	return segments;
}

function hardBreak(a: Token, b: Token, o: Required<CaptionOptions>): boolean {
	if (a.word === b.word) return false;
	if (o.breakOnSentenceEnd && SENTENCE_END.test(a.text) && !TITLE.test(a.text)) return true;
	if (b.start - a.end >= o.pauseSec) return true;
	return (
		o.breakOnSpeakerChange &&
		a.speaker !== undefined &&
		b.speaker !== undefined &&
		a.speaker !== b.speaker
	);
}

/** Lines needed to hold tokens[a, b) when each line is filled as far as it goes, which is the fewest. */
class LineCounter {
	lines = 0;
	private width = 0;

	constructor(private readonly maxWidth: number) {}

	add(t: Token): void {
		if (this.lines > 0 && this.width + t.gap + t.width <= this.maxWidth) {
			this.width += t.gap + t.width;
		} else {
			this.lines++;
			this.width = t.width;
		}
	}
}

/**
 * The cues of one segment: fewest first, then most even (least squared unused room), then ending
 * after a comma or other clause mark rather than mid-clause.
 */
function cueRanges(
	tokens: Token[],
	from: number,
	to: number,
	o: Required<CaptionOptions>,
): Array<[number, number]> {
	const capacity = o.maxCharsPerLine * o.maxLinesPerCue;
	const cost: number[] = new Array(to - from + 1).fill(Infinity);
	const back: number[] = new Array(to - from + 1).fill(-1);
	cost[0] = 0;
	for (let a = from; a < to; a++) {
		if (cost[a - from] === Infinity) continue;
		const lines = new LineCounter(o.maxCharsPerLine);
		let width = 0;
		for (let b = a + 1; b <= to; b++) {
			const t = tokens[b - 1];
			lines.add(t);
			width += (b > a + 1 ? t.gap : 0) + t.width;
			const fits =
				lines.lines <= o.maxLinesPerCue && t.end - tokens[a].start <= o.maxCueDurationSec;
			if (!fits && b > a + 1) break;
			const slack = 1 - Math.min(1, width / capacity);
			const midClause = b < to && !CLAUSE_END.test(t.text) ? 0.1 : 0;
			const c = cost[a - from] + 1000 + slack * slack + midClause;
			if (c < cost[b - from]) {
				cost[b - from] = c;
				back[b - from] = a;
			}
		}
	}
	const ranges: Array<[number, number]> = [];
	for (let b = to; b > from; b = back[b - from]) ranges.unshift([back[b - from], b]);
	return ranges;
}

/** A cue's lines: as few as hold it, split where the lines come out most even, after punctuation if it is a tie. */
function layoutLines(tokens: Token[], o: Required<CaptionOptions>): string[] {
	const counter = new LineCounter(o.maxCharsPerLine);
	tokens.forEach((t) => counter.add(t));
	const count = Math.min(counter.lines, o.maxLinesPerCue);
	const n = tokens.length;
	// Breaking after punctuation is worth lines a little less even (a tenth of a full line's cost).
	const punctuationBonus = 0.1 * o.maxCharsPerLine * o.maxCharsPerLine;
	// best[l][b]: least cost of putting tokens[0, b) on l lines.
	const best: number[][] = Array.from({ length: count + 1 }, () => new Array(n + 1).fill(Infinity));
	const back: number[][] = Array.from({ length: count + 1 }, () => new Array(n + 1).fill(-1));
	best[0][0] = 0;
	for (let l = 1; l <= count; l++) {
		for (let b = 1; b <= n; b++) {
			let w = 0;
			for (let a = b - 1; a >= 0; a--) {
				// The line tokens[a, b): each token's width, and the space before all but the first.
				w += tokens[a].width + (a + 1 < b ? tokens[a + 1].gap : 0);
				// A too-wide line only when it is a single token and so cannot be helped.
				if (w > o.maxCharsPerLine && b - a > 1) break;
				if (best[l - 1][a] === Infinity) continue;
				const breakCost = b < n && !/\p{P}$/u.test(tokens[b - 1].text) ? punctuationBonus : 0;
				const c = best[l - 1][a] + w * w + breakCost;
				if (c < best[l][b]) {
					best[l][b] = c;
					back[l][b] = a;
				}
			}
		}
	}
	let l = count;
	while (l > 1 && best[l][n] === Infinity) l--;
	const lines: string[] = [];
	for (let b = n; l > 0; l--) {
		const a = back[l][b];
		lines.unshift(
			tokens
				.slice(a, b)
				.map((t, i) => (i > 0 && t.gap ? ' ' : '') + t.text)
				.join(''),
		);
		b = a;
	}
	return lines;
}

function timestamp(sec: number, separator: ',' | '.'): string {
	const ms = Math.round(sec * 1000);
	const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
	return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each. */
export function toSrt(cues: Cue[]): string {
	return cues
		.map(
			(c, i) =>
				`${i + 1}\n${timestamp(c.start_sec, ',')} --> ${timestamp(c.end_sec, ',')}\n${c.lines.join('\n')}\n`,
		)
		.join('\n');
}

/** WebVTT: the `WEBVTT` header, then cues timed `HH:MM:SS.mmm`, their text escaped as the format needs. */
export function toWebVtt(cues: Cue[]): string {
	const body = cues.map(
		(c) =>
			`${timestamp(c.start_sec, '.')} --> ${timestamp(c.end_sec, '.')}\n${c.lines.map(escapeVtt).join('\n')}\n`,
	);
	return ['WEBVTT\n', ...body].join('\n');
}

// "&" and "<" start markup in WebVTT cue text, and "-->" would end the cue's text.
function escapeVtt(line: string): string {
	return line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
