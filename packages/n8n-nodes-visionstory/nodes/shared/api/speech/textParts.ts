/**
 * Splits a voice-over script into parts that each fit one text-to-speech request.
 *
 * Lengths are counted in UTF-16 code units (`String.length`). That is never less than the number of
 * code points or graphemes, so a part within the limit here is within it however the service counts.
 *
 * What is dropped: every part is `text.slice(start, end)` and neither begins nor ends with
 * whitespace; what lies before the first part, between two parts and after the last is whitespace
 * only (the whitespace at a cut, and the script's leading and trailing whitespace). Nothing else is
 * dropped, so joining the parts with those gaps gives back the script exactly.
 */

/** The longest script Text to Speech takes: about two hours of speech, and an MP3 that fits in memory. */
export const SCRIPT_MAX_CHARS = 100_000;

/** Where a part ends, strongest first. `line` is a single line break; `end` is the end of the script. */
export type CutKind = 'paragraph' | 'line' | 'sentence' | 'clause' | 'word' | 'end';

export interface ScriptPart {
	/** 0-based, in speaking order. */
	index: number;
	text: string;
	/** `text === script.slice(start, end)`. */
	start: number;
	end: number;
	/** The kind of boundary the part ends at. */
	cut: CutKind;
}

export interface SplitOptions {
	/** The cap on the whole script; default SCRIPT_MAX_CHARS. */
	maxTotalChars?: number;
	/** BCP 47 locale for word and sentence segmentation; an unknown one falls back to the default. */
	locale?: string;
}

export type ScriptSplitErrorReason = 'scriptTooLong' | 'wordTooLong' | 'badLimit';

/** Why a script cannot be split; `position` and `length` locate the offending text. */
export class ScriptSplitError extends Error {
	constructor(
		readonly reason: ScriptSplitErrorReason,
		message: string,
		readonly position: number,
		readonly length: number,
		readonly limit: number,
	) {
		super(message);
		this.name = 'ScriptSplitError';
	}
}

// Ranked so that a boundary of a higher rank also counts as one of every lower rank.
const RANK: Record<Exclude<CutKind, 'end'>, number> = {
	paragraph: 5,
	line: 4,
	sentence: 3,
	clause: 2,
	word: 1,
};
const LEVELS: Array<Exclude<CutKind, 'end'>> = ['paragraph', 'line', 'sentence', 'clause', 'word'];

interface Boundary {
	/** Where the part before it ends. */
	cut: number;
	/** Where the part after it starts: past the whitespace at the cut. */
	next: number;
	kind: Exclude<CutKind, 'end'>;
}

const WHITESPACE = /^\s+$/u;
// Characters past the window that segmentation rules may look at; sentence rules look furthest.
const LOOKAHEAD = 100;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028]/gu;
// A pause inside a sentence: comma, semicolon, colon and their CJK forms, among others.
const CLAUSE_END = /[\p{Terminal_Punctuation}\u2013\u2014]$/u;
// ICU ends a sentence after these titles ("Mr. Smith"); a voice would not pause there.
const OPENER = /^\p{Ps}$/u;
const INITIAL_QUOTE = /^\p{Pi}$/u;
const TITLE = /(?:^|[^\p{L}])(?:Mr|Mrs|Ms|Dr|Prof|St|Sr|Jr)\.$/u;

/**
 * The parts of `text`, each at most `maxChars` long, in order. A part ends at the last paragraph break
 * (blank line) that leaves it at least half full; failing that at the last line break, sentence end,
 * clause end (comma and the like) or word boundary that does, in that order; failing all of those at
 * the strongest boundary there is. Word and
 * sentence boundaries come from `Intl.Segmenter`, so scripts without spaces (Chinese, Japanese, Thai)
 * are cut after 。！？ and, in a long run without punctuation, between words; a cut never falls inside
 * a word, a surrogate pair or a grapheme. Whitespace-only text gives no parts.
 *
 * @throws ScriptSplitError `scriptTooLong` over the total cap, `wordTooLong` when one word is longer
 *   than `maxChars` (it cannot be sent without cutting it), `badLimit` for a limit that is not a
 *   positive integer.
 */
export function splitScript(
	text: string,
	maxChars: number,
	options: SplitOptions = {},
): ScriptPart[] {
	const maxTotal = options.maxTotalChars ?? SCRIPT_MAX_CHARS;
	checkLimit('maxChars', maxChars);
	checkLimit('maxTotalChars', maxTotal);
	if (text.length > maxTotal) {
		throw new ScriptSplitError(
			'scriptTooLong',
			`The text is ${formatCount(text.length)} characters long; the most it can be is ${formatCount(maxTotal)} characters`,
			0,
			text.length,
			maxTotal,
		);
	}
	const first = firstNonSpace(text);
	const last = lastNonSpace(text);
	if (first >= last) return [];
	if (last - first <= maxChars)
		return [{ index: 0, text: text.slice(first, last), start: first, end: last, cut: 'end' }];

	const segmenters = {
		word: segmenter(options.locale, 'word'),
		sentence: segmenter(options.locale, 'sentence'),
	};
	const parts: ScriptPart[] = [];
	let pos = first;
	while (last - pos > maxChars) {
		const boundaries = windowBoundaries(text, pos, maxChars, segmenters);
		const chosen = chooseCut(boundaries, pos, maxChars);
		if (!chosen) throw wordTooLong(text, pos, boundaries, maxChars);
		parts.push({
			index: parts.length,
			text: text.slice(pos, chosen.cut),
			start: pos,
			end: chosen.cut,
			cut: chosen.kind,
		});
		pos = chosen.next;
	}
	parts.push({
		index: parts.length,
		text: text.slice(pos, last),
		start: pos,
		end: last,
		cut: 'end',
	});
	return parts;
}

function checkLimit(name: string, value: number): void {
	if (!Number.isInteger(value) || value < 1) {
		throw new ScriptSplitError(
			'badLimit',
			`${name} must be a positive whole number (got ${String(value)})`,
			0,
			0,
			value,
		);
	}
}

function firstNonSpace(text: string): number {
	const m = /\S/u.exec(text);
	return m ? m.index : text.length;
}

function lastNonSpace(text: string): number {
	let end = text.length;
	while (end > 0 && /\s/u.test(text[end - 1])) end--;
	return end;
}

function segmenter(locale: string | undefined, granularity: 'word' | 'sentence'): Intl.Segmenter {
	try {
		return new Intl.Segmenter(locale || undefined, { granularity });
	} catch {
		// The locale only steers pronunciation; a tag ICU rejects should not stop the speech.
		return new Intl.Segmenter(undefined, { granularity });
	}
}

interface Segmenters {
	word: Intl.Segmenter;
	sentence: Intl.Segmenter;
}

/**
 * Every place the part starting at `pos` may end, in order, each with the strongest kind that
 * applies. Only the window is segmented, with a margin for the rules that look ahead: V8's segmenter
 * takes time in proportion to the whole string for every segment, so a 100,000-character script
 * segmented at once takes tens of seconds. `pos` starts a part, so it is a boundary the rules agree on.
 */
function windowBoundaries(
	text: string,
	pos: number,
	maxChars: number,
	segmenters: Segmenters,
): Boundary[] {
	const end = Math.min(text.length, skipSpace(text, pos + maxChars) + LOOKAHEAD);
	const slice = text.slice(pos, end);
	const sentenceStarts = new Set<number>();
	for (const { index } of segmenters.sentence.segment(slice))
		sentenceStarts.add(beforeOpeners(text, pos + index));

	const boundaries: Boundary[] = [];
	let gapStart = -1;
	for (const { segment, index } of segmenters.word.segment(slice)) {
		if (WHITESPACE.test(segment)) {
			if (gapStart < 0) gapStart = pos + index;
			continue;
		}
		const next = pos + index;
		const cut = gapStart >= 0 ? gapStart : next;
		if (cut > pos) boundaries.push({ cut, next, kind: kindAt(text, cut, next, sentenceStarts) });
		gapStart = -1;
	}
	return boundaries;
}

function skipSpace(text: string, from: number): number {
	let i = from;
	while (i < text.length && /\s/u.test(text[i])) i++;
	return i;
}

/**
 * Sentence rules count opening brackets and quotes as closing punctuation, so "。「次" breaks after the
 * 「; the new sentence starts before it. An initial quote (“) only opens when text follows it directly,
 * as in Chinese; followed by a space it closes, as in German.
 */
function beforeOpeners(text: string, index: number): number {
	let i = index;
	while (
		i > 0 &&
		(OPENER.test(text[i - 1]) ||
			(INITIAL_QUOTE.test(text[i - 1]) && !/\s/u.test(text[index] ?? ' ')))
	)
		i--;
	return i;
}

function kindAt(
	text: string,
	cut: number,
	next: number,
	sentenceStarts: Set<number>,
): Exclude<CutKind, 'end'> {
	const breaks = next > cut ? (text.slice(cut, next).match(LINE_BREAK)?.length ?? 0) : 0;
	if (breaks >= 2 || text.slice(cut, next).includes('\u2029')) return 'paragraph';
	if (breaks === 1) return 'line';
	const before = text.slice(Math.max(0, cut - 8), cut);
	if ((sentenceStarts.has(next) || sentenceStarts.has(cut)) && !TITLE.test(before))
		return 'sentence';
	if (CLAUSE_END.test(before)) return 'clause';
	return 'word';
}

/** The cut for the part starting at `pos`: the strongest boundary in its back half, else in its front half. */
function chooseCut(boundaries: Boundary[], pos: number, maxChars: number): Boundary | undefined {
	const limit = pos + maxChars;
	const half = pos + Math.floor(maxChars / 2);
	let i = lastAtOrBefore(boundaries, limit);
	const best: Partial<Record<Exclude<CutKind, 'end'>, Boundary>> = {};
	let earlyBest: Boundary | undefined;
	for (; i >= 0 && boundaries[i].cut > pos; i--) {
		const b = boundaries[i];
		if (b.cut > half) {
			for (const level of LEVELS) if (RANK[b.kind] >= RANK[level] && !best[level]) best[level] = b;
		} else if (!earlyBest || RANK[b.kind] > RANK[earlyBest.kind]) {
			earlyBest = b;
		}
	}
	for (const level of LEVELS) if (best[level]) return best[level];
	return earlyBest;
}

function lastAtOrBefore(boundaries: Boundary[], limit: number): number {
	let lo = 0;
	let hi = boundaries.length - 1;
	let found = -1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (boundaries[mid].cut <= limit) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

function wordTooLong(
	text: string,
	pos: number,
	boundaries: Boundary[],
	maxChars: number,
): ScriptSplitError {
	const after = boundaries.find((b) => b.cut > pos);
	const space = text.slice(pos).search(/\s/u);
	const end = after ? after.cut : space >= 0 ? pos + space : text.length;
	const length = end - pos;
	const preview = Array.from(text.slice(pos, pos + 24))
		.slice(0, 20)
		.join('');
	return new ScriptSplitError(
		'wordTooLong',
		`The text has a word of ${formatCount(length)} characters (at character ${formatCount(pos + 1)}: "${preview}…") ` +
			`and one request takes at most ${formatCount(maxChars)}; add a space or punctuation to it`,
		pos,
		length,
		maxChars,
	);
}

function formatCount(n: number): string {
	return n.toLocaleString('en-US');
}
