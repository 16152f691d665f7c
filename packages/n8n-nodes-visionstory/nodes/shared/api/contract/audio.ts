import { z } from 'zod/v3';

import { dto, Id, MEDIA_MIME_TYPES, mediaRef, MIB, SpeechRate } from './common';
import { list, num, requiredList, requiredString, str } from './lenient';

export const TTS_TEXT_MAX = 3000;

export const SynthesizeSpeechRequest = z
	.object({
		text: z
			.string()
			.trim()
			.min(1, 'must not be empty')
			.max(TTS_TEXT_MAX, `must be at most ${TTS_TEXT_MAX} characters`),
		voice_id: Id,
		locale: z.string().min(2, 'must be a language or locale code such as en or en-GB').nullish(),
		speech_rate: SpeechRate.nullish(),
	})
	.strict();
export type SynthesizeSpeechRequest = z.input<typeof SynthesizeSpeechRequest>;

/** What the TTS response headers say about the MP3 in its body. */
export const SpeechHeaders = z.object({
	duration_sec: z.number().nullish(),
	characters: z.number().nullish(),
	cost_credit: z.number().nullish(),
	audio_id: z.string().nullish(),
});
export type SpeechHeaders = z.infer<typeof SpeechHeaders>;

/** Local audio for align and transcribe: wav or mp3, at most 15 MB (the official client's rule). */
const alignAudio = mediaRef({ mimeTypes: MEDIA_MIME_TYPES.audio, maxBytes: { audio: 15 * MIB } });

/**
 * A word and its times. The contract states the times, but aligners leave some words without them
 * (digits, symbols: null) and may give an end a little before the start: the word is paid for and
 * kept with the times it came with (a value that is not a number reads as absent). Captions make
 * them usable (`captions/wordTimes.ts`); an entry without text is not a word and is skipped.
 */
export const WordDto = dto({
	text: requiredString(),
	start_sec: num(),
	end_sec: num(),
	speaker: str(),
});
export type WordDto = z.infer<typeof WordDto>;

export const AlignAudioRequest = z
	.object({ audio: alignAudio, text: z.string().trim().min(1, 'must not be empty') })
	.strict();
export type AlignAudioRequest = z.input<typeof AlignAudioRequest>;
/**
 * Alignment's words are stated by the contract and paid for: a word with odd or missing times is kept
 * as it came (an answer is never discarded over one), an entry that is not a word is skipped.
 */
export const AlignResultDto = dto({
	cost_credit: num(),
	duration_sec: num(),
	words: requiredList(WordDto),
});
export type AlignResultDto = z.infer<typeof AlignResultDto>;

export const TranscribeAudioRequest = z
	.object({ audio: alignAudio, diarize: z.boolean().nullish(), srt: z.boolean().nullish() })
	.strict();
export type TranscribeAudioRequest = z.input<typeof TranscribeAudioRequest>;
/** Transcription's answer beyond words and srt is unknown (facts.md): a word that cannot be read is skipped. */
export const TranscriptionDto = dto({
	text: str(),
	duration_sec: num(),
	cost_credit: num(),
	words: list(WordDto),
	srt: str(),
});
export type TranscriptionDto = z.infer<typeof TranscriptionDto>;
