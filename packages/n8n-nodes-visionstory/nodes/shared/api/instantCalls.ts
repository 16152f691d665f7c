/**
 * Instant charged calls (image, speech, align, transcribe, understand, voice clone, avatar create)
 * sent at most once per intent, for every host. VisionStory charges them on success and takes no
 * idempotency key, so a host that runs the same work again (n8n's Retry On Fail runs the node again;
 * Node-RED re-sends a message with its `_msgid`) would pay again. An intent is the host's scope (n8n:
 * execution, node, run and item; Node-RED: message, node and batch entry) with the request itself:
 * within it, a call answered before returns that answer without sending anything, and a call that
 * may have been charged without an answer saying so is refused with the reason. A call the service
 * refused (an error answer) was not charged, and is sent again.
 */
import type { Checked } from './client';
import { fieldsOf } from './client';
import type { EndpointName, ResponseOf } from './contract';
import { VisionStoryError } from './errors';
import { deriveClientRequestId } from './idempotency';
import type { MediaPart } from './mediaBody';
import type { ChargedEndpoint } from './spend';
import { CHARGED_ENDPOINTS } from './spend';
import type { SpendingClient } from './spendingClient';
import type { CallOptions } from './exchange';

/** The charged endpoints that answer at once, with the result itself: every one but the video creates (tasks, keyed). */
export type InstantEndpoint = Exclude<ChargedEndpoint, 'createTalkingVideo' | 'createAiVideo'>;
export const INSTANT_ENDPOINTS = CHARGED_ENDPOINTS.filter(
	(name): name is InstantEndpoint => name !== 'createTalkingVideo' && name !== 'createAiVideo',
);

export function isInstant(name: string): name is InstantEndpoint {
	return (INSTANT_ENDPOINTS as readonly string[]).includes(name);
}

/** What a call is, in the words of a refusal. */
const WHAT: Record<InstantEndpoint, string> = {
	generateImage: 'an image generation',
	synthesizeSpeech: 'a speech synthesis',
	alignAudio: 'an alignment',
	transcribeAudio: 'a transcription',
	understandMedia: 'a media analysis',
	cloneVoice: 'a voice clone',
	createAvatar: 'an avatar creation',
};

/** An answer kept for a later try: its size, and a fresh copy of it each time it is asked for. */
export interface Kept<T> {
	bytes: number;
	copy(): T;
}

interface Entry {
	endpoint: InstantEndpoint;
	/** The call in words: what it was and its main fields. */
	sent: string;
	state: 'underway' | 'answered' | 'uncertain';
	/** Settles when the call under way ends, for a second try that arrives meanwhile. */
	ended?: Promise<unknown>;
	/** The answer, while the memory allows. */
	kept?: Kept<unknown>;
	/** Why a call that may have been charged has no usable answer, in words. */
	reason?: string;
	touchedAt: number;
}

/** Whether a failed call may still have been charged: answered success unread, or its answer lost after it reached VisionStory. */
function mayHaveBeenCharged(error: unknown): boolean {
	return (
		error instanceof VisionStoryError &&
		(error.category === 'response' ||
			error.mayHaveSucceeded === true ||
			(error.category === 'network' && error.mayHaveReachedService === true))
	);
}

function shortened(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A request's main fields, for a refusal: short values only, never file contents. */
export function describeCall(endpoint: InstantEndpoint, request: Record<string, unknown>): string {
	const fields: string[] = [];
	for (const [name, value] of Object.entries(request)) {
		const url = (value as { url?: unknown } | null)?.url;
		const shown =
			typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
				? value
				: typeof url === 'string'
					? url
					: undefined;
		if (shown === undefined || name === 'inline_data') continue;
		fields.push(`${name} ${JSON.stringify(shortened(String(shown), 60))}`);
		if (fields.length === 3) break;
	}
	return fields.length ? `${WHAT[endpoint]} (${fields.join(', ')})` : WHAT[endpoint];
}

/**
 * The refusal of a call an earlier try may have been charged for: what was sent, why it may have
 * been charged, how to check, and how to send it again on purpose.
 */
export function notSentAgainError(
	entry: Pick<Entry, 'endpoint' | 'sent' | 'reason'>,
): VisionStoryError {
	// In words, not the earlier error's own: n8n replaces a message naming a network code (ECONNRESET).
	const why =
		entry.reason === undefined
			? 'VisionStory answered it, so it was charged, but the answer is no longer held in memory'
			: `${entry.reason}, so it may have been charged`;
	return new VisionStoryError({
		category: 'validation',
		operation: entry.endpoint,
		message: `Not sent again: an earlier try of this same work sent ${entry.sent} and ${why}. Sending it again could charge it twice`,
		hint: 'Check your credits (Account → Get Credits, or the VisionStory dashboard) to see whether it was charged. To send it again on purpose, start it anew: run the workflow again in n8n (a new execution, not a Retry of this one), or send a new message in Node-RED.',
		details: { notSentAgain: true },
	});
}

/**
 * The intents of instant charged calls, by key, in bounded memory: past `maxEntries`, or untouched
 * for `idleMs`, the least recently used are forgotten (a try after that sends again); answers are
 * kept up to `maxKeptBytes` in all, the least recently used dropped first (a try after that is
 * refused: it was charged).
 */
export class InstantCallBook {
	/** A Map iterates in insertion order and every touch re-inserts: the first entries are the least recently used. */
	private readonly entries = new Map<string, Entry>();
	private keptBytes = 0;

	constructor(
		private readonly maxEntries = 10_000,
		private readonly idleMs = 6 * 60 * 60_000,
		private readonly maxKeptBytes = 64 * 1024 * 1024,
	) {}

	/**
	 * Runs `call` once for `key`: a later run of the same key gets a copy of the answer (`keep` makes
	 * it), waits for a run still under way, or is refused when the earlier one may have been charged
	 * without an answer. A run that failed without a charge leaves nothing behind.
	 */
	async once<T>(
		key: string,
		endpoint: InstantEndpoint,
		sent: string,
		call: () => Promise<T>,
		keep: (answer: T) => Kept<T>,
	): Promise<T> {
		for (;;) {
			const entry = this.touch(key);
			if (!entry) break;
			if (entry.state === 'underway') {
				await entry.ended;
				continue;
			}
			if (entry.state === 'answered' && entry.kept) return entry.kept.copy() as T;
			throw notSentAgainError(entry);
		}
		let end!: () => void;
		const entry: Entry = {
			endpoint,
			sent,
			state: 'underway',
			ended: new Promise<void>((resolve) => (end = resolve)),
			touchedAt: Date.now(),
		};
		this.entries.set(key, entry);
		this.trim();
		const outcome = await call().then(
			(answer) => ({ ok: true as const, answer }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		entry.ended = undefined;
		end();
		if (outcome.ok) {
			this.settle(entry, keep(outcome.answer));
			return outcome.answer;
		}
		if (mayHaveBeenCharged(outcome.error)) {
			entry.state = 'uncertain';
			entry.reason =
				(outcome.error as VisionStoryError).category === 'response'
					? 'VisionStory answered it with success, but the answer could not be read'
					: 'its answer was lost after it reached VisionStory';
		} else if (this.entries.get(key) === entry) this.entries.delete(key);
		throw outcome.error;
	}

	/** How many intents are remembered, and the bytes of the answers kept (for tests). */
	get size(): { entries: number; keptBytes: number } {
		return { entries: this.entries.size, keptBytes: this.keptBytes };
	}

	private touch(key: string): Entry | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (Date.now() - entry.touchedAt > this.idleMs) {
			this.forget(key, entry);
			return undefined;
		}
		entry.touchedAt = Date.now();
		this.entries.delete(key);
		this.entries.set(key, entry);
		return entry;
	}

	private settle(entry: Entry, kept: Kept<unknown>): void {
		entry.state = 'answered';
		entry.touchedAt = Date.now();
		entry.kept = kept;
		this.keptBytes += kept.bytes;
		this.trim();
	}

	private forget(key: string, entry: Entry): void {
		this.drop(entry);
		this.entries.delete(key);
	}

	private drop(entry: Entry): void {
		if (!entry.kept) return;
		this.keptBytes -= entry.kept.bytes;
		entry.kept = undefined;
	}

	/** Forgets the least recently used intents past the bounds, then drops their answers past the memory allowed. */
	private trim(): void {
		const now = Date.now();
		for (const [key, entry] of this.entries) {
			if (this.entries.size <= this.maxEntries && now - entry.touchedAt <= this.idleMs) break;
			// A call under way is never forgotten: a try waiting on it must learn how it ended.
			if (entry.state !== 'underway') this.forget(key, entry);
		}
		for (const entry of this.entries.values()) {
			if (this.keptBytes <= this.maxKeptBytes) break;
			this.drop(entry);
		}
	}
}

/** The process's one book: every node of a host shares it (keys name the host's scope). */
export const instantCalls = new InstantCallBook();

/** A JSON answer kept as its text: each try gets its own copy. */
export function keptJson<T>(answer: T): Kept<T> {
	const text = JSON.stringify(answer) ?? 'null';
	return { bytes: text.length, copy: () => JSON.parse(text) as T };
}

/** The key of an intent: the host's scope, the endpoint, the request and the files behind it (by identity). */
export function intentKey(
	scope: string,
	endpoint: InstantEndpoint,
	request: Record<string, unknown>,
	media?: Record<string, MediaPart>,
): string {
	const files = media
		? Object.fromEntries(Object.entries(media).map(([k, v]) => [k, v.identity]))
		: undefined;
	return deriveClientRequestId({ endpoint, request, files }, scope);
}

/**
 * Sends a checked call; an instant charged one at most once within `scope` (no scope: sent as it is,
 * e.g. an MCP tool call, which belongs to no execution): a try after an answer gets a copy of it, a
 * try after a lost answer is refused.
 */
export async function sendInstant<N extends EndpointName>(
	client: SpendingClient,
	name: N,
	request: Checked<N>,
	options: CallOptions,
	scope: string | undefined,
	book: InstantCallBook = instantCalls,
): Promise<ResponseOf<N>> {
	if (!scope || !isInstant(name)) return await client.send(name, request, options);
	const fields = fieldsOf(request);
	return await book.once(
		intentKey(scope, name, fields, options.media),
		name,
		describeCall(name, fields),
		async () => await client.send(name, request, options),
		keptJson,
	);
}
