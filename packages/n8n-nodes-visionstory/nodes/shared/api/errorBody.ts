import type { FieldIssue } from './errors';
import { defaultHint, redact, redactText } from './errors';

/**
 * Reads any error answer into words a user can act on. Every failed HTTP answer, from JSON, audio
 * and file endpoints alike, comes through here. The contract states an envelope
 * `{ error: { code, message, details?, hint? } }`; real services and whatever stands in front of
 * them (proxies, gateways, CDNs) also send other shapes, HTML pages, plain text, nothing at all,
 * or bytes. What the envelope states is read exactly when present; the rest is read leniently, and
 * nothing here throws.
 */

export interface ErrorAnswer {
	status: number;
	/** Lower-case header names. */
	headers?: Record<string, string | undefined>;
	/** Parsed JSON, text, raw bytes, or nothing. */
	body: unknown;
}

export interface ErrorReadOptions {
	/** Values to scrub (the API key). */
	secrets?: readonly string[];
	/** `api`: a call to VisionStory; `file`: a download from wherever a result is stored. */
	source?: 'api' | 'file';
	/** How many times the request was sent, this answer's attempt included. */
	attempts?: number;
	/** Whether the request may be sent again without risk of a second charge. */
	replayable?: boolean;
	/** The Base URL the request went to, to tell what a redirect changes. */
	baseUrl?: string;
	/** A result's file being fetched (not an API call): its failure never means the result was not made or charged. */
	download?: boolean;
}

export interface ErrorReading {
	message: string;
	hint?: string;
	code: number | string;
	/** `details` when it is (or encodes) an object, redacted. */
	details?: Record<string, unknown>;
	/** `details` of any shape, one entry per field (or per line when no field is named). */
	issues: FieldIssue[];
	/** For concurrency 429s: the per-key cap and how many tasks hold a slot now. */
	concurrency?: { limit?: number; inFlight?: number };
}

/** Enough to read a page's title or a service's sentence; the rest is noise in an error message. */
const MAX_TEXT = 300;
const MAX_TITLE = 100;
/** A service's own message or hint is kept whole up to this; beyond it, it is no longer a sentence to read. */
const MAX_SERVICE_TEXT = 2000;
const MAX_ISSUES = 20;
const MAX_DEPTH = 4;

type Body =
	| { kind: 'json'; value: unknown }
	| { kind: 'html'; text: string }
	| { kind: 'text'; text: string }
	| { kind: 'binary'; bytes: number }
	| { kind: 'empty' };

interface Envelope {
	message?: string;
	hint?: string;
	code?: number | string;
	details?: unknown;
}

export function readErrorAnswer(answer: ErrorAnswer, options: ErrorReadOptions = {}): ErrorReading {
	const secrets = options.secrets ?? [];
	const status = answer.status;
	const body = classify(answer.body, answer.headers?.['content-type']);
	const envelope = body.kind === 'json' ? envelopeOf(body.value) : {};
	const objectDetails = detailsObject(envelope.details);
	const concurrency = status === 429 && objectDetails ? concurrencyOf(objectDetails) : undefined;
	const issues = concurrency
		? []
		: limit(dedupe(issuesOf(envelope.details, '', 0), envelope.message));
	const code = envelope.code ?? status;
	const message = envelope.message ?? messageFor(status, body, answer.headers?.location, options);
	const ours = hintFor(status, code, body, issues.length > 0, answer.headers?.location, options);
	// The service's own hint comes first; a charged call that may have been processed keeps our warning after it.
	const hint =
		envelope.hint !== undefined && mayHaveCharged(status, options)
			? `${envelope.hint.replace(/\.?\s*$/, '.')} ${CHARGED_WARNING}`
			: (envelope.hint ?? ours);
	return {
		message: redactText(message, secrets),
		...(hint ? { hint: redactText(hint, secrets) } : {}),
		code: typeof code === 'string' ? redactText(code, secrets) : code,
		...(objectDetails ? { details: redact(objectDetails, secrets) } : {}),
		issues: issues.map((issue) => ({
			field: redactText(issue.field, secrets),
			message: redactText(issue.message, secrets),
		})),
		...(concurrency ? { concurrency } : {}),
	};
}

// ---------------------------------------------------------------------------------------------
// The body

function classify(body: unknown, contentType: string | undefined): Body {
	if (body === undefined || body === null) return { kind: 'empty' };
	if (body instanceof Uint8Array) return classifyBytes(body, contentType);
	if (typeof body === 'string') return classifyText(body, contentType);
	return { kind: 'json', value: body };
}

function classifyBytes(bytes: Uint8Array, contentType: string | undefined): Body {
	if (bytes.length === 0) return { kind: 'empty' };
	const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
	return looksBinary(text)
		? { kind: 'binary', bytes: bytes.length }
		: classifyText(text, contentType);
}

/** NUL bytes, undecodable sequences or many control characters: not text a person should read. */
function looksBinary(text: string): boolean {
	let odd = 0;
	for (const char of text.slice(0, 2048)) {
		const c = char.codePointAt(0)!;
		if (c === 0) return true;
		if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13)) odd++;
	}
	return odd > Math.max(2, Math.min(text.length, 2048) / 20);
}

function classifyText(raw: string, contentType: string | undefined): Body {
	const text = raw.replace(/^\uFEFF/, '').trim();
	if (!text) return { kind: 'empty' };
	if (/^[[{"]/.test(text)) {
		try {
			const value = JSON.parse(text) as unknown;
			// A JSON string is text again (a quoted HTML page is still a page).
			return typeof value === 'string' && text.startsWith('"')
				? classifyText(value, contentType)
				: { kind: 'json', value };
		} catch {
			// Not JSON after all: read as text below.
		}
	}
	if (looksBinary(text)) return { kind: 'binary', bytes: Buffer.byteLength(raw) };
	const html =
		/html/i.test(contentType ?? '') ||
		/^<(!doctype\s+html|html|head|body)\b/i.test(text) ||
		/<\/(html|body|title)>/i.test(text);
	return html ? { kind: 'html', text } : { kind: 'text', text };
}

// ---------------------------------------------------------------------------------------------
// The envelope, and its look-alikes

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string the service wrote, kept as written (only trimmed); a number as its digits; anything else is not text. */
function text(value: unknown): string | undefined {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed ? trimmed : undefined;
	}
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

function codeOf(value: unknown): number | string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && value.trim())
		return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value.trim().slice(0, 100);
	return undefined;
}

/**
 * The contract's `{ error: {…} }` first; then what frameworks send without it: `{ message, hint }`,
 * FastAPI's `{ detail }`, `{ error: "text" }`, `{ errors: [...] }`.
 */
function envelopeOf(value: unknown): Envelope {
	if (typeof value === 'string') return { message: text(value) };
	if (Array.isArray(value)) return { details: value };
	if (!isObject(value)) return { message: text(value) };
	const inner = isObject(value.error) ? value.error : undefined;
	const source = inner ?? value;
	const detail = source.detail;
	const message =
		text(source.message) ??
		text(typeof value.error === 'string' ? value.error : undefined) ??
		text(detail) ??
		text(source.title) ??
		text(source.msg);
	const hint = text(source.hint);
	return {
		message: message === undefined ? undefined : cut(message, MAX_SERVICE_TEXT),
		hint: hint === undefined ? undefined : cut(hint, MAX_SERVICE_TEXT),
		code: codeOf(source.code),
		details: source.details ?? (typeof detail === 'string' ? undefined : detail) ?? source.errors,
	};
}

function parseJson(value: string): unknown {
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return undefined;
	}
}

function detailsObject(details: unknown): Record<string, unknown> | undefined {
	const value = typeof details === 'string' ? parseJson(details.trim()) : details;
	return isObject(value) ? value : undefined;
}

function concurrencyOf(details: Record<string, unknown>): ErrorReading['concurrency'] {
	// `limit` alone is what a plain rate limit may say too; only `in_flight` names the concurrency cap.
	if (!('in_flight' in details)) return undefined;
	return { limit: numberOf(details.limit), inFlight: numberOf(details.in_flight) };
}

function numberOf(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

// ---------------------------------------------------------------------------------------------
// Details of any shape, as one line per field

/** Where a FastAPI/pydantic `loc` says the field sat in the request, not part of its name. */
const LOCATIONS = new Set(['body', 'query', 'path', 'header', 'headers']);

function join(prefix: string, key: string): string {
	return prefix ? `${prefix}.${key}` : key;
}

function locOf(entry: Record<string, unknown>): string | undefined {
	const loc = entry.loc ?? entry.field ?? entry.param;
	if (Array.isArray(loc)) {
		const segments = loc.filter((s) => typeof s === 'string' || typeof s === 'number').map(String);
		while (segments.length > 1 && LOCATIONS.has(segments[0])) segments.shift();
		return segments.length === 1 && LOCATIONS.has(segments[0])
			? undefined
			: segments.join('.') || undefined;
	}
	return text(loc);
}

function messageOfEntry(entry: Record<string, unknown>): string | undefined {
	return text(entry.msg) ?? text(entry.message);
}

/**
 * The keys of one issue object (pydantic's `{loc, msg, type, input, ctx, url}`, `{field, message}`),
 * as opposed to a map of field → message. Names an API might use for its own fields (name, url,
 * description) do not count, so `{name: "too long"}` stays a field's message.
 */
const ISSUE_KEYS = new Set([
	'loc',
	'field',
	'param',
	'msg',
	'message',
	'type',
	'code',
	'ctx',
	'input',
]);

function looksLikeIssue(entry: Record<string, unknown>): boolean {
	return (
		messageOfEntry(entry) !== undefined &&
		Object.keys(entry).every((key) => ISSUE_KEYS.has(key) || (key === 'url' && 'loc' in entry))
	);
}

function compact(value: unknown): string {
	try {
		return oneLine(JSON.stringify(value) ?? String(value));
	} catch {
		return String(value);
	}
}

function issuesOf(value: unknown, prefix: string, depth: number): FieldIssue[] {
	if (value === undefined || value === null) return [];
	if (typeof value === 'string') {
		const trimmed = value.trim();
		if (!trimmed) return [];
		const parsed = /^[[{]/.test(trimmed) ? parseJson(trimmed) : undefined;
		if (parsed !== undefined && depth < MAX_DEPTH) return issuesOf(parsed, prefix, depth + 1);
		return [{ field: prefix, message: cut(oneLine(trimmed), MAX_TEXT) }];
	}
	if (typeof value !== 'object') return [{ field: prefix, message: String(value) }];
	if (depth >= MAX_DEPTH) return [{ field: prefix, message: cut(compact(value), MAX_TEXT) }];
	if (Array.isArray(value)) {
		if (value.every((v) => typeof v === 'string' || typeof v === 'number')) {
			const lines = value.map(String).map(oneLine).filter(Boolean);
			return lines.length ? [{ field: prefix, message: cut(lines.join('; '), MAX_TEXT) }] : [];
		}
		return value.flatMap((entry) => issuesOf(entry, prefix, depth + 1));
	}
	const entry = value as Record<string, unknown>;
	if (looksLikeIssue(entry)) {
		const loc = locOf(entry);
		return [
			{
				field: loc ? join(prefix, loc) : prefix,
				message: cut(oneLine(messageOfEntry(entry)!), MAX_TEXT),
			},
		];
	}
	return Object.entries(entry).flatMap(([key, v]) => issuesOf(v, join(prefix, key), depth + 1));
}

function limit(issues: FieldIssue[]): FieldIssue[] {
	if (issues.length <= MAX_ISSUES) return issues;
	return [
		...issues.slice(0, MAX_ISSUES - 1),
		{ field: '', message: `and ${issues.length - MAX_ISSUES + 1} more` },
	];
}

/** A `details` that only repeats the message adds nothing. */
function dedupe(issues: FieldIssue[], message: string | undefined): FieldIssue[] {
	const seen = new Set<string>();
	return issues.filter((issue) => {
		const key = `${issue.field}\u0000${issue.message}`;
		if (seen.has(key) || (!issue.field && issue.message === message)) return false;
		seen.add(key);
		return true;
	});
}

// ---------------------------------------------------------------------------------------------
// Words for answers without the service's own

function oneLine(value: string): string {
	return value.replace(/\s+/g, ' ').trim();
}

function cut(value: string, max: number): string {
	return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	'#39': "'",
};

function decodeEntities(value: string): string {
	return value.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]);
}

/** An HTML page's title, else its first heading, else its first words: tags, scripts and styles removed. */
function pageTitle(html: string): string {
	const pick = (pattern: RegExp) => pattern.exec(html)?.[1];
	const raw =
		pick(/<title[^>]*>([\s\S]*?)<\/title>/i) ??
		pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i) ??
		html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
	const plain = oneLine(decodeEntities(raw.replace(/<[^>]*>?/g, ' ')).replace(/[<>]/g, ' '));
	return cut(plain, MAX_TITLE);
}

function who(options: ErrorReadOptions): string {
	return options.source === 'file' ? 'The file host' : 'VisionStory';
}

function redirectTarget(location: string | undefined, options: ErrorReadOptions): URL | undefined {
	if (!location) return undefined;
	try {
		return new URL(location, options.baseUrl);
	} catch {
		return undefined;
	}
}

function messageFor(
	status: number,
	body: Body,
	location: string | undefined,
	options: ErrorReadOptions,
): string {
	const by = who(options);
	if (status >= 300 && status < 400 && !options.download) {
		const target = redirectTarget(location, options);
		return target
			? `The Base URL redirects: VisionStory answered HTTP ${status} pointing to ${target.origin}`
			: `The Base URL redirects: VisionStory answered HTTP ${status} without saying where to`;
	}
	switch (body.kind) {
		case 'html': {
			const title = pageTitle(body.text);
			const front =
				options.source === 'file' ? 'The file host' : 'VisionStory or a proxy in front of it';
			return `${front} answered HTTP ${status} with an HTML page instead of ${options.source === 'file' ? 'the file' : 'an API answer'}${title ? ` ("${title}")` : ''}`;
		}
		case 'text':
			return `${by} answered HTTP ${status}: ${cut(oneLine(body.text), MAX_TEXT)}`;
		case 'binary':
			return `${by} answered HTTP ${status} with ${body.bytes} bytes that are not text`;
		default:
			return statusMessage(status, body.kind === 'empty', options);
	}
}

function statusMessage(status: number, empty: boolean, options: ErrorReadOptions): string {
	const by = who(options);
	const none = empty ? ', no details given' : '';
	if (status === 502 || status === 503 || status === 504)
		return `${by} is temporarily unavailable (HTTP ${status}${none})`;
	if (status >= 500) return `${by} had an internal error (HTTP ${status}${none})`;
	if (status === 429) return `${by} is limiting requests (HTTP 429${none})`;
	if (status >= 400) return `${by} refused the request (HTTP ${status}${none})`;
	return `${by} answered HTTP ${status}${none}`;
}

/** What a charged call that may have been processed must say, whatever else its answer says. */
const CHARGED_WARNING =
	'The request was not sent again because VisionStory may have processed and charged it: check the result or your credits before running it again.';

/** A charged call (not safe to resend) whose answer does not say it was refused: a 5xx or a 409. */
function mayHaveCharged(status: number, options: ErrorReadOptions): boolean {
	return options.replayable === false && (status >= 500 || status === 409);
}

function hintFor(
	status: number,
	code: number | string,
	body: Body,
	listed: boolean,
	location: string | undefined,
	options: ErrorReadOptions,
): string | undefined {
	if (options.download && status < 500 && status !== 429) return DOWNLOAD_HINT;
	if (status >= 300 && status < 400)
		return redirectHint(redirectTarget(location, options), options);
	const coded = code !== status ? defaultHint(undefined, code) : undefined;
	if (coded) return coded;
	// Only creates with an idempotency key get their original task back after a 409.
	if (status === 409 && options.replayable === false)
		return `VisionStory reported a conflict with another request. ${CHARGED_WARNING}`;
	if (status >= 500 || status === 429) return retryHint(status, options);
	if (body.kind === 'html' && options.source !== 'file') {
		return 'A proxy, a firewall or a wrong Base URL may be answering instead of the API. Check the Base URL in your VisionStory credential (https://openapi.visionstory.ai) and any proxy n8n goes through.';
	}
	if (status === 422 && !listed)
		return 'Check the values against what the operation accepts (List Models shows what each model accepts) and run again.';
	return defaultHint(status, code);
}

const DOWNLOAD_HINT =
	"The file's link may have expired or not be reachable from n8n; the result itself is not affected. For a video, Get with its ID gives a fresh link.";

function retryHint(status: number, options: ErrorReadOptions): string {
	const attempts = options.attempts ?? 1;
	const tried = attempts > 1 ? ` (the request was tried ${attempts} times)` : '';
	if (status === 429)
		return `Too many requests at once${tried}. Wait a minute, or lower the batch size.`;
	const trouble = `${who(options)} had a temporary problem`;
	if (options.replayable === false) {
		return `${trouble}. ${CHARGED_WARNING}`;
	}
	return `${trouble}${tried}. Try again in a few minutes.`;
}

function redirectHint(target: URL | undefined, options: ErrorReadOptions): string {
	const fromHttp = options.baseUrl?.startsWith('http://') && target?.protocol === 'https:';
	const where = target
		? ` to ${target.origin}`
		: ' to the address the service answers at (https://openapi.visionstory.ai)';
	return (
		`API calls do not follow redirects, so the API key is never sent to another address. Set the Base URL in your VisionStory credential${where}` +
		(fromHttp ? ' (https:// instead of http://).' : '.')
	);
}
