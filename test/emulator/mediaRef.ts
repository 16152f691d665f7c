import { kindOfMime, probe, type MediaKind } from './mediaProbe';
import { fetchLoopback, isLoopback } from './remoteMedia';
import type { Account } from './state';
import { isObject, type Json, type Validator } from './validation';

const MiB = 1024 * 1024;

const GENERAL_IMAGE = [
	'image/jpeg',
	'image/jpg',
	'image/png',
	'image/webp',
	'image/bmp',
	'image/tiff',
	'image/gif',
];
const GENERAL_AUDIO = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3'];
const GENERAL_VIDEO = ['video/mp4', 'video/quicktime', 'video/mov'];

/** Inline MIME types per endpoint: the contract's general MediaRef list and its talking-video exceptions. */
export const MIME = {
	general: [...GENERAL_IMAGE, ...GENERAL_AUDIO, ...GENERAL_VIDEO],
	generalImage: GENERAL_IMAGE,
	generalAudio: GENERAL_AUDIO,
	generalAudioVideo: [...GENERAL_AUDIO, ...GENERAL_VIDEO],
	talkingAudio: ['audio/avi', 'audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/m4a', 'audio/wav'],
	talkingImage: ['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/heic'],
	voiceSample: [
		'audio/avi',
		'video/avi',
		'video/x-msvideo',
		'audio/mpeg',
		'audio/mp3',
		'audio/mp4',
		'video/mp4',
		'audio/m4a',
		'audio/x-m4a',
		'audio/wav',
		'audio/x-wav',
		'audio/wave',
	],
} as const;

export const CAPS = {
	avatarImage: 10 * MiB,
	voiceSample: 30 * MiB,
	asset: { image: 30 * MiB, audio: 15 * MiB, video: 100 * MiB } as Record<MediaKind, number>,
};

export interface MediaPolicy {
	/** Inline MIME types accepted. */
	mimes: readonly string[];
	/** Kinds accepted from an asset or a URL whose kind is known. */
	kinds: readonly MediaKind[];
	/** Decoded size cap by kind; none means the body cap is the only limit. */
	maxBytes?: (kind: MediaKind | undefined) => number | undefined;
	/** error.code when a URL cannot be read (image references have their own, 37101). */
	unreadableCode?: number;
}

/** One resolved piece of media. `bytes` is there for inline data and fetched loopback URLs. */
export interface Media {
	source: 'inline' | 'url' | 'asset';
	kind?: MediaKind;
	mime?: string;
	bytes?: Buffer;
	url?: string;
	/** Seconds of audio or video, when the asset record or a probe of the bytes tells. */
	durationSec?: number;
}

const EXTENSION_MIME: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	webp: 'image/webp',
	bmp: 'image/bmp',
	tif: 'image/tiff',
	tiff: 'image/tiff',
	gif: 'image/gif',
	heic: 'image/heic',
	wav: 'audio/wav',
	mp3: 'audio/mpeg',
	m4a: 'audio/m4a',
	avi: 'video/avi',
	mp4: 'video/mp4',
	mov: 'video/quicktime',
};

function mimeFromPath(pathname: string): string | undefined {
	const ext = pathname.split('.').pop()?.toLowerCase() ?? '';
	return EXTENSION_MIME[ext];
}

function formatMb(bytes: number): string {
	return `${Math.round((bytes / MiB) * 10) / 10} MB`;
}

/** Checks base64 without decoding first, so an oversize payload is refused before any memory is spent on it. */
function decodeBase64(
	v: Validator,
	data: string,
	path: string,
	cap: number | undefined,
): Buffer | undefined {
	if (data.startsWith('data:')) {
		v.fail(path, 'must be raw base64 without a data: URI prefix');
		return undefined;
	}
	const padStart = data.indexOf('=');
	if (
		data.length === 0 ||
		data.length % 4 !== 0 ||
		/[^A-Za-z0-9+/=]/.test(data) ||
		(padStart !== -1 && padStart < data.length - 2)
	) {
		v.fail(path, data.length === 0 ? 'must not be empty' : 'is not valid base64');
		return undefined;
	}
	const decodedSize = (data.length / 4) * 3 - (padStart === -1 ? 0 : data.length - padStart);
	if (cap !== undefined && decodedSize > cap) {
		v.fail(path, `decodes to ${formatMb(decodedSize)}, over the ${formatMb(cap)} limit`);
		return undefined;
	}
	return Buffer.from(data, 'base64');
}

export function inlineData(
	v: Validator,
	value: unknown,
	path: string,
	policy: MediaPolicy,
): Media | undefined {
	if (!isObject(value)) {
		v.fail(path, 'must be an object with data and mime_type');
		return undefined;
	}
	const mime = v.string(value, 'mime_type', `${path}.mime_type`, { required: true });
	const data = v.string(value, 'data', `${path}.data`, { required: true });
	if (mime === undefined || data === undefined) return undefined;
	const lower = mime.toLowerCase();
	if (!policy.mimes.includes(lower)) {
		v.fail(
			`${path}.mime_type`,
			`${mime} is not accepted here; use one of ${policy.mimes.join(', ')}`,
		);
		return undefined;
	}
	const kind = kindOfMime(lower);
	const bytes = decodeBase64(v, data, `${path}.data`, policy.maxBytes?.(kind));
	return bytes ? { source: 'inline', kind, mime: lower, bytes } : undefined;
}

export async function mediaUrl(
	v: Validator,
	raw: unknown,
	path: string,
	policy: MediaPolicy,
): Promise<Media | undefined> {
	if (typeof raw !== 'string' || raw.trim() === '') {
		v.fail(path, typeof raw === 'string' ? 'must not be empty' : 'must be a string');
		return undefined;
	}
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		v.fail(path, 'must be an absolute http(s) URL');
		return undefined;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		v.fail(path, 'must be an absolute http(s) URL');
		return undefined;
	}
	const guessed = mimeFromPath(url.pathname);
	const media: Media = {
		source: 'url',
		url: raw,
		mime: guessed,
		kind: guessed ? kindOfMime(guessed) : undefined,
	};
	if (!isLoopback(url)) return checkKind(v, media, path, policy);

	const cap = policy.maxBytes?.(media.kind);
	let fetched;
	try {
		fetched = await fetchLoopback(url, cap ?? 256 * MiB);
	} catch (err) {
		unreadable(v, path, `could not be fetched (${(err as Error).message})`, policy);
		return undefined;
	}
	if (fetched.status >= 400) {
		unreadable(v, path, `could not be fetched: HTTP ${fetched.status}`, policy);
		return undefined;
	}
	const type = fetched.contentType.split(';')[0].trim().toLowerCase();
	const probed = probe(fetched.bytes, type || guessed);
	media.mime = probed?.mime ?? (type || guessed);
	media.kind = probed?.kind ?? media.kind;
	media.durationSec = probed?.durationSec;
	const size = Math.max(fetched.declaredSize, fetched.bytes.length);
	const kindCap = policy.maxBytes?.(media.kind);
	if (kindCap !== undefined && size > kindCap) {
		v.fail(path, `points at ${formatMb(size)}, over the ${formatMb(kindCap)} limit`);
		return undefined;
	}
	media.bytes = fetched.bytes;
	return checkKind(v, media, path, policy);
}

function unreadable(v: Validator, path: string, message: string, policy: MediaPolicy): void {
	v.fail(path, message);
	if (policy.unreadableCode !== undefined) v.code = policy.unreadableCode;
}

function checkKind(
	v: Validator,
	media: Media,
	path: string,
	policy: MediaPolicy,
): Media | undefined {
	if (media.kind !== undefined && !policy.kinds.includes(media.kind)) {
		v.fail(path, `is ${media.kind}; expected ${policy.kinds.join(' or ')}`);
		return undefined;
	}
	return media;
}

/** A MediaRef: exactly one of url, inline_data, asset_id. */
export async function mediaRef(
	v: Validator,
	value: unknown,
	path: string,
	policy: MediaPolicy,
	account: Account,
): Promise<Media | undefined> {
	if (!isObject(value)) {
		v.fail(path, 'must be an object with one of url, inline_data, asset_id');
		return undefined;
	}
	const which = v.exactlyOne(value, ['url', 'inline_data', 'asset_id'], path);
	if (which === 'url') return mediaUrl(v, value.url, `${path}.url`, policy);
	if (which === 'inline_data') {
		const media = inlineData(v, value.inline_data, `${path}.inline_data`, policy);
		return media && checkKind(v, media, `${path}.inline_data`, policy);
	}
	if (which === 'asset_id') {
		const id = v.string(value, 'asset_id', `${path}.asset_id`, { required: true });
		if (id === undefined) return undefined;
		const asset = account.assets.get(id);
		if (!asset) {
			v.fail(`${path}.asset_id`, `unknown asset_id ${id}: upload it with POST /api/v1/asset first`);
			return undefined;
		}
		const media: Media = {
			source: 'asset',
			kind: asset.dto.kind,
			mime: asset.dto.mime,
			durationSec: asset.dto.duration_sec,
		};
		return checkKind(v, media, `${path}.asset_id`, policy);
	}
	return undefined;
}

export async function requiredMediaRef(
	v: Validator,
	obj: Json,
	key: string,
	policy: MediaPolicy,
	account: Account,
): Promise<Media | undefined> {
	if (obj[key] === undefined || obj[key] === null) {
		v.fail(key, 'is required');
		return undefined;
	}
	return mediaRef(v, obj[key], key, policy, account);
}

/** Seconds of audio in a piece of media, when it can be told; else an estimate from its size. */
export function durationOf(media: Media | undefined, fallbackSec: number): number {
	if (!media) return fallbackSec;
	if (media.durationSec !== undefined && media.durationSec > 0) return media.durationSec;
	if (media.bytes) {
		const probed = probe(media.bytes, media.mime);
		if (probed && probed.durationSec > 0) return probed.durationSec;
	}
	return fallbackSec;
}
