import { notFound, upstreamFailure } from '../errors';
import { SAMPLE_MP3_SECONDS, SAMPLE_TRANSCRIPT } from '../fixtures';
import { newId } from '../ids';
import { durationOf, MIME, requiredMediaRef, type MediaPolicy } from '../mediaRef';
import { SPEECH_RATES } from '../models';
import { audioPrice, ttsPrice } from '../pricing';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { Validator } from '../validation';
import { speechAudio } from '../speechAudio';
import { hasMarker } from './common';
import { findVoice } from './voices';

const TTS_MAX_CHARS = 3000;
const ALIGN_MAX_SEC = 30 * 60;
const AUDIO_POLICY: MediaPolicy = { mimes: MIME.generalAudioVideo, kinds: ['audio', 'video'] };
/** Speaking pace used when the audio's length cannot be read: about 2.5 words a second. */
const SECONDS_PER_WORD = 0.4;

function tts(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const text = v.string(body, 'text', 'text', { required: true, maxLength: TTS_MAX_CHARS });
	const voiceId = v.string(body, 'voice_id', 'voice_id', { required: true });
	v.string(body, 'locale', 'locale');
	v.string(body, 'speech_rate', 'speech_rate', { oneOf: SPEECH_RATES });
	v.throwIfAny();
	if (!findVoice(ctx.state, ctx.account, voiceId as string))
		throw notFound('Voice', voiceId as string);
	if (hasMarker(text, 'fail')) throw upstreamFailure('Speech synthesis');
	const characters = (text as string).length;
	const price = ttsPrice(characters);
	const audio = speechAudio(characters);
	const audioId = newId('aud');
	ctx.state.ledger.charge(ctx.account, ctx.now, 'tts', price, audioId);
	return {
		kind: 'binary' as const,
		status: 200,
		body: audio.mp3,
		headers: {
			'Content-Type': 'audio/mpeg',
			'X-Audio-Duration-Sec': String(round(audio.durationSec)),
			'X-Usage-Characters': String(characters),
			'X-Cost-Credit': String(price),
			'X-Audio-Id': audioId,
		},
	};
}

interface Word {
	text: string;
	start_sec: number;
	end_sec: number;
	speaker?: string | null;
}

/** A word as answered: aligners may leave its times out (`oddWordTimings`). */
type AnsweredWord = Omit<Word, 'start_sec' | 'end_sec'> & {
	start_sec: number | null;
	end_sec: number | null;
};

/** Spreads the words evenly over the audio; a sentence end switches speaker when diarizing. */
function timeWords(text: string, durationSec: number, diarize: boolean): Word[] {
	const tokens = text.split(/\s+/).filter((t) => t !== '');
	const step = tokens.length > 0 ? durationSec / tokens.length : 0;
	let speaker = 0;
	return tokens.map((token, i) => {
		const word: Word = { text: token, start_sec: round(i * step), end_sec: round((i + 1) * step) };
		if (diarize) word.speaker = `SPEAKER_${String(speaker).padStart(2, '0')}`;
		if (/[.!?]$/.test(token)) speaker = 1 - speaker;
		return word;
	});
}

function round(x: number): number {
	return Math.round(x * 1000) / 1000;
}

/**
 * Config `oddWordTimings`: the timings real aligners may give. The second word ends 20 ms before it
 * starts; the third word, and any word holding a digit, comes without times (null).
 */
function oddTimings(ctx: RouteContext, words: Word[]): AnsweredWord[] {
	if (!ctx.state.config.oddWordTimings) return words;
	return words.map((word, i) => {
		if (i === 2 || /\d/.test(word.text)) return { ...word, start_sec: null, end_sec: null };
		if (i === 1) return { ...word, end_sec: round(word.start_sec - 0.02) };
		return word;
	});
}

async function align(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const audio = await requiredMediaRef(v, body, 'audio', AUDIO_POLICY, ctx.account);
	const text = v.string(body, 'text', 'text', { required: true });
	const words = text?.split(/\s+/).filter((t) => t !== '').length ?? 0;
	const durationSec = durationOf(audio, Math.max(1, words * SECONDS_PER_WORD));
	if (durationSec > ALIGN_MAX_SEC)
		v.fail('audio', `is ${Math.round(durationSec)} s long; alignment takes at most 30 minutes`);
	v.throwIfAny();
	if (hasMarker(text, 'fail')) throw upstreamFailure('Alignment');
	const price = audioPrice(durationSec);
	ctx.state.ledger.charge(ctx.account, ctx.now, 'align', price, newId('aln'));
	return ok({
		cost_credit: price,
		duration_sec: durationSec,
		words: oddTimings(ctx, timeWords(text as string, durationSec, false)),
	});
}

function srtTime(sec: number): string {
	const ms = Math.round(sec * 1000);
	const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
	return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/** One cue per sentence. */
function toSrt(words: Word[]): string {
	const cues: Word[][] = [[]];
	for (const w of words) {
		cues[cues.length - 1].push(w);
		if (/[.!?]$/.test(w.text)) cues.push([]);
	}
	return cues
		.filter((c) => c.length > 0)
		.map(
			(c, i) =>
				`${i + 1}\n${srtTime(c[0].start_sec)} --> ${srtTime(c[c.length - 1].end_sec)}\n${c.map((w) => w.text).join(' ')}\n`,
		)
		.join('\n');
}

async function transcribe(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const audio = await requiredMediaRef(v, body, 'audio', AUDIO_POLICY, ctx.account);
	const diarize = v.boolean(body, 'diarize', 'diarize') ?? false;
	const srt = v.boolean(body, 'srt', 'srt') ?? false;
	v.throwIfAny();
	// No speech recognition here: every clip "says" the sample's sentence, timed over its real length.
	const durationSec = durationOf(audio, SAMPLE_MP3_SECONDS);
	const timed = timeWords(SAMPLE_TRANSCRIPT, durationSec, diarize);
	const words = oddTimings(ctx, timed);
	const price = audioPrice(durationSec);
	ctx.state.ledger.charge(ctx.account, ctx.now, 'transcribe', price, newId('trn'));
	const data: Record<string, unknown> = {
		text: SAMPLE_TRANSCRIPT,
		duration_sec: durationSec,
		cost_credit: price,
		words,
	};
	if (srt) data.srt = toSrt(timed);
	return ok(data);
}

export const speechRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/tts', handler: tts },
	{ method: 'POST', path: '/api/v1/audio/align', handler: align },
	{ method: 'POST', path: '/api/v1/audio/transcribe', handler: transcribe },
];
