import type { VisionStoryError } from './errors';

/**
 * What an answer proves, written once. One record per paid intent: the key a video create is sent
 * under, its attempts (a new key only after evidence the video will never come), and for each attempt
 * what the service showed of it: sent, answered, the video's id, the states seen and when, the reads
 * that did not find it and when, the reads that failed. Then the rule table (`RULES`): what evidence
 * allows each decision that can cost or lose money. The creates, the waits, Check Status and
 * Node-RED's resume ask it, on both hosts.
 */

/** A read that asked for the video and did not find it: a 404, or missing from a batch or list that asked for it. */
export type AbsenceKind = 'notFound' | 'missing';

export interface Sighting {
	status: string;
	at: number;
}

/** What the rules read of an attempt: the watcher, or any reader of tasks by id, can hold the same. */
export interface Evidence {
	/** When a create under this key was answered with the video. */
	answeredAt?: number;
	/** When a create under this key was answered again with the same video after a read had shown it. */
	answeredAgainAt?: number;
	firstSeen?: Sighting;
	lastSeen?: Sighting;
	/** Reads that asked for the video and did not find it since a read last showed it. */
	absences: ReadonlyArray<{ at: number; kind: AbsenceKind }>;
	/** Reads that failed (a 5xx, a gateway's page, a reset) since a read last showed it: they prove nothing about it. */
	readErrors: ReadonlyArray<{ at: number; status?: number; message: string }>;
}

/** The last read of the video showed it (no read since failed or missed it). */
function shownLast(evidence: Evidence): boolean {
	return (
		evidence.lastSeen !== undefined &&
		evidence.absences.length === 0 &&
		evidence.readErrors.length === 0
	);
}

/** Entries kept per attempt of the absences and read errors since the video was last seen: the rules read the last few. */
const KEPT = 20;

function keep<T>(list: T[], entry: T): void {
	list.push(entry);
	if (list.length > KEPT) list.splice(0, list.length - KEPT);
}

/** One attempt of an intent: its key, and what the service showed of it. */
export class Attempt implements Evidence {
	sentAt?: number;
	answeredAt?: number;
	answeredAgainAt?: number;
	videoId?: string;
	firstSeen?: Sighting;
	lastSeen?: Sighting;
	readonly absences: Array<{ at: number; kind: AbsenceKind }> = [];
	readonly readErrors: Array<{ at: number; status?: number; message: string }> = [];

	constructor(
		/** The client_request_id it is sent under. */
		readonly key: string,
	) {}

	sent(at: number): void {
		this.sentAt ??= at;
	}

	/** A create under this key was answered with `videoId`; true when it named this video before. */
	answered(videoId: string, at: number): boolean {
		const again = this.videoId === videoId;
		if (!again) {
			// Another video than before (the service forgot the key): nothing seen of the old one counts.
			this.videoId = videoId;
			this.firstSeen = this.lastSeen = this.answeredAgainAt = undefined;
			this.absences.length = this.readErrors.length = 0;
		} else if (this.lastSeen) this.answeredAgainAt = at;
		this.answeredAt = at;
		return again;
	}

	/** A read showed the video in `status`. */
	seen(status: string, at: number): void {
		this.firstSeen ??= { status, at };
		this.lastSeen = { status, at };
		this.absences.length = this.readErrors.length = 0;
	}

	/** A read that asked for the video did not find it (one entry per read, whoever asked). */
	absent(kind: AbsenceKind, at: number): void {
		if (this.absences[this.absences.length - 1]?.at === at) return;
		keep(this.absences, { at, kind });
	}

	readFailed(error: VisionStoryError, at: number): void {
		if (this.readErrors[this.readErrors.length - 1]?.at === at) return;
		keep(this.readErrors, { at, status: error.status, message: error.message });
	}
}

/** One paid intent: a create as its item asks for it, under its key, with every attempt made for it. */
export class Intent {
	private readonly attempts: Attempt[] = [];

	constructor(
		/** The key of the first attempt: the user's, or derived from the execution, the node, the item and the body. */
		readonly key: string,
		/** The key of attempt `n` (0: `key`). */
		private readonly keyOf: (n: number) => string,
	) {}

	attempt(n: number): Attempt {
		for (let i = this.attempts.length; i <= n; i++) this.attempts.push(new Attempt(this.keyOf(i)));
		return this.attempts[n];
	}
}

/**
 * The intents this process has sent, by key: a node run again (n8n's Retry On Fail, the same Node-RED
 * message) finds what the service showed of its videos. The least recently used are forgotten past
 * the bound.
 */
export class IntentBook {
	private readonly intents = new Map<string, Intent>();

	constructor(private readonly max = 10_000) {}

	intent(key: string, keyOf: (n: number) => string): Intent {
		const intent = this.intents.get(key) ?? new Intent(key, keyOf);
		this.intents.delete(key);
		this.intents.set(key, intent);
		if (this.intents.size > this.max) this.intents.delete(this.intents.keys().next().value!);
		return intent;
	}
}

/** The process's intents, shared by every node and execution of this package. */
export const intents = new IntentBook();

/** A video made this long before its create was sent was made by an earlier call, whatever the clocks say. */
const OLD_VIDEO_MS = 10 * 60_000;

/** Why a video will never come: a read showed it failed (refunded), or it is gone. */
export type NeverComes = 'failed' | 'gone';

/**
 * The rule table: what evidence allows each decision that can cost or lose money. A read error (5xx,
 * a gateway's page, a timeout, a reset) proves nothing about a task; a 404 alone neither (a replica
 * behind, a load balancer); the absence of an answer never.
 */
export const RULES = {
	/** Reads a video must be missing from, after its key was answered again, before it is gone. */
	goneAfterAbsences: 3,
	/** Poll intervals those reads must span, first to last. */
	goneAfterIntervals: 2,

	/** The last read showed the video failed: it will never come, and the service refunded it. */
	failed(evidence: Evidence): boolean {
		return shownLast(evidence) && evidence.lastSeen!.status === 'failed';
	},

	/**
	 * The video is gone (deleted, expired): a read showed it; then its key, sent again, was answered
	 * with that same video; and since, at least `goneAfterAbsences` reads asked for it and did not find
	 * it, spread over `goneAfterIntervals` poll intervals, none showing it. So the key no longer returns
	 * a video anyone can read. A wait does not send its key again: on its own it never finds a video
	 * gone, only after a create was answered with a video made before.
	 */
	gone(evidence: Evidence, pollIntervalMs: number): boolean {
		const { lastSeen, answeredAgainAt } = evidence;
		if (!lastSeen || answeredAgainAt === undefined || answeredAgainAt < lastSeen.at) return false;
		const since = evidence.absences.filter((a) => a.at >= answeredAgainAt);
		if (since.length < RULES.goneAfterAbsences) return false;
		const span = since[since.length - 1].at - since[0].at;
		return span >= RULES.goneAfterIntervals * pollIntervalMs;
	},

	/**
	 * Why the video will never come, where the evidence proves it: the only ground for a new paid
	 * attempt (a new key) for the intent, and for a wait to end before its Timeout.
	 */
	neverComes(evidence: Evidence, pollIntervalMs: number): NeverComes | undefined {
		if (RULES.failed(evidence)) return 'failed';
		return RULES.gone(evidence, pollIntervalMs) ? 'gone' : undefined;
	},

	/** Reads by id a task the watcher follows must be missing from before it stops following it… */
	watchedGoneAfterMisses: 5,
	/** …the first of them at least this long before: polls every few seconds never drop a task on a replica's lag. */
	watchedGoneAfterMs: 10 * 60_000,

	/**
	 * The watcher (n8n's trigger, Node-RED's watch node) stops following a task a list showed once its
	 * reads by id have kept missing it (404s, missing from batch answers) `watchedGoneAfterMisses` times
	 * over `watchedGoneAfterMs`; a read that failed is not a miss, and a read that shows it starts over.
	 * Deleted or expired, it would never finish; anything sooner proves nothing.
	 */
	watchedGone(pending: { misses: number; missedAt?: number }, now: number): boolean {
		return (
			pending.misses >= RULES.watchedGoneAfterMisses &&
			pending.missedAt !== undefined &&
			now - pending.missedAt >= RULES.watchedGoneAfterMs
		);
	},

	/**
	 * Answered with an id no read has shown: not visible yet (a read replica behind the primary), never
	 * gone, whatever the reads say. It is waited for, never made anew.
	 */
	notVisibleYet(evidence: Evidence): boolean {
		return evidence.answeredAt !== undefined && evidence.firstSeen === undefined;
	},

	/**
	 * Whether a wait on the video is over, and how: the last read showed it created or failed, or it is
	 * gone. Otherwise the wait goes on to the item's Timeout: read errors and absences never end it.
	 */
	settled(evidence: Evidence, pollIntervalMs: number): 'created' | NeverComes | undefined {
		if (shownLast(evidence) && evidence.lastSeen!.status === 'created') return 'created';
		return RULES.neverComes(evidence, pollIntervalMs);
	},

	/**
	 * The answer to a create is a video made before, not by this call (no new video, no new charge):
	 * its key named it before in this process, a read shows it already rendered, or it was made well
	 * before the create was sent (`madeAt`, whatever the clocks say).
	 */
	existing(answeredBefore: boolean, status: string | undefined, madeAt: number, sentAt: number) {
		return answeredBefore || status === 'created' || (madeAt > 0 && madeAt < sentAt - OLD_VIDEO_MS);
	},
} as const;
