import { forbidden, upstreamFailure } from '../errors';
import { newId } from '../ids';
import { CAPS, inlineData, mediaUrl, MIME, type MediaPolicy } from '../mediaRef';
import { newestFirst, paginate } from '../pagination';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { PROVIDERS, type VoiceDto } from '../seed';
import type { Account, EmulatorState } from '../state';
import { Validator } from '../validation';
import { deleted, hasMarker, queryId } from './common';

const SAMPLE_POLICY: MediaPolicy = {
	mimes: MIME.voiceSample,
	kinds: ['audio', 'video'],
	maxBytes: () => CAPS.voiceSample,
};
const PREVIEW_TEXT_MAX = 100;

export function findVoice(
	state: EmulatorState,
	account: Account,
	voiceId: string,
): VoiceDto | undefined {
	return account.voices.get(voiceId)?.dto ?? state.publicVoices.find((v) => v.voice_id === voiceId);
}

/** A bare language (`en`) matches every region of it; a region (`en-GB`) only itself. Case never matters. */
export function localeMatches(voiceLocale: string, filter: string): boolean {
	const have = voiceLocale.toLowerCase();
	const want = filter.toLowerCase();
	return want.includes('-') ? have === want : have === want || have.startsWith(`${want}-`);
}

function list(ctx: RouteContext) {
	const v = new Validator();
	const cursor = v.queryInt(ctx.query, 'cursor', { min: 0, default: 0 }) ?? 0;
	const limit = v.queryInt(ctx.query, 'limit', { min: 1, max: 500 });
	const locale = v.queryString(ctx.query, 'locale');
	const provider = v.queryString(ctx.query, 'provider')?.toLowerCase();
	if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider))
		v.fail('provider', `must be one of ${PROVIDERS.join(', ')}`);
	v.throwIfAny();
	const all = ctx.state.publicVoices;
	const matching = all.filter(
		(voice) =>
			(!locale || localeMatches(voice.locale, locale)) &&
			(!provider || voice.provider.toLowerCase() === provider),
	);
	const own = newestFirst(ctx.account.voices.values(), (o) => o.seq).map((o) => ({ ...o.dto }));
	if (limit === undefined) return ok({ my_voices: own, public_voices: matching, next_cursor: 0 });
	// Markers count down the library so it pages newest first like every other list.
	const page = paginate(matching, (voice) => all.length - all.indexOf(voice), cursor, limit);
	return ok({
		my_voices: cursor === 0 ? own : [],
		public_voices: page.items,
		next_cursor: page.next_cursor,
	});
}

async function clone(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const source = v.exactlyOne(body, ['audio_url', 'inline_data'], 'audio_url');
	if (source === 'audio_url') await mediaUrl(v, body.audio_url, 'audio_url', SAMPLE_POLICY);
	if (source === 'inline_data') inlineData(v, body.inline_data, 'inline_data', SAMPLE_POLICY);
	const previewText = v.string(body, 'preview_text', 'preview_text', {
		maxLength: PREVIEW_TEXT_MAX,
	});
	v.throwIfAny();
	if (hasMarker(previewText, 'fail')) throw upstreamFailure('Voice cloning');
	const voice_id = newId('vc');
	const dto: VoiceDto = {
		voice_id,
		language: 'english',
		locale: 'en-US',
		preview_audio_url: `${ctx.state.mediaBaseUrl}/media/audio/voice-${voice_id}.mp3`,
		is_free: false,
		provider: 'elevenlabs',
		gender: '',
		age: '',
		accent: '',
		tags: null,
		use_cases: [],
	};
	ctx.account.voices.set(voice_id, { dto, seq: ctx.state.nextSeq() });
	return ok({
		voice_id,
		locale: dto.locale,
		language: dto.language,
		gender: dto.gender,
		preview_audio_url: dto.preview_audio_url,
	});
}

function remove(ctx: RouteContext) {
	const id = queryId(ctx.query, 'voice_id');
	if (ctx.state.publicVoices.some((voice) => voice.voice_id === id))
		throw forbidden('Only voices you cloned can be deleted');
	ctx.account.voices.delete(id);
	return deleted();
}

export const voiceRoutes: Route[] = [
	{ method: 'GET', path: '/api/v1/voices', handler: list },
	{ method: 'POST', path: '/api/v1/voice', handler: clone },
	{ method: 'DELETE', path: '/api/v1/voice', handler: remove },
];
