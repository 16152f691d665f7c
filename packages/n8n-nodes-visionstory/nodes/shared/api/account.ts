import { createHash } from 'crypto';

import { VisionStoryError } from './errors';

/**
 * The account a credential names, for both hosts: its Base URL as the client uses it, checked before
 * anything is sent, its key as sent (trimmed), and its id, under which per-account state in the
 * process (the balance floor's book, the request budget) is kept. The id is a hash: the key itself is
 * never a map key.
 */

export const DEFAULT_BASE_URL = 'https://openapi.visionstory.ai';

/** Hosts where http:// never leaves the machine. */
const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/** The Base URL as written, as the client uses it: trimmed, no trailing slash; blank means production. */
export function baseUrlOf(written: unknown): string {
	return (
		String(written ?? '')
			.trim()
			.replace(/\/+$/, '') || DEFAULT_BASE_URL
	);
}

/**
 * Why a Base URL cannot be used, before anything is sent: not a URL, or a scheme that would carry
 * the key in clear text (http:// is accepted only on loopback). `where` names the setting.
 */
export function baseUrlProblem(baseUrl: string, where: string): VisionStoryError | undefined {
	const problem = (message: string, hint: string) =>
		new VisionStoryError({ category: 'validation', message, hint });
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return problem(
			`The Base URL ${where} (${baseUrl}) is not a URL`,
			`Nothing was sent. Use ${DEFAULT_BASE_URL}.`,
		);
	}
	if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)))
		return undefined;
	return problem(
		`The Base URL ${where} (${baseUrl}) starts with ${url.protocol}//, which would send the API key in clear text`,
		'Nothing was sent. Change the Base URL to start with https:// (http:// is accepted only for localhost, 127.0.0.1 or ::1).',
	);
}

/** One spelling per address: host in lower case, no default port, no trailing slash (the URL parser does the first two). */
function normalBaseUrl(baseUrl: string): string {
	try {
		const url = new URL(baseUrl.trim());
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		return baseUrlOf(baseUrl);
	}
}

/**
 * The API key as the service reads it: trimmed (it trims the key it is sent). The one spelling a key
 * is sent in and names its account in, so a key pasted with a space names the same account.
 */
export function apiKeyOf(written: unknown): string {
	return String(written ?? '').trim();
}

/** The account of a key at a Base URL, as a hash: two credentials spelling one address or key differently name one account. */
export function accountId(baseUrl: string, apiKey: string): string {
	return createHash('sha256')
		.update(`${normalBaseUrl(baseUrl)}\n${apiKeyOf(apiKey)}`)
		.digest('hex');
}
