/**
 * The public libraries every account sees. Built from small tables so the counts, locales and
 * providers the tests rely on are easy to see and change.
 */

export interface VoiceDto {
	voice_id: string;
	language: string;
	locale: string;
	preview_audio_url: string;
	is_free: boolean;
	provider: string;
	gender: string;
	age: string;
	accent: string;
	tags: string | null;
	use_cases: string[];
}

export interface AvatarFraming {
	aspect_ratio: string;
	zoom: number | null;
	offset_x: number | null;
	offset_y: number | null;
	image_url: string | null;
}

export interface AvatarDto {
	avatar_id: string;
	thumbnail_url: string;
	aspect_ratios: string[];
	created_at: number;
	default_voice_id: string;
	framing: AvatarFraming[] | null;
}

export const PROVIDERS = ['azure', 'elevenlabs', 'google', 'minimax'] as const;

interface LocaleSpec {
	locale: string;
	language: string;
	accent: string;
	names: Array<[string, 'male' | 'female']>;
}

const LOCALES: LocaleSpec[] = [
	{
		locale: 'en-US',
		language: 'english',
		accent: 'american',
		names: [
			['Ava', 'female'],
			['Andrew', 'male'],
			['Emma', 'female'],
			['Brian', 'male'],
			['Jenny', 'female'],
			['Guy', 'male'],
			['Aria', 'female'],
			['Davis', 'male'],
			['Nova', 'female'],
			['Cole', 'male'],
		],
	},
	{
		locale: 'en-GB',
		language: 'english',
		accent: 'british',
		names: [
			['Sonia', 'female'],
			['Ryan', 'male'],
			['Libby', 'female'],
			['Thomas', 'male'],
			['Maisie', 'female'],
			['Oliver', 'male'],
			['Hollie', 'female'],
			['Elliot', 'male'],
			['Bella', 'female'],
		],
	},
	{
		locale: 'zh-TW',
		language: 'chinese',
		accent: 'taiwanese mandarin',
		names: [
			['HsiaoChen', 'female'],
			['YunJhe', 'male'],
			['HsiaoYu', 'female'],
			['ChihWei', 'male'],
			['YaTing', 'female'],
			['ChunHao', 'male'],
			['PeiShan', 'female'],
			['JiaHao', 'male'],
			['ShuFen', 'female'],
		],
	},
	{
		locale: 'zh-HK',
		language: 'cantonese',
		accent: 'hong kong cantonese',
		names: [
			['HiuGaai', 'female'],
			['WanLung', 'male'],
			['HiuMaan', 'female'],
			['KaHo', 'male'],
			['WingYan', 'female'],
			['ChiKeung', 'male'],
			['SzeWing', 'female'],
			['TszHin', 'male'],
			['OiLam', 'female'],
		],
	},
	{
		locale: 'es-ES',
		language: 'spanish',
		accent: 'castilian',
		names: [
			['Elvira', 'female'],
			['Alvaro', 'male'],
			['Lucia', 'female'],
			['Jorge', 'male'],
			['Irene', 'female'],
			['Pablo', 'male'],
			['Carmen', 'female'],
			['Diego', 'male'],
			['Marta', 'female'],
		],
	},
	{
		locale: 'fr-FR',
		language: 'french',
		accent: 'parisian',
		names: [
			['Denise', 'female'],
			['Henri', 'male'],
			['Eloise', 'female'],
			['Remy', 'male'],
			['Vivienne', 'female'],
			['Lucien', 'male'],
			['Celeste', 'female'],
			['Mathis', 'male'],
			['Amelie', 'female'],
		],
	},
	{
		locale: 'de-DE',
		language: 'german',
		accent: 'standard german',
		names: [
			['Katja', 'female'],
			['Conrad', 'male'],
			['Amala', 'female'],
			['Killian', 'male'],
			['Seraphina', 'female'],
			['Florian', 'male'],
			['Greta', 'female'],
			['Lukas', 'male'],
			['Ingrid', 'female'],
		],
	},
];

const AGES = ['young', 'middle-aged', 'old'];
const USE_CASES = [['narration'], ['conversational'], ['news', 'narration'], ['advertisement'], []];

function previewUrl(mediaBaseUrl: string, voiceId: string): string {
	return `${mediaBaseUrl}/media/audio/voice-${encodeURIComponent(voiceId)}.mp3`;
}

/** Each provider names voices its own way; mimic that so ids look like what clients meet in the wild. */
function voiceIdFor(provider: string, locale: string, name: string): string {
	switch (provider) {
		case 'azure':
			return `${locale}-${name}Neural`;
		case 'google':
			return `${locale}-Chirp3-HD-${name}`;
		case 'minimax':
			return `${locale.replace('-', '_')}_${name}`;
		default:
			return `${name.toLowerCase()}_${locale.toLowerCase()}`;
	}
}

export function publicVoices(mediaBaseUrl: string): VoiceDto[] {
	const voices: VoiceDto[] = [];
	let n = 0;
	for (const spec of LOCALES) {
		for (const [name, gender] of spec.names) {
			const provider = PROVIDERS[n % PROVIDERS.length];
			const voice_id = voiceIdFor(provider, spec.locale, name);
			voices.push({
				voice_id,
				language: spec.language,
				locale: spec.locale,
				preview_audio_url: previewUrl(mediaBaseUrl, voice_id),
				is_free: n % 3 === 0,
				provider,
				gender,
				age: AGES[n % AGES.length],
				accent: spec.accent,
				tags: n % 4 === 0 ? 'warm, clear' : null,
				use_cases: USE_CASES[n % USE_CASES.length],
			});
			n++;
		}
	}
	// Ids seen in the wild, and a voice whose region is unknown (bare language code). Aoede is
	// prompt-driven, so it has no locale and never matches a locale filter.
	const named: Array<Omit<VoiceDto, 'preview_audio_url'>> = [
		{
			voice_id: 'Alice',
			language: 'english',
			locale: 'en-GB',
			is_free: true,
			provider: 'elevenlabs',
			gender: 'female',
			age: 'middle-aged',
			accent: 'british',
			tags: 'confident, news',
			use_cases: ['news'],
		},
		{
			voice_id: 'Echo',
			language: 'english',
			locale: 'en-US',
			is_free: true,
			provider: 'minimax',
			gender: 'male',
			age: 'young',
			accent: 'american',
			tags: null,
			use_cases: ['conversational'],
		},
		{
			voice_id: 'English_Storyteller',
			language: 'english',
			locale: 'en',
			is_free: true,
			provider: 'minimax',
			gender: 'male',
			age: 'old',
			accent: '',
			tags: 'storytelling',
			use_cases: ['narration'],
		},
		{
			voice_id: 'Aoede',
			language: 'multilingual',
			locale: '',
			is_free: false,
			provider: 'google',
			gender: 'female',
			age: 'young',
			accent: '',
			tags: 'breezy',
			use_cases: ['narration'],
		},
	];
	for (const v of named)
		voices.push({ ...v, preview_audio_url: previewUrl(mediaBaseUrl, v.voice_id) });
	return voices;
}

const AVATAR_NAMES = [
	'anna',
	'ben',
	'chloe',
	'daniel',
	'elena',
	'felix',
	'grace',
	'hiro',
	'isla',
	'jamal',
	'kira',
	'leo',
	'mia',
	'noah',
	'olivia',
	'pedro',
	'quinn',
	'rosa',
	'sam',
	'tara',
	'umar',
	'vera',
	'wei',
	'ximena',
	'yara',
	'zane',
	'amara',
	'bruno',
	'carmen',
	'dmitri',
	'esme',
	'farid',
];

export function avatarImageUrl(mediaBaseUrl: string, name: string): string {
	return `${mediaBaseUrl}/media/images/${encodeURIComponent(name)}.png`;
}

export function publicAvatars(mediaBaseUrl: string, voices: VoiceDto[]): AvatarDto[] {
	const english = voices.filter((v) => v.locale.startsWith('en'));
	return AVATAR_NAMES.map((name, i) => {
		const avatar_id = `public_${name}`;
		return {
			avatar_id,
			thumbnail_url: avatarImageUrl(mediaBaseUrl, `avatar-${avatar_id}`),
			// A few portraits were only prepared for portrait video, as in the real library.
			aspect_ratios: i % 5 === 4 ? ['9:16'] : ['9:16', '16:9', '1:1'],
			created_at: 0,
			default_voice_id: english[i % english.length].voice_id,
			framing: null,
		};
	});
}
