import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { Emulator } from './index';

/** Shared helpers for the emulator's own tests: one HTTP call, parsed, with the key handled. */
export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: any;
	raw: Buffer;
}

export interface CallOptions {
	body?: unknown;
	/** undefined sends the emulator's default key; null sends no key. */
	key?: string | null;
	query?: Record<string, string | number | boolean>;
}

export async function api(
	emu: Emulator,
	method: string,
	path: string,
	opts: CallOptions = {},
): Promise<Answer> {
	const url = new URL(path, emu.baseUrl);
	for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
	const headers: Record<string, string> = {};
	const key = opts.key === undefined ? emu.apiKey : opts.key;
	if (key !== null) headers['x-api-key'] = key;
	let payload: string | undefined;
	if (opts.body !== undefined) {
		headers['content-type'] = 'application/json';
		payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
	}
	const res = await request(url, { method: method as 'GET', headers, body: payload });
	const raw = Buffer.from(await res.body.arrayBuffer());
	const type = String(res.headers['content-type'] ?? '');
	return {
		status: res.statusCode,
		headers: res.headers,
		raw,
		body: type.includes('json') ? JSON.parse(raw.toString('utf8')) : undefined,
	};
}

/** A 422's per-field errors: the service sends them as a JSON string, so the test checks that first. */
export function fieldErrors(answer: Answer): Record<string, string> {
	expect(answer.status).toBe(422);
	expect(typeof answer.body.error.details).toBe('string');
	return JSON.parse(answer.body.error.details);
}

export function fixture(name: 'sample.mp3' | 'sample.png' | 'sample.mp4' | 'sample.wav'): Buffer {
	return readFileSync(join(__dirname, 'media', name));
}

export function inline(
	name: 'sample.mp3' | 'sample.png' | 'sample.mp4' | 'sample.wav',
	mime: string,
): { data: string; mime_type: string } {
	return { data: fixture(name).toString('base64'), mime_type: mime };
}

export const TEXT_SCRIPT = { text: 'Hello there, this is a test.', voice_id: 'Alice' };
