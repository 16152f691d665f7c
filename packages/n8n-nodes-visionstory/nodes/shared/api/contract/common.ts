import { z } from 'zod/v3';

import { bool, list, num, read } from './lenient';

/** The JSON types the contract names; requests are validated strictly, responses tolerantly. */

export const ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;
export const AspectRatio = z.enum(ASPECT_RATIOS);

export const SPEECH_RATES = ['slow', 'normal', 'fast'] as const;
export const SpeechRate = z.enum(SPEECH_RATES);

export const TASK_STATUSES = ['queued', 'creating', 'created', 'failed'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Statuses a task never leaves; the others (queued, creating) hold a render slot. */
export const FINISHED_STATUSES: readonly TaskStatus[] = ['created', 'failed'];
export const RENDERING_STATUSES: readonly TaskStatus[] = ['queued', 'creating'];

/** Whether a task is done rendering, either way; a status this version does not know counts as not done. */
export function isFinished(task: { status: string }): boolean {
	return (FINISHED_STATUSES as readonly string[]).includes(task.status);
}

export const CLIENT_REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const ClientRequestId = z
	.string()
	.regex(
		CLIENT_REQUEST_ID_PATTERN,
		'must be 1 to 128 characters: letters, digits, ".", "_" or "-", starting with a letter or digit',
	);

export const MIB = 1024 * 1024;

/** MIME types the contract accepts for inline media in a MediaRef. */
export const MEDIA_MIME_TYPES = {
	image: [
		'image/jpeg',
		'image/jpg',
		'image/png',
		'image/webp',
		'image/bmp',
		'image/tiff',
		'image/gif',
	],
	audio: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3'],
	video: ['video/mp4', 'video/quicktime', 'video/mov'],
} as const;
export const ALL_MEDIA_MIME_TYPES: readonly string[] = [
	...MEDIA_MIME_TYPES.image,
	...MEDIA_MIME_TYPES.audio,
	...MEDIA_MIME_TYPES.video,
];

/** Bytes that `data` decodes to, computed without decoding (base64 payloads can be hundreds of MiB). */
export function base64DecodedBytes(data: string): number {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	return Math.floor((data.length * 3) / 4) - padding;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function formatBytes(bytes: number): string {
	if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MB`;
	if (bytes >= MIB)
		return `${(bytes / MIB).toFixed(2)} MB (${bytes.toLocaleString('en-US')} bytes)`;
	if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
	return `${bytes} bytes`;
}

export interface InlineRules {
	mimeTypes: readonly string[];
	/** Largest decoded size, either one cap or one per media kind (image/audio/video prefix of the MIME type). */
	maxBytes: number | Partial<Record<'image' | 'audio' | 'video', number>>;
}

export function maxBytesFor(rules: InlineRules, mimeType: string): number | undefined {
	if (typeof rules.maxBytes === 'number') return rules.maxBytes;
	const kind = mimeType.split('/')[0] as 'image' | 'audio' | 'video';
	return rules.maxBytes[kind];
}

/** InlineData: raw base64 (no data: prefix) plus its MIME type, checked against one endpoint's rules. */
export function inlineData(rules: InlineRules) {
	return z
		.object({
			data: z.string().min(1, 'must not be empty'),
			mime_type: z.string().min(1),
		})
		.strict()
		.superRefine((value, ctx) => {
			const mime = value.mime_type.toLowerCase();
			if (!rules.mimeTypes.includes(mime)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['mime_type'],
					message: `"${value.mime_type}" is not accepted here; allowed: ${rules.mimeTypes.join(', ')}`,
				});
				return;
			}
			// Only the edges are checked: a full regex pass over 100+ MiB would cost seconds.
			const edges = value.data.slice(0, 4096) + value.data.slice(-4096);
			if (
				value.data.startsWith('data:') ||
				!BASE64.test(edges.replace(/=+$/, '')) ||
				value.data.length % 4 !== 0
			) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['data'],
					message: 'must be raw base64 without a data: prefix',
				});
				return;
			}
			const max = maxBytesFor(rules, mime);
			const size = base64DecodedBytes(value.data);
			if (max !== undefined && size > max) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['data'],
					message: `is ${formatBytes(size)}; the limit is ${formatBytes(max)}`,
				});
			}
		});
}

export const HttpUrl = z.string().refine((u) => {
	try {
		return /^https?:$/.test(new URL(u).protocol);
	} catch {
		return false;
	}
}, 'must be a full public URL starting with http:// or https://');

/** A whole number, with messages a user can act on (expressions can yield text or NaN). */
export function wholeNumber() {
	return z
		.number({ invalid_type_error: 'must be a number', required_error: 'is required' })
		.int('must be a whole number');
}

/** Exactly one of the given keys must be present and non-null. */
export function exactlyOneOf<T extends z.ZodRawShape>(shape: T, keys: Array<keyof T & string>) {
	return z
		.object(shape)
		.strict()
		.superRefine((value, ctx) => {
			const given = keys.filter((k) => (value as Record<string, unknown>)[k] != null);
			if (given.length !== 1) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: given.length === 0 ? [] : [given[1]],
					message:
						given.length === 0
							? `provide exactly one of ${keys.join(', ')}`
							: `provide only one of ${keys.join(', ')} (got ${given.join(' and ')})`,
				});
			}
		});
}

/** MediaRef: an asset id, a public URL or inline bytes; exactly one. */
/** The asset library's caps; the service applies them to one-off inline media as well. */
export const ASSET_MAX_BYTES = { image: 30 * MIB, audio: 15 * MIB, video: 100 * MIB };

export function mediaRef(
	rules: InlineRules = { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES },
) {
	return exactlyOneOf(
		{
			asset_id: z.string().min(1).nullish(),
			url: HttpUrl.nullish(),
			inline_data: inlineData(rules).nullish(),
		},
		['asset_id', 'url', 'inline_data'],
	);
}
export const MediaRef = mediaRef();
export type MediaRef = z.infer<typeof MediaRef>;
export type InlineData = { data: string; mime_type: string };

export const Cursor = wholeNumber().min(0);
export const Id = z.string().trim().min(1, 'must not be empty');

/** Responses keep unknown fields: the service adds fields without notice. */
export function dto<T extends z.ZodRawShape>(shape: T) {
	return z.object(shape).passthrough();
}

export const DeleteResult = dto({ deleted: bool() });
export type DeleteResult = z.infer<typeof DeleteResult>;

export const Empty = z.object({}).strict();

// Error answers are read by api/errorBody.ts, leniently: any shape a service or a proxy sends.

/** A value a model's parameter offers: text or a number (a numeric string reads as its number). */
const OfferedValue = z.preprocess(
	(v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
	z.union([z.string(), z.number()]),
);

/**
 * A parameter's allowed values and default, as the model lists describe them (a guess in facts.md):
 * values that are neither text nor numbers are skipped, and a part in another shape reads as absent,
 * so the checks it would allow are not made and the service's own defaults apply.
 */
export const ParamSpecShape = {
	values: list(OfferedValue),
	default: read((v) => {
		const offered = OfferedValue.safeParse(v);
		if (offered.success) return offered.data;
		return typeof v === 'boolean' ? v : v === null ? null : undefined;
	}),
	max_length: num(),
	max: num(),
	min: num(),
	supported: bool(),
};
export const ParamSpec = dto(ParamSpecShape);
export type ParamSpec = z.infer<typeof ParamSpec>;
