import { accountId } from './account';
import type { Sleep } from './clock';
import { abortedError, delay } from './clock';

/** What one key sends by default: a few requests a second, far below what a burst of polls would. */
export const DEFAULT_REQUESTS_PER_SECOND = 5;
export const MAX_REQUESTS_PER_SECOND = 20;

const WINDOW_MS = 1000;
/** A rate limit answered: the rate drops to this share of itself (at least one a second). */
const DECREASE = 0.7;
/** Then it climbs back by one request a second per this long without a rate limit. */
const RAISE_EVERY_MS = 5000;
/** A 429 without Retry-After pauses sending this long. */
const DEFAULT_PAUSE_MS = 1000;

export interface BudgetStats {
	/** The rate in force now, requests a second. */
	perSecond: number;
	/** The most the budget may climb back to: the node's setting. */
	ceiling: number;
	/** Requests let through. */
	granted: number;
	/** Rate-limit answers (429s that are not the AI-video concurrency cap) met. */
	rateLimited: number;
}

/** A request the budget let through; `answered` frees its slot a second after the answer came. */
export interface Grant {
	answered(rateLimit?: { retryAfterMs?: number }): void;
}

/**
 * How fast one credential may send. At most `perSecond` requests are in any second as the service
 * sees them: each request holds one of `perSecond` slots from the moment it leaves until a second
 * after its answer, so network delays cannot squeeze two seconds' worth into one. A rate-limit 429
 * pauses every request for its Retry-After and cuts the rate; each stretch of 5 s without one raises
 * it by one again, up to the ceiling (TCP's additive increase, multiplicative decrease).
 * Waiters are served in arrival order, and only the first of them waits on the clock.
 */
export class RequestBudget {
	private rate: number;
	private ceilingRate: number;
	private inFlight = 0;
	/** When the slots of answered requests free up, ascending. */
	private readonly freeAt: number[] = [];
	private pausedUntil = 0;
	private lastChange = -Infinity;
	private lastLimit = -Infinity;
	private tail: Promise<void> = Promise.resolve();
	private answerWaiters: Array<() => void> = [];
	private granted = 0;
	private limited = 0;

	constructor(
		perSecond = DEFAULT_REQUESTS_PER_SECOND,
		private readonly now: () => number = () => Date.now(),
	) {
		this.ceilingRate = clampRate(perSecond);
		this.rate = this.ceilingRate;
	}

	/** A run's setting: the rate starts there, unless a rate limit met in the last minute keeps it lower. */
	setCeiling(perSecond: number): void {
		const ceiling = clampRate(perSecond);
		if (ceiling === this.ceilingRate) return;
		this.ceilingRate = ceiling;
		this.rate = this.now() - this.lastLimit < 60_000 ? Math.min(this.rate, ceiling) : ceiling;
	}

	stats(): BudgetStats {
		return {
			perSecond: this.rate,
			ceiling: this.ceilingRate,
			granted: this.granted,
			rateLimited: this.limited,
		};
	}

	/** Waits for a slot; resolves once the request may leave. */
	async acquire(sleep: Sleep, signal?: AbortSignal): Promise<Grant> {
		const turn = this.tail.then(async () => await this.waitForSlot(sleep, signal));
		this.tail = turn.catch(() => undefined);
		await turn;
		let done = false;
		return {
			answered: (rateLimit) => {
				if (done) return;
				done = true;
				this.release(rateLimit);
			},
		};
	}

	private async waitForSlot(sleep: Sleep, signal?: AbortSignal): Promise<void> {
		for (;;) {
			if (signal?.aborted) throw abortedError();
			const now = this.now();
			while (this.freeAt.length > 0 && this.freeAt[0] <= now) this.freeAt.shift();
			const busy = this.inFlight + this.freeAt.length;
			if (now >= this.pausedUntil && busy < this.rate) {
				this.inFlight++;
				this.granted++;
				return;
			}
			let wake = this.pausedUntil;
			if (busy >= this.rate) {
				// The slot that frees (busy - rate + 1)th: an answered one on the clock, else the next answer.
				const index = busy - this.rate;
				if (index >= this.freeAt.length) {
					await this.nextAnswer(signal);
					continue;
				}
				wake = Math.max(wake, this.freeAt[index]);
			}
			await delay(sleep, Math.max(1, wake - now), signal);
		}
	}

	private async nextAnswer(signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) throw abortedError();
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => reject(abortedError());
			signal?.addEventListener('abort', onAbort, { once: true });
			this.answerWaiters.push(() => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			});
		});
	}

	private release(rateLimit?: { retryAfterMs?: number }): void {
		const now = this.now();
		this.inFlight--;
		this.freeAt.push(now + WINDOW_MS);
		this.freeAt.sort((a, b) => a - b);
		if (rateLimit) {
			this.limited++;
			this.pausedUntil = Math.max(
				this.pausedUntil,
				now + (rateLimit.retryAfterMs ?? DEFAULT_PAUSE_MS),
			);
			// Requests sent together meet the limit together: one cut per window, as TCP cuts once per round trip.
			if (now - this.lastLimit >= WINDOW_MS)
				this.rate = Math.max(1, Math.floor(this.rate * DECREASE));
			this.lastLimit = now;
			this.lastChange = now;
		} else if (this.rate < this.ceilingRate && now - this.lastChange >= RAISE_EVERY_MS) {
			this.rate++;
			this.lastChange = now;
		}
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}
}

function clampRate(perSecond: number): number {
	const n = Math.floor(Number(perSecond));
	return Number.isFinite(n)
		? Math.min(MAX_REQUESTS_PER_SECOND, Math.max(1, n))
		: DEFAULT_REQUESTS_PER_SECOND;
}

/** Budgets by account (api/account.ts), for every execution in this process; never keyed by the key itself. */
const budgets = new Map<string, RequestBudget>();
const MAX_BUDGETS = 100;

/**
 * The budget of one credential (base URL and API key), set to this run's rate when it gives one:
 * two executions with the same key share it, so together they stay within it.
 */
export function budgetFor(baseUrl: string, apiKey: string, perSecond?: number): RequestBudget {
	const id = accountId(baseUrl, apiKey);
	let budget = budgets.get(id);
	if (!budget) {
		if (budgets.size >= MAX_BUDGETS) budgets.delete(budgets.keys().next().value as string);
		budget = new RequestBudget(perSecond);
		budgets.set(id, budget);
	} else if (perSecond !== undefined) budget.setCeiling(perSecond);
	return budget;
}
