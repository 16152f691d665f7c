/**
 * Captions as both hosts offer them on Align and Transcribe: a format (none, SRT, WebVTT or both),
 * the builder's limits read from the host's options by their names, and the files made from the word
 * timings. The host only reads its settings and puts the files where its users look.
 */
import type { FieldIssue } from '../errors';
import type { Captions, CaptionOptions } from './captions';
import { buildCaptions, CAPTION_DEFAULTS, CaptionError, captionOptions } from './captions';
import { timingWarning, usableWords } from './wordTimes';

export const CAPTION_FORMATS = ['none', 'srt', 'vtt', 'both'] as const;
export type CaptionFormat = (typeof CAPTION_FORMATS)[number];

/** The name caption files get when none is given, without extension. */
export const CAPTION_FILE_NAME = 'captions';

/** A format as the host's field holds it: empty is none; anything else is named as not allowed. */
export function captionFormat(value: unknown): CaptionFormat | FieldIssue {
	const text = value === undefined || value === null || value === '' ? 'none' : String(value);
	return (CAPTION_FORMATS as readonly string[]).includes(text)
		? (text as CaptionFormat)
		: {
				field: 'captions',
				message: `must be one of ${CAPTION_FORMATS.join(', ')} (got ${JSON.stringify(text)})`,
			};
}

/** The builder's limits from options named as its own (an empty value is the default). */
export function captionLimits(options: Record<string, unknown>): CaptionOptions {
	const limits: Record<string, unknown> = {};
	for (const key of Object.keys(CAPTION_DEFAULTS)) {
		const value = options[key];
		if (value !== undefined && value !== null && value !== '') limits[key] = value;
	}
	return limits as CaptionOptions;
}

/** The first limit out of range, named by its option, or undefined: checked before anything is sent. */
export function captionLimitsIssue(options: Record<string, unknown>): FieldIssue | undefined {
	try {
		captionOptions(captionLimits(options));
		return undefined;
	} catch (error) {
		// The builder reports bad limits as CaptionError; anything else is a bug and surfaces as one.
		const problem =
			error instanceof CaptionError ? error : new CaptionError('words', String(error));
		return { field: problem.option, message: problem.message.replace(`${problem.option} `, '') };
	}
}

export interface CaptionFile {
	format: 'srt' | 'vtt';
	fileName: string;
	mimeType: string;
	text: string;
}

export interface CaptionOutput {
	/** Cues in the captions: SRT and WebVTT have the same. */
	cues: number;
	/** The files asked for, SRT first; none when no word came with times. */
	files: CaptionFile[];
	/**
	 * What the user should know of the captions: words without times or ending before they start, or
	 * captions that could not be made. The answer was paid for: a caption problem is never a failure.
	 */
	warning?: string;
}

/** Captions from the usable words, or why there are none; never throws. */
function captionsOf(
	words: unknown,
	options: Record<string, unknown>,
): { built?: Captions; warning?: string } {
	const usable = usableWords(words);
	const warning = timingWarning(usable.notes);
	if (usable.notes.noTimes) return { warning };
	try {
		return { built: buildCaptions(usable.words, captionLimits(options)), warning };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return {
			warning: `Captions could not be made (${reason}); the word timings are as VisionStory answered them.`,
		};
	}
}

/**
 * The caption files of a format from an answer's words (as the answer gave them: words without times
 * or ending before they start are made usable, `wordTimes.ts`); `baseName` loses an .srt or .vtt it
 * ends with. A problem with the captions is its `warning`, never an error.
 */
export function captionFiles(
	words: unknown,
	format: Exclude<CaptionFormat, 'none'>,
	options: Record<string, unknown>,
	baseName: string = CAPTION_FILE_NAME,
): CaptionOutput {
	const { built, warning } = captionsOf(words, options);
	const base = (baseName || CAPTION_FILE_NAME).replace(/\.(srt|vtt)$/i, '');
	const files: CaptionFile[] = [];
	if (built && (format === 'srt' || format === 'both'))
		files.push({
			format: 'srt',
			fileName: `${base}.srt`,
			mimeType: 'application/x-subrip',
			text: built.srt,
		});
	if (built && (format === 'vtt' || format === 'both'))
		files.push({ format: 'vtt', fileName: `${base}.vtt`, mimeType: 'text/vtt', text: built.vtt });
	return { cues: built?.cues.length ?? 0, files, ...(warning ? { warning } : {}) };
}
