import { accountId } from './account';
import { Slots } from './concurrency';
import { VisionStoryError } from './errors';
import type { BalanceFloor, FloorHold } from './spend';

/**
 * The book of every account this package uses in the process, for every credential and node of it:
 * module state, as the request budgets are. Another package in the same process (the Node-RED bundle
 * carries its own copy of this file) keeps its own book and is seen here only through the balance.
 */
const book = new Map<string, AccountReservations>();

/**
 * Keep at Least `keepAtLeast` Credits for the account of `apiKey` at `baseUrl`, over this package's
 * one book of that account in the process (the Base URL spelled any way, the key trimmed, never
 * kept). `source` names where the floor is set, for the refusal.
 */
export function balanceFloor(
	baseUrl: string,
	apiKey: string,
	keepAtLeast: number | undefined,
	source: string,
): BalanceFloor | undefined {
	if (keepAtLeast === undefined) return undefined;
	const account = accountId(baseUrl, apiKey);
	let reservations = book.get(account);
	if (!reservations) book.set(account, (reservations = new AccountReservations()));
	return reservations.floor(keepAtLeast, source);
}

/** How long an attempt that may have been charged stays reserved when no later attempt of it is answered. */
export const UNCERTAIN_HOLD_MS = 15 * 60_000;

/**
 * Keep at Least N Credits: a limit that holds across executions, MCP calls and queue-mode workers,
 * because it is checked against the account's balance (a free read) before every charged send, a
 * resend included. In one process, calls already admitted but not yet answered are reserved against
 * it: at their price, and a call of unknown price goes only when no other call of this account is
 * under way (it may cost anything, so the calls after it wait for the balance to show it). An attempt
 * that may have been charged without an answer stays reserved until an attempt of the same key is
 * answered (or UNCERTAIN_HOLD_MS). Across processes nothing is shared but the balance: calls
 * admitted on two workers at the same moment can both pass.
 */
export class AccountReservations {
	private reserved = 0;
	private underWay = 0;
	/** Names an uncertain attempt without a key of its own. */
	private calls = 0;
	/** Attempts that may have been charged, by charge key: their price, held until `until`. */
	private readonly uncertain = new Map<string, { credits: number; until: number }>();
	/** Checks (and calls of unknown price, for as long as they run) one at a time, in turn. */
	private readonly checks = new Slots(1);

	/** The floor `keepAtLeast` of one credential over this account's reservations. */
	floor(keepAtLeast: number, source: string): BalanceFloor {
		return {
			admit: async (endpoint, credits, readBalance, key) =>
				await this.admit({ keepAtLeast, source, endpoint }, credits, readBalance, key),
			admitAll: async (endpoint, credits, readBalance) =>
				await this.admitAll({ keepAtLeast, source, endpoint }, credits, readBalance),
		};
	}

	/**
	 * Several calls of known price admitted as one (a long text's parts): refused unless their total
	 * fits above the floor, checked once before the first is sent; each then holds its own price until
	 * it is answered, so the book shrinks as the balance shows each charge.
	 */
	private async admitAll(
		limit: FloorLimit,
		credits: number[],
		readBalance: () => Promise<number | undefined>,
	): Promise<Array<() => void>> {
		await this.checks.take();
		try {
			const total = credits.reduce((sum, c) => sum + c, 0);
			this.check(limit, total, await readBalance(), this.held(undefined), false);
			return credits.map((c) => this.hold(c));
		} finally {
			this.checks.give();
		}
	}

	/** Holds a known price against the balance until the returned release. */
	private hold(credits: number): () => void {
		this.reserved += credits;
		this.underWay++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.reserved -= credits;
			this.underWay--;
			this.wake();
		};
	}

	/** Credits held for other calls: those under way, and attempts of other keys that may have been charged. */
	private held(key: string | undefined, own = 0): number {
		const now = Date.now();
		let total = this.reserved - own;
		for (const [other, entry] of this.uncertain) {
			if (entry.until <= now) this.uncertain.delete(other);
			else if (other !== key) total += entry.credits;
		}
		return total;
	}

	private async admit(
		limit: FloorLimit,
		credits: number | undefined,
		readBalance: () => Promise<number | undefined>,
		key?: string,
	): Promise<FloorHold> {
		await this.checks.take();
		let holding = false;
		try {
			// A call of unknown price waits until the calls before it are answered and show in the balance.
			while (credits === undefined && this.underWay > 0) await this.idle();
			// A key with an attempt held as uncertain is a resend: the earlier attempt may have been charged.
			const resend = key !== undefined && this.uncertain.has(key);
			this.check(limit, credits, await readBalance(), this.held(key), resend);
			if (key !== undefined) this.uncertain.delete(key);
			this.reserved += credits ?? 0;
			this.underWay++;
			holding = credits === undefined;
			let released = false;
			return {
				recheck: async () =>
					this.check(limit, credits, await readBalance(), this.held(key, credits ?? 0), true),
				release: (outcome) => {
					if (released) return;
					released = true;
					this.reserved -= credits ?? 0;
					this.underWay--;
					if (outcome === 'uncertain')
						this.uncertain.set(key ?? `#${++this.calls}`, {
							credits: credits ?? 0,
							until: Date.now() + UNCERTAIN_HOLD_MS,
						});
					this.wake();
					if (holding) this.checks.give();
				},
			};
		} finally {
			if (!holding) this.checks.give();
		}
	}

	/** Refuses a send that would take the balance below the floor, counting what other calls hold. */
	private check(
		limit: FloorLimit,
		credits: number | undefined,
		balance: number | undefined,
		held: number,
		resend: boolean,
	): void {
		if (balance === undefined) throw unreadableBalance(limit);
		// An unknown price costs at least a credit.
		if (balance - held - (credits ?? 1) < limit.keepAtLeast)
			throw floorError(limit, balance, held, credits, resend);
	}

	private waiters: Array<() => void> = [];

	private async idle(): Promise<void> {
		await new Promise<void>((resolve) => this.waiters.push(resolve));
	}

	private wake(): void {
		for (const resolve of this.waiters.splice(0)) resolve();
	}
}

/** One credential's floor and where it is set, for the refusal's words. */
interface FloorLimit {
	keepAtLeast: number;
	source: string;
	endpoint: string;
}

function floorError(
	{ keepAtLeast, source, endpoint }: FloorLimit,
	balance: number,
	reserved: number,
	credits: number | undefined,
	resend: boolean,
): VisionStoryError {
	const underWay = reserved > 0 ? `, ${reserved} of it held by calls under way` : '';
	// A price of 0 is a part of a long text whose price is held already, among the calls under way.
	const cost =
		credits === undefined
			? 'this call costs a price known only after the call'
			: credits === 0
				? 'this call is one of them'
				: `this call costs about ${credits} credits`;
	// A resend's earlier attempt reached VisionStory: "nothing was sent" would not be true.
	const outcome = resend
		? 'It was not sent again: an earlier attempt reached VisionStory without an answer, and a resend may be charged too.'
		: 'Nothing was sent or charged.';
	return new VisionStoryError({
		category: 'validation',
		operation: endpoint,
		message: `Keep at Least ${keepAtLeast} Credits would be passed: the account has ${balance} credits${underWay}, and ${cost}. ${outcome}`,
		hint: `Top up the VisionStory account, or lower Keep at Least N Credits (${source}).`,
		details: { keepAtLeastCredits: keepAtLeast, balance, reservedCredits: reserved },
	});
}

function unreadableBalance({ keepAtLeast, source, endpoint }: FloorLimit): VisionStoryError {
	return new VisionStoryError({
		category: 'response',
		operation: endpoint,
		message: `Keep at Least ${keepAtLeast} Credits is set, but VisionStory's credits answer shows no balance the node can read. Nothing was sent or charged.`,
		hint: `Clear Keep at Least N Credits (${source}) to run without it, and report this to the n8n-nodes-visionstory maintainers.`,
	});
}
