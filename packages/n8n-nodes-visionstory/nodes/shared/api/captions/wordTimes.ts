/**
 * Word timings as an answer gives them, made usable for captions. Aligners leave some words without
 * times (digits, symbols) and may give a word that ends a little before it starts. The answer keeps
 * its words as they came; captions take each word with times they can use: its own where they are
 * seconds (an end before the start is taken as the start), else the gap between the words around it,
 * so its text stays in the cue it belongs to. What had to be done is said, never thrown.
 */
import type { WordTiming } from './captions';

/** What was done to the words to make captions of them; empty when nothing was needed. */
export interface TimingNotes {
	/** Words that came without usable times (null, absent, negative, not a number). */
	untimed: string[];
	/** Words that end before they start. */
	reversed: string[];
	/** Entries that are not words (no text), left out. */
	skipped: number;
	/** Words in all. */
	total: number;
	/** Not one word came with a time: there is nothing to make captions from. */
	noTimes: boolean;
}

export interface UsableWords {
	/** The words with times captions can use; empty when no word has any time. */
	words: WordTiming[];
	notes: TimingNotes;
}

function seconds(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

interface Answered {
	text: string;
	start?: number;
	end?: number;
	speaker?: string | null;
}

function read(entry: unknown): Answered | undefined {
	const word = entry as Record<string, unknown> | null;
	if (!word || typeof word !== 'object' || typeof word.text !== 'string') return undefined;
	const speaker = typeof word.speaker === 'string' ? word.speaker : undefined;
	return {
		text: word.text,
		start: seconds(word.start_sec),
		end: seconds(word.end_sec),
		...(speaker !== undefined ? { speaker } : {}),
	};
}

/** The first time known after position `i`: where an untimed word has to end at the latest. */
function nextTime(words: Answered[], i: number): number | undefined {
	for (let j = i + 1; j < words.length; j++) {
		const time = words[j].start ?? words[j].end;
		if (time !== undefined) return time;
	}
	return undefined;
}

/** The words with usable times, and what was done to them. */
export function usableWords(answered: unknown): UsableWords {
	const list = Array.isArray(answered) ? (answered as unknown[]) : [];
	const words = list.map(read).filter((w): w is Answered => w !== undefined);
	const anyTime = words.some((w) => w.start !== undefined || w.end !== undefined);
	const notes: TimingNotes = {
		untimed: [],
		reversed: [],
		skipped: list.length - words.length,
		total: words.length,
		noTimes: words.length > 0 && !anyTime,
	};
	const usable: WordTiming[] = [];
	let previousEnd: number | undefined;
	for (const [i, word] of words.entries()) {
		let { start, end } = word;
		if (start === undefined || end === undefined) notes.untimed.push(word.text);
		else if (end < start) notes.reversed.push(word.text);
		start ??=
			previousEnd !== undefined
				? Math.min(previousEnd, end ?? previousEnd)
				: (end ?? nextTime(words, i) ?? 0);
		end ??= nextTime(words, i) ?? start;
		end = Math.max(end, start);
		previousEnd = end;
		usable.push({
			text: word.text,
			start_sec: start,
			end_sec: end,
			...(word.speaker !== undefined ? { speaker: word.speaker } : {}),
		});
	}
	return { words: anyTime ? usable : [], notes };
}

function examples(texts: string[]): string {
	const shown = texts.slice(0, 3).map((t) => JSON.stringify(t));
	return texts.length > 3 ? `${shown.join(', ')}, …` : shown.join(', ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What was done to the words, as one sentence for the user; undefined when nothing was. */
export function timingWarning(notes: TimingNotes): string | undefined {
	const said: string[] = [];
	if (notes.noTimes)
		said.push(
			`no word came with times (${plural(notes.total, 'word', 'words')}), so no captions were made`,
		);
	else if (notes.untimed.length)
		said.push(
			`${notes.untimed.length} of ${plural(notes.total, 'word', 'words')} came without times (${examples(notes.untimed)}): the captions show them with the words around them`,
		);
	if (notes.reversed.length)
		said.push(
			`${plural(notes.reversed.length, 'word ends', 'words end')} before ${notes.reversed.length === 1 ? 'it starts' : 'they start'} (${examples(notes.reversed)}): the captions show ${notes.reversed.length === 1 ? 'it' : 'them'} from the start`,
		);
	if (notes.skipped)
		said.push(`${plural(notes.skipped, 'entry', 'entries')} of words without text left out`);
	return said.length
		? `Captions: ${said.join('; ')}. The words themselves are as VisionStory answered them.`
		: undefined;
}
