import type { ServerResponse } from 'node:http';
import { createPrng } from './prng';
import type { FaultKind, FaultResponse, Faults, FaultScript } from './types';

const KINDS: FaultKind[] = [
	'http500',
	'http503',
	'http429',
	'http409',
	'resetBefore',
	'resetAfter',
	'hangAfter',
	'truncateBody',
	'respond',
	'http403',
	'http404',
	'rewriteAnswer',
	'slow',
];

export interface FaultDecision {
	kind: FaultKind;
	retryAfter: number;
	/** The Retry-After header as sent: seconds, or an HTTP date. */
	retryAfterHeader: string;
	/** For `respond`: the answer to send instead of processing the request. */
	respond?: FaultResponse;
	/** For `rewriteAnswer`: fields of `data` to drop or set after processing. */
	rewrite?: FaultScript['rewrite'];
	/** Credits another program spends on the account before this request is handled. */
	spendElsewhere?: number;
	/** For `slow`: how long the request waits before it is handled. */
	delayMs?: number;
}

function decision(
	kind: FaultKind,
	retryAfter = 1,
	as: FaultScript['retryAfterAs'] = 'seconds',
	script: Pick<FaultScript, 'respond' | 'rewrite' | 'spendElsewhere' | 'delayMs'> = {},
): FaultDecision {
	const retryAfterHeader =
		as === 'date' ? new Date(Date.now() + retryAfter * 1000).toUTCString() : String(retryAfter);
	const { respond, rewrite, spendElsewhere, delayMs } = script;
	return {
		kind,
		retryAfter,
		retryAfterHeader,
		...(respond ? { respond } : {}),
		...(rewrite ? { rewrite } : {}),
		...(spendElsewhere ? { spendElsewhere } : {}),
		...(kind === 'slow' ? { delayMs: delayMs ?? 1000 } : {}),
	};
}

function checkResponse(respond: FaultResponse | undefined): void {
	if (
		!respond ||
		!Number.isInteger(respond.status) ||
		respond.status < 100 ||
		respond.status > 599
	) {
		throw new Error('a respond fault needs respond.status, an HTTP status from 100 to 599');
	}
}

/** Writes a `respond` fault's answer: a string as is, bytes from base64, any other value as JSON. */
export function sendFaultResponse(res: ServerResponse, respond: FaultResponse): void {
	const { body, bodyBase64 } = respond;
	const json = bodyBase64 === undefined && body !== undefined && typeof body !== 'string';
	const payload =
		bodyBase64 !== undefined
			? Buffer.from(bodyBase64, 'base64')
			: Buffer.from(json ? JSON.stringify(body) : ((body as string | undefined) ?? ''));
	const type = json ? 'application/json' : 'text/plain; charset=utf-8';
	const headers = {
		...(payload.length ? { 'Content-Type': type } : {}),
		'Content-Length': String(payload.length),
		...respond.headers,
	};
	res.writeHead(respond.status, headers);
	res.end(payload);
}

function noFaults(): Faults {
	return { rate5xx: 0, rate429: 0, resetRate: 0, latencyMs: 0, readLag: 0, failNext: [] };
}

function checkRate(name: string, value: unknown): void {
	if (typeof value !== 'number' || !(value >= 0 && value <= 1))
		throw new Error(`${name} must be a number from 0 to 1`);
}

/**
 * Decides, per request, whether to misbehave. Scripted entries come first and are consumed in order;
 * the random rates draw from a seeded PRNG so a run with the same seed fails the same requests.
 * Only the API origin gets random faults; the media origin only gets scripted ones aimed at it.
 */
export class FaultInjector {
	private current = noFaults();
	private random: () => number;
	/** Read lag: reads each lagging task is still missing from, by video id (0 once it shows). */
	private readonly lagging = new Map<string, number>();

	constructor(private readonly seed: number) {
		this.random = createPrng(seed);
	}

	get(): Faults {
		return { ...this.current, failNext: this.current.failNext.map((f) => ({ ...f })) };
	}

	set(change: Partial<Faults>): void {
		for (const name of ['rate5xx', 'rate429', 'resetRate'] as const)
			if (change[name] !== undefined) checkRate(name, change[name]);
		if (
			change.latencyMs !== undefined &&
			!(typeof change.latencyMs === 'number' && change.latencyMs >= 0)
		)
			throw new Error('latencyMs must be >= 0');
		if (change.readLag !== undefined && !(Number.isInteger(change.readLag) && change.readLag >= 0))
			throw new Error('readLag must be a whole number of reads, 0 for none');
		if (change.failNext !== undefined) {
			if (!Array.isArray(change.failNext)) throw new Error('failNext must be an array');
			for (const f of change.failNext) {
				if (!KINDS.includes(f.kind))
					throw new Error(`unknown fault kind ${String(f.kind)}; use one of ${KINDS.join(', ')}`);
				if (f.kind === 'respond') checkResponse(f.respond);
				if (
					f.spendElsewhere !== undefined &&
					!(typeof f.spendElsewhere === 'number' && f.spendElsewhere >= 0)
				)
					throw new Error('spendElsewhere must be a number of credits >= 0');
				if (f.after !== undefined && !(Number.isInteger(f.after) && f.after >= 0))
					throw new Error('after must be a whole number of requests >= 0');
				if (f.forMs !== undefined && !(typeof f.forMs === 'number' && f.forMs > 0))
					throw new Error('forMs must be a number of ms > 0');
			}
		}
		this.current = {
			...this.current,
			...change,
			failNext: (change.failNext ?? this.current.failNext).map((f) => ({ ...f })),
		};
	}

	clear(): void {
		this.current = noFaults();
		this.lagging.clear();
	}

	/** Back to the seeded state: no faults and the PRNG rewound. */
	reset(): void {
		this.clear();
		this.random = createPrng(this.seed);
	}

	/** A create the service took: with `readLag` on, its new task stays out of that many reads. */
	created(videoId: string): void {
		if (this.current.readLag > 0 && !this.lagging.has(videoId))
			this.lagging.set(videoId, this.current.readLag);
	}

	/**
	 * A successful answer's `data` as a lagging read replica gives it: each read that would show a
	 * lagging task leaves it out (a single read of it is a 404) and counts one of its lagging reads.
	 */
	lagRead(method: string, path: string, query: URLSearchParams, data: unknown): LaggedRead {
		if (method !== 'GET' || this.lagging.size === 0) return { data };
		const single = query.get('video_id');
		const what = SINGLE_READS[path];
		if (single !== null && what !== undefined)
			return this.hides(single) ? { data, missing: { what, id: single } } : { data };
		const videos = (data as { videos?: unknown } | null)?.videos;
		if (!LIST_READS.has(path) || !Array.isArray(videos)) return { data };
		const shown = videos.filter(
			(v) => !this.hides(String((v as { video_id?: unknown } | null)?.video_id)),
		);
		return { data: { ...(data as object), videos: shown } };
	}

	private hides(videoId: string): boolean {
		const left = this.lagging.get(videoId);
		if (!left) return false;
		this.lagging.set(videoId, left - 1);
		return true;
	}

	/**
	 * The scripted entry that hits this request, consumed as it goes: every matching entry still
	 * letting requests through (`after`) counts this one; the first with nothing left to let through
	 * hits, for its `count` or within its `forMs` window.
	 */
	private scripted(
		origin: 'api' | 'media',
		method: string,
		path: string,
		now: number,
	): FaultScript | undefined {
		const list = this.current.failNext as Running[];
		for (const entry of [...list]) {
			if (!matches(entry, origin, method, path)) continue;
			if (entry.after) {
				entry.after--;
				continue;
			}
			if (entry.forMs !== undefined) {
				entry.openedAt ??= now;
				if (now - entry.openedAt < entry.forMs) return entry;
				list.splice(list.indexOf(entry), 1);
				continue;
			}
			const left = (entry.count ?? 1) - 1;
			if (left > 0) entry.count = left;
			else list.splice(list.indexOf(entry), 1);
			return entry;
		}
		return undefined;
	}

	latencyMs(origin: 'api' | 'media'): number {
		return origin === 'api' ? this.current.latencyMs : 0;
	}

	/** `now`: the emulator clock, which a `forMs` window is measured on. */
	pick(
		origin: 'api' | 'media',
		method: string,
		path: string,
		now = Date.now(),
	): FaultDecision | undefined {
		const scripted = this.scripted(origin, method, path, now);
		if (scripted)
			return decision(scripted.kind, scripted.retryAfter, scripted.retryAfterAs, scripted);
		if (origin !== 'api') return undefined;
		const { resetRate, rate5xx, rate429 } = this.current;
		// Draw only for rates in use, so turning one on does not shift the sequence of the others.
		if (resetRate > 0 && this.random() < resetRate) return decision('resetBefore');
		if (rate5xx > 0 && this.random() < rate5xx)
			return decision(this.random() < 0.5 ? 'http500' : 'http503');
		if (rate429 > 0 && this.random() < rate429) return decision('http429');
		return undefined;
	}
}

/** A scripted entry as it runs: when its `forMs` window opened. */
type Running = FaultScript & { openedAt?: number };

function matches(f: FaultScript, origin: 'api' | 'media', method: string, path: string): boolean {
	return (
		(f.origin ?? 'api') === origin &&
		(!f.method || f.method.toUpperCase() === method) &&
		(!f.path || f.path === path)
	);
}

/** Paths whose answers show video tasks: the single reads (404 while lagging) and the batch read and lists. */
const SINGLE_READS: Record<string, string> = {
	'/api/v1/video': 'Video',
	'/api/v1/ai_video': 'AI video',
};
const LIST_READS = new Set(['/api/v1/ai_video', '/api/v1/videos', '/api/v1/ai_videos']);

export interface LaggedRead {
	/** The answer's `data` with the lagging tasks left out. */
	data: unknown;
	/** A single read of a lagging task: the task's name and id, answered 404. */
	missing?: { what: string; id: string };
}
