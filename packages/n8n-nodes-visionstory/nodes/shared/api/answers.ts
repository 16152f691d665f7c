import { checkedAudio } from './audioBody';
import type { SpeechHeaders } from './contract';
import type { ErrorReadOptions } from './errorBody';
import { readErrorAnswer } from './errorBody';
import { redactText, VisionStoryError } from './errors';
import type { ByteStream, Download, HttpResponse, NetworkError } from './http';

/**
 * What an HTTP answer is read as: a success or not, the envelope's `data`, the audio of Text to
 * Speech, a file to stream, and a failure (an error answer or a lost connection) as the one error
 * type, in words a user can act on. `transport.ts` sends; this reads.
 */

export interface AudioResult {
	stream: ByteStream;
	mimeType: string;
	metadata: SpeechHeaders;
}

const MAX_ERROR_BODY = 64 * 1024;

export function isSuccess(response: HttpResponse): boolean {
	return response.status >= 200 && response.status < 300;
}

/** The envelope's `data` of a successful JSON answer; anything else is named for what it is. */
export function envelopeData(name: string, response: HttpResponse, secrets: string[]): unknown {
	const body = response.body;
	// A plain check, not a schema parse: the client parses `data` with the endpoint's own schema.
	if (body === null || typeof body !== 'object' || !('data' in body)) {
		// A page or text (a captive portal, a proxy's login page) is named for what it is, never shown raw.
		const page =
			typeof body === 'string' && body.trim()
				? readErrorAnswer(response, { secrets }).message
				: undefined;
		throw new VisionStoryError({
			category: 'response',
			operation: name,
			message: page ?? 'VisionStory answered with a body that is not its JSON envelope',
			hint: 'Check the Base URL in your VisionStory credential: it should be https://openapi.visionstory.ai',
		});
	}
	return (body as { data: unknown }).data;
}

/** Every failed answer, whatever its body, read by the one error parser. */
export function answerError(
	name: string,
	response: HttpResponse,
	body: unknown,
	read: ErrorReadOptions,
	prefix?: string,
): VisionStoryError {
	const error = readErrorAnswer({ status: response.status, headers: response.headers, body }, read);
	return new VisionStoryError({
		category: 'api',
		operation: name,
		status: response.status,
		code: error.code,
		message: prefix ? `${prefix}: ${lowerFirst(error.message)}` : error.message,
		hint: error.hint,
		details: error.details,
		issues: error.issues.length ? error.issues : undefined,
		// Only an AI-video create has a concurrency cap; a 429 elsewhere is a rate limit, whatever its details.
		concurrency: name === 'createAiVideo' ? error.concurrency : undefined,
		retryAfterMs: retryAfterMs(response.headers['retry-after']),
	});
}

/** A connection that failed, in words a user can act on (the API key scrubbed). */
export function connectionError(
	name: string,
	error: NetworkError,
	replayable: boolean,
	secrets: string[],
): VisionStoryError {
	const lost = !replayable && error.mayHaveReachedService;
	return new VisionStoryError({
		category: 'network',
		operation: name,
		code: error.code,
		message: redactText(
			`The connection to VisionStory failed (${error.code}): ${error.message}`,
			secrets,
		),
		hint: lost
			? 'It was not sent again because VisionStory may have received it and charged it. Check the result or your credits before running it again.'
			: 'Check your network and the Base URL in the VisionStory credential, then try again.',
	});
}

/** An AI-video create's 429 naming the concurrency cap (details.in_flight), read as the error parser reads it. */
export function isConcurrencyAnswer(name: string, response: HttpResponse): boolean {
	return (
		name === 'createAiVideo' &&
		readErrorAnswer({ status: response.status, headers: response.headers, body: response.body })
			.concurrency !== undefined
	);
}

/** "VisionStory answered…" reads on after a colon; a service's own sentence keeps its capital. */
function lowerFirst(message: string): string {
	return /^(The file host|VisionStory) /.test(message) ? message.replace(/^The/, 'the') : message;
}

/** Retry-After as seconds or as an HTTP date. */
export function retryAfterMs(header: string | undefined): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function headerNumber(value: string | undefined): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	return Number.isFinite(n) ? n : undefined;
}

export async function audioResult(name: string, response: HttpResponse): Promise<AudioResult> {
	const h = response.headers;
	return {
		stream: await checkedAudio(name, response.body as ByteStream, h['content-type']),
		mimeType: h['content-type']?.split(';')[0] || 'audio/mpeg',
		metadata: {
			duration_sec: headerNumber(h['x-audio-duration-sec']),
			characters: headerNumber(h['x-usage-characters']),
			cost_credit: headerNumber(h['x-cost-credit']),
			audio_id: h['x-audio-id'] || undefined,
		},
	};
}

export function downloadOf(url: URL, response: HttpResponse): Download {
	const disposition = response.headers['content-disposition'];
	const named = disposition
		? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1]
		: undefined;
	const fromPath = decodeURIComponent(url.pathname.split('/').pop() ?? '');
	return {
		stream: response.body as ByteStream,
		mimeType: response.headers['content-type']?.split(';')[0] || undefined,
		fileName: named ?? (fromPath || undefined),
		contentLength: headerNumber(response.headers['content-length']),
	};
}

/** Reads at most 64 KiB of an error body, as bytes (the parser tells text from garbage); the rest is discarded. */
export async function readBytes(stream: ByteStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.from(chunk);
		if (size < MAX_ERROR_BODY) chunks.push(buffer);
		size += buffer.length;
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY);
}

export function drain(body: unknown): void {
	(body as { resume?: () => void } | undefined)?.resume?.();
}
