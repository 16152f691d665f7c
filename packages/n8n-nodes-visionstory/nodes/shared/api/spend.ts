import { Slots } from './concurrency';
import type { EndpointName } from './contract';
import type { FieldIssue } from './errors';
import { VisionStoryError } from './errors';

/**
 * The spend cap: what one execution has been charged, and what a charged call may cost. No n8n in
 * here: the framework keeps one ledger per execution and hands it to every node of that execution;
 * `SpendingClient` (spendingClient.ts) consults it before each charged call.
 *
 * A price is known (a number above 0, `knownPrice`) or unknown: never 0 for "not known", and a price
 * of 0 read anywhere is unknown. The cap admits a call of known price when the known spend plus that
 * price stays within it, and a call of unknown price only when no other charge's price is unknown and
 * the known spend is under the cap; so the service never charges more than the cap plus the price of
 * one call whose price was unknown.
 */

/**
 * The endpoints VisionStory may charge for (on success only). Voice cloning and avatar creation are
 * in: the contract says operations charge credits and states no price for them, so they are counted
 * as calls of unknown price.
 */
export const CHARGED_ENDPOINTS = [
	'createTalkingVideo',
	'createAiVideo',
	'generateImage',
	'synthesizeSpeech',
	'alignAudio',
	'transcribeAudio',
	'understandMedia',
	'cloneVoice',
	'createAvatar',
] as const satisfies readonly EndpointName[];
export type ChargedEndpoint = (typeof CHARGED_ENDPOINTS)[number];

export function isCharged(name: string): name is ChargedEndpoint {
	return (CHARGED_ENDPOINTS as readonly string[]).includes(name);
}

/**
 * A price the cap can count: a number above 0. A price of 0 (the contract's default of `cost_credit`,
 * a cost endpoint or a model list answering 0), absent or unreadable is unknown: a call priced so is
 * admitted as one of unknown price, one at a time, never as a free one.
 */
export function knownPrice(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** TTS: 2 credits per started 1000 characters (the contract's formula). */
export function speechPrice(characters: number): number {
	return 2 * Math.ceil(characters / 1000);
}

/** Align: 1 credit per started 5 minutes of audio (the contract's formula). */
export function alignPrice(durationSec: number): number {
	return Math.max(1, Math.ceil(durationSec / 300));
}

/** One charged call (or one video task, whatever number of resends carried it). */
interface Charge {
	endpoint: ChargedEndpoint;
	/** What it cost, when known. */
	credits?: number;
	/** A price known before the call (cost endpoint, formula, model list): a read never lowers it while the task can still be charged. */
	quoted?: number;
	/** The task a video create made, whose reads tell its cost. */
	videoId?: string;
}

/** What a status read says of a task's cost. */
export interface TaskCost {
	video_id?: unknown;
	status?: unknown;
	cost_credit?: unknown;
}

/**
 * What one execution was charged, by charge: a create the service replays for the same idempotency
 * key (n8n's Retry On Fail, a resend) lands on the same entry instead of adding to it.
 */
export class SpendLedger {
	private readonly charges = new Map<string, Charge>();
	/** Credits of charged calls under way, so calls running side by side cannot pass the cap together. */
	private reserved = 0;
	/** Calls of unknown price under way. */
	private unknownUnderWay = 0;
	private sequence = 0;
	/** Calls of unknown price run one at a time, in turn: each must see what the one before it cost. */
	readonly unknownPriceSlot = new Slots(1);
	/** Video ids this execution created, by charge key, to learn their cost when their status is read. */
	private readonly videos = new Map<string, string>();

	/** Credits charged whose price is known. */
	spent(): number {
		let total = 0;
		for (const charge of this.charges.values()) total += charge.credits ?? 0;
		return total;
	}

	/** Spent plus what calls under way of known price may still cost. */
	committed(): number {
		return this.spent() + this.reserved;
	}

	/** Charges (and calls under way) whose price is not known yet. */
	unknown(): number {
		let count = this.unknownUnderWay;
		for (const charge of this.charges.values()) if (charge.credits === undefined) count++;
		return count;
	}

	/** The tasks whose price is not known yet: a status read may tell it. */
	unknownVideos(): Array<{ endpoint: ChargedEndpoint; videoId: string }> {
		const videos: Array<{ endpoint: ChargedEndpoint; videoId: string }> = [];
		for (const charge of this.charges.values())
			if (charge.credits === undefined && charge.videoId)
				videos.push({ endpoint: charge.endpoint, videoId: charge.videoId });
		return videos;
	}

	has(key: string): boolean {
		return this.charges.has(key);
	}

	/** The price of a video this execution created, when known. */
	creditsOf(videoId: string): number | undefined {
		const key = this.videos.get(videoId);
		return key === undefined ? undefined : this.charges.get(key)?.credits;
	}

	/**
	 * A call that was, or may have been, charged: at its quoted price when one is known, else unknown
	 * until a report says. A second note of the same key (a resend) changes nothing.
	 */
	note(key: string, endpoint: ChargedEndpoint, quoted?: number): void {
		if (this.charges.has(key)) return;
		this.charges.set(key, { endpoint, quoted, credits: quoted });
	}

	/**
	 * What the service reported a call cost. 0 is the contract's default of `cost_credit`, not a
	 * price: it leaves a quoted price, or an unknown one, as it was.
	 */
	report(key: string, credits: unknown): void {
		const charge = this.charges.get(key);
		const price = knownPrice(credits);
		if (!charge || price === undefined) return;
		charge.credits = price;
	}

	newKey(endpoint: string): string {
		return `${endpoint}#${++this.sequence}`;
	}

	reserve(credits: number | undefined): () => void {
		if (credits === undefined) this.unknownUnderWay++;
		else this.reserved += credits;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			if (credits === undefined) this.unknownUnderWay--;
			else this.reserved -= credits;
		};
	}

	trackVideo(videoId: string, key: string): void {
		this.videos.set(videoId, key);
		const charge = this.charges.get(key);
		if (charge) charge.videoId = videoId;
	}

	/**
	 * A task read. A failed task was refunded: 0. A cost the service reports (above 0) is taken, but
	 * while the task can still be charged it never lowers a quoted price. A read without a cost
	 * leaves what was noted: the quote, or unknown.
	 */
	observeTask(task: TaskCost): void {
		const key = typeof task.video_id === 'string' ? this.videos.get(task.video_id) : undefined;
		const charge = key === undefined ? undefined : this.charges.get(key);
		if (!charge) return;
		if (task.status === 'failed') {
			charge.credits = 0;
			return;
		}
		const cost = knownPrice(task.cost_credit);
		if (cost === undefined) return;
		charge.credits = task.status === 'created' ? cost : Math.max(cost, charge.quoted ?? 0);
	}
}

/**
 * A spend limit as a host stores it (Max Credits, Keep at Least N Credits): empty or 0 means none;
 * anything else must be a whole number of credits, as a number or its digits. An issue names the
 * field and `where` it is set.
 */
export function readLimit(
	value: unknown,
	field: string,
	where: string,
): { credits?: number; issue?: FieldIssue } {
	if (value === undefined || value === null || value === 0) return {};
	const text = typeof value === 'string' ? value.trim() : value;
	if (text === '') return {};
	const n = typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : text;
	if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
		return {
			issue: {
				field: `${field} ${where}`,
				message: `must be a whole number of credits, empty or 0 for none (got ${JSON.stringify(value)})`,
			},
		};
	}
	return n > 0 ? { credits: n } : {};
}

/** The execution's cap and how charged calls are priced before they are sent. */
export interface SpendPolicy {
	/** Max Credits per Execution; undefined or 0: no cap. */
	cap?: number;
	/** Where the cap was set, to name it in the error (an option, or the credential). */
	capSource?: string;
	/** Keep at Least N Credits: the account balance a charged call may not take the account below. */
	floor?: BalanceFloor;
}

/** What `SpendingClient` needs of the balance floor (balance.ts): a check before each charged send. */
export interface BalanceFloor {
	/**
	 * Refuses, or admits and holds `credits` (unknown: one call at a time) until the call is answered.
	 * `key` names the charge (a create's idempotency key): an earlier attempt of it that may have been
	 * charged is held until this one is answered.
	 */
	admit(
		endpoint: string,
		credits: number | undefined,
		readBalance: () => Promise<number | undefined>,
		key?: string,
	): Promise<FloorHold>;
	/** Refuses several calls of known price whose total does not fit, or holds each one's price until its release. */
	admitAll(
		endpoint: string,
		credits: number[],
		readBalance: () => Promise<number | undefined>,
	): Promise<Array<() => void>>;
}

/** An admitted call's place in the account's book. */
export interface FloorHold {
	/** Checks the floor again with a fresh balance: before a resend of the call, which may be charged too. */
	recheck(): Promise<void>;
	/**
	 * The call is over: answered (`settled`), or it may have been charged without an answer saying so
	 * (`uncertain`: it stays reserved until an attempt of the same key is answered, or for a while).
	 */
	release(outcome: 'settled' | 'uncertain'): void;
}

export function spendCapError(
	endpoint: string,
	policy: SpendPolicy,
	spent: number,
	estimate: number | undefined,
	underWay = 0,
): VisionStoryError {
	const pending = underWay > 0 ? ` (and calls under way may cost ${underWay} more)` : '';
	const cost =
		estimate === undefined
			? 'Its price is known only after the call, and the cap is reached'
			: `It would cost about ${estimate} credits`;
	return new VisionStoryError({
		category: 'validation',
		operation: endpoint,
		message: `Max Credits per Execution (${policy.cap}) would be passed: this execution has spent ${spent} credits${pending}. ${cost}. Nothing was sent or charged.`,
		hint: `Raise Max Credits per Execution (${policy.capSource ?? 'node Options or the credential'}), or run the rest in a new execution.`,
		details: {
			maxCreditsPerExecution: policy.cap,
			creditsSpent: spent,
			estimatedCredits: estimate ?? null,
		},
	});
}

/**
 * A call of unknown price while another charge's price is still unknown: sending it could pass the
 * cap by more than one call. Video creates waiting on their task hold it until a read tells the price.
 */
export function pricePendingError(
	endpoint: string,
	policy: SpendPolicy,
	spent: number,
	videoIds: string[],
): VisionStoryError {
	const which = videoIds.length
		? `the price of ${videoIds.join(', ')}, made earlier in this execution, is not known yet (VisionStory reports it with the task, at the latest once rendered)`
		: 'an earlier charged call of this execution has a price VisionStory has not reported';
	return new VisionStoryError({
		category: 'validation',
		operation: endpoint,
		message: `Max Credits per Execution (${policy.cap}): ${which}, and this call's price is known only after it, so it could pass the cap. This execution has spent ${spent} credits that are known. Nothing was sent or charged.`,
		hint: `Run it once the earlier video has finished (Wait for Completion holds it until then), raise Max Credits per Execution (${policy.capSource ?? 'node Options or the credential'}), or run it in a new execution.`,
		details: { maxCreditsPerExecution: policy.cap, creditsSpent: spent, pricePending: true },
	});
}

/** A refusal that waits on an earlier price: a video create can be held until a read tells it. */
export function isPricePending(error: VisionStoryError): boolean {
	return error.details?.pricePending === true;
}
