import { VisionStoryError } from './errors';
import type { BalanceFloor } from './spend';

/**
 * Keep at Least N Credits: a limit that holds across executions, MCP calls and queue-mode workers,
 * because it is checked against the account's balance (a free read) before every charged call. In
 * one process, calls already admitted but not yet answered are reserved against it: at their price,
 * and a call of unknown price goes only when no other call of this account is under way (it may
 * cost anything, so the calls after it wait for the balance to show it). Across processes nothing
 * is shared but the balance: calls admitted on two workers at the same moment can both pass.
 */
export class AccountReservations {
	private reserved = 0;
	private underWay = 0;
	/** Checks (and calls of unknown price, for as long as they run) one at a time. */
	private queue: Promise<void> = Promise.resolve();

	private async turn(): Promise<() => void> {
		const previous = this.queue;
		let done!: () => void;
		this.queue = new Promise<void>((resolve) => (done = resolve));
		await previous;
		return done;
	}

	/** The floor `keepAtLeast` of one credential over this account's reservations. */
	floor(keepAtLeast: number, source: string): BalanceFloor {
		return {
			admit: async (endpoint, credits, readBalance) =>
				await this.admit(keepAtLeast, source, endpoint, credits, readBalance),
			admitAll: async (endpoint, credits, readBalance) =>
				await this.admitAll(keepAtLeast, source, endpoint, credits, readBalance),
		};
	}

	/**
	 * Several calls of known price admitted as one (a long text's parts): refused unless their total
	 * fits above the floor, checked once before the first is sent; each then holds its own price until
	 * it is answered, so the book shrinks as the balance shows each charge.
	 */
	private async admitAll(
		keepAtLeast: number,
		source: string,
		endpoint: string,
		credits: number[],
		readBalance: () => Promise<number | undefined>,
	): Promise<Array<() => void>> {
		const next = await this.turn();
		try {
			const balance = await readBalance();
			if (balance === undefined) throw unreadableBalance(endpoint, keepAtLeast, source);
			const total = credits.reduce((sum, c) => sum + c, 0);
			if (balance - this.reserved - total < keepAtLeast)
				throw floorError(endpoint, keepAtLeast, source, balance, this.reserved, total);
			return credits.map((c) => this.hold(c));
		} finally {
			next();
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

	private async admit(
		keepAtLeast: number,
		source: string,
		endpoint: string,
		credits: number | undefined,
		readBalance: () => Promise<number | undefined>,
	): Promise<() => void> {
		const next = await this.turn();
		let holding = false;
		try {
			// A call of unknown price waits until the calls before it are answered and show in the balance.
			while (credits === undefined && this.underWay > 0) await this.idle();
			const balance = await readBalance();
			if (balance === undefined) throw unreadableBalance(endpoint, keepAtLeast, source);
			// An unknown price costs at least a credit.
			const after = balance - this.reserved - (credits ?? 1);
			if (after < keepAtLeast)
				throw floorError(endpoint, keepAtLeast, source, balance, this.reserved, credits);
			this.reserved += credits ?? 0;
			this.underWay++;
			holding = credits === undefined;
			let released = false;
			return () => {
				if (released) return;
				released = true;
				this.reserved -= credits ?? 0;
				this.underWay--;
				this.wake();
				if (holding) next();
			};
		} finally {
			if (!holding) next();
		}
	}

	private waiters: Array<() => void> = [];

	private async idle(): Promise<void> {
		await new Promise<void>((resolve) => this.waiters.push(resolve));
	}

	private wake(): void {
		for (const resolve of this.waiters.splice(0)) resolve();
	}
}

function floorError(
	endpoint: string,
	keepAtLeast: number,
	source: string,
	balance: number,
	reserved: number,
	credits: number | undefined,
): VisionStoryError {
	const underWay = reserved > 0 ? `, ${reserved} of it held by calls under way` : '';
	// A price of 0 is a part of a long text whose price is held already, among the calls under way.
	const cost =
		credits === undefined
			? 'this call costs a price known only after the call'
			: credits === 0
				? 'this call is one of them'
				: `this call costs about ${credits} credits`;
	return new VisionStoryError({
		category: 'validation',
		operation: endpoint,
		message: `Keep at Least ${keepAtLeast} Credits would be passed: the account has ${balance} credits${underWay}, and ${cost}. Nothing was sent or charged.`,
		hint: `Top up the VisionStory account, or lower Keep at Least N Credits (${source}).`,
		details: { keepAtLeastCredits: keepAtLeast, balance, reservedCredits: reserved },
	});
}

function unreadableBalance(
	endpoint: string,
	keepAtLeast: number,
	source: string,
): VisionStoryError {
	return new VisionStoryError({
		category: 'response',
		operation: endpoint,
		message: `Keep at Least ${keepAtLeast} Credits is set, but VisionStory's credits answer shows no balance the node can read. Nothing was sent or charged.`,
		hint: `Clear Keep at Least N Credits (${source}) to run without it, and report this to the n8n-nodes-visionstory maintainers.`,
	});
}
