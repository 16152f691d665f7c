import { createHash } from 'crypto';

import type { MediaPart } from './mediaBody';

/** JSON with sorted keys, so equal bodies hash equally whatever order their fields were built in. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	const entries = Object.entries(value as Record<string, unknown>)
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

function sha256Hex(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/**
 * The client_request_id of a create. With a context (execution, node, item), a resend inside the same
 * execution reuses the key while a new execution gets a new one. Without one, the key depends on the
 * body alone, as in the official client.
 */
export function deriveClientRequestId(body: unknown, context?: string): string {
	const canonical = canonicalJson(body);
	if (context) return `n8n-${sha256Hex(`${context}\n${canonical}`).slice(0, 40)}`;
	return `auto-${sha256Hex(canonical).slice(0, 32)}`;
}

/**
 * Keys given to more than one item, with the positions that share each. The service answers every
 * repeat of a key with the first one's task, so such items would all get one video.
 */
export function repeatedKeys(
	keys: ReadonlyArray<string | null | undefined>,
): Map<string, number[]> {
	const positions = new Map<string, number[]>();
	keys.forEach((key, position) => {
		if (key) positions.set(key, [...(positions.get(key) ?? []), position]);
	});
	return new Map([...positions].filter(([, at]) => at.length > 1));
}

/** A create's body with its client_request_id: the caller's own, or derived from the body, its files and the context. */
export function withClientRequestId(
	request: Record<string, unknown>,
	context?: string,
	media?: Record<string, MediaPart>,
): Record<string, unknown> {
	if (request.client_request_id) return request;
	// Files count by identity, not bytes: hashing a 100 MB upload just to name it would be wasteful.
	const identities =
		media && Object.keys(media).length
			? Object.fromEntries(Object.entries(media).map(([k, v]) => [k, v.identity]))
			: undefined;
	return {
		...request,
		client_request_id: deriveClientRequestId(
			identities ? { request, media: identities } : request,
			context,
		),
	};
}

/**
 * The key of new attempt `n` of a create (0: the key itself). Deterministic, so a new attempt whose
 * answer is lost is itself sent again under the same key; within the service's key pattern.
 */
export function attemptKey(key: string, attempt: number): string {
	return attempt === 0 ? key : `${key.slice(0, 120)}.a${attempt}`;
}
