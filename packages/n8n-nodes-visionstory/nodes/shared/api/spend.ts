import type { OperationName } from './contract';
import { VisionStoryError } from './errors';

/**
 * The spend cap: what one execution has been charged, and what a charged call may cost. No n8n in
 * here: the framework keeps one ledger per execution and hands it to every node of that execution;
 * `SpendingClient` (client.ts) consults it before each charged call.
 */

/** The operations VisionStory charges for (on success only). */
export const CHARGED_OPERATIONS = [
	'createTalkingVideo',
	'createAiVideo',
	'generateImage',
	'synthesizeSpeech',
	'alignAudio',
	'transcribeAudio',
	'understandMedia',
] as const satisfies readonly OperationName[];
export type ChargedOperation = (typeof CHARGED_OPERATIONS)[number];

export function isCharged(name: string): name is ChargedOperation {
	return (CHARGED_OPERATIONS as readonly string[]).includes(name);
}

/** TTS: 2 credits per started 1000 characters (the contract's formula). */
export function speechPrice(characters: number): number {
	return 2 * Math.ceil(characters / 1000);
}

/**
 * What one execution was charged, by charge: a create the service replays for the same idempotency
 * key (n8n's Retry On Fail, a resend) lands on the same entry instead of adding to it.
 */
export class SpendLedger {
	private readonly charges = new Map<string, number>();
	/** Credits of charged calls under way, so calls running side by side cannot pass the cap together. */
	private reserved = 0;
	private sequence = 0;
	/** Calls of unknown price run one at a time: each must see what the one before it cost. */
	private queue: Promise<void> = Promise.resolve();
	/** Video ids this execution created, by charge key, to learn their cost when their status is read. */
	private readonly videos = new Map<string, string>();

	spent(): number {
		let total = 0;
		for (const credits of this.charges.values()) total += credits;
		return total;
	}

	/** Spent plus what calls under way may still cost. */
	committed(): number {
		return this.spent() + this.reserved;
	}

	has(key: string): boolean {
		return this.charges.has(key);
	}

	record(key: string, credits: number): void {
		this.charges.set(key, Math.max(0, credits));
	}

	newKey(operation: string): string {
		return `${operation}#${++this.sequence}`;
	}

	reserve(credits: number): () => void {
		this.reserved += credits;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.reserved -= credits;
		};
	}

	/** Waits until every call queued before this one has finished; the caller hands the turn on with the function returned. */
	async turn(): Promise<() => void> {
		const previous = this.queue;
		let done!: () => void;
		this.queue = new Promise<void>((resolve) => (done = resolve));
		await previous;
		return done;
	}

	trackVideo(videoId: string, key: string): void {
		this.videos.set(videoId, key);
	}

	/** A task read: the cost the service reports for a video this execution created replaces what was noted. */
	observeTask(task: { video_id?: unknown; cost_credit?: unknown }): void {
		const key = typeof task.video_id === 'string' ? this.videos.get(task.video_id) : undefined;
		if (key !== undefined && typeof task.cost_credit === 'number')
			this.record(key, task.cost_credit);
	}
}

/** The execution's cap and how charged calls are priced before they are sent. */
export interface SpendPolicy {
	/** Max Credits per Execution; undefined or 0: no cap. */
	cap?: number;
	/** Where the cap was set, to name it in the error (an option, or the credential). */
	capSource?: string;
}

export function spendCapError(
	operation: string,
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
		operation,
		message: `Max Credits per Execution (${policy.cap}) would be passed: this execution has spent ${spent} credits${pending}. ${cost}. Nothing was sent or charged.`,
		hint: `Raise Max Credits per Execution (${policy.capSource ?? 'node Options or the credential'}), or run the rest in a new execution.`,
		details: {
			maxCreditsPerExecution: policy.cap,
			creditsSpent: spent,
			estimatedCredits: estimate ?? null,
		},
	});
}
