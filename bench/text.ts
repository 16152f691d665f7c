/**
 * Splitting a long script and building captions: time at full size and at half size. The ratio
 * shows how the work grows with the text (about 2× when linear, 4× when quadratic): a guard the
 * tests cannot hold without timing on a shared machine.
 */
import { buildCaptions } from '../packages/n8n-nodes-visionstory/nodes/shared/api/captions/captions';
import {
	SCRIPT_MAX_CHARS,
	splitScript,
} from '../packages/n8n-nodes-visionstory/nodes/shared/api/speech/textParts';
import { cjkScript, englishScript } from '../test/unit/scripts';

export interface TextFigures {
	what: string;
	size: string;
	fullMs: number;
	halfMs: number;
}

/** The fastest of a few runs: the least disturbed by the machine's other work. */
function fastestMs(run: () => unknown, times = 3): number {
	let best = Number.POSITIVE_INFINITY;
	for (let i = 0; i < times; i++) {
		const started = performance.now();
		run();
		best = Math.min(best, performance.now() - started);
	}
	return best;
}

function timedWords(text: string) {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((word, i) => ({ text: word, start_sec: i * 0.32, end_sec: i * 0.32 + 0.25 }));
}

export function textWork(): TextFigures[] {
	const cjk = cjkScript(SCRIPT_MAX_CHARS, 'zh', 9).slice(0, SCRIPT_MAX_CHARS);
	const words = timedWords(englishScript(SCRIPT_MAX_CHARS, 24));
	return [
		{
			what: 'Text to Speech splits a script without spaces',
			size: `${SCRIPT_MAX_CHARS.toLocaleString('en')} characters`,
			fullMs: fastestMs(() => splitScript(cjk, 3000)),
			halfMs: fastestMs(() => splitScript(cjk.slice(0, cjk.length / 2), 3000)),
		},
		{
			what: 'Align builds SRT and WebVTT captions',
			size: `${words.length.toLocaleString('en')} words`,
			fullMs: fastestMs(() => buildCaptions(words)),
			halfMs: fastestMs(() => buildCaptions(words.slice(0, words.length / 2))),
		},
	];
}
