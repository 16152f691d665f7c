import { insufficientCredits } from './errors';
import type { LedgerEntry } from './types';

/** The part of an account the ledger moves money on. */
export interface Wallet {
	id: string;
	credits: number;
}

/** Every credit movement goes through here, so the balance and its history can never disagree. */
export class Ledger {
	private entries: LedgerEntry[] = [];
	private seq = 0;

	/** Throws the 402 before anything is created when the balance does not cover `credits`. */
	ensureAffordable(wallet: Wallet, credits: number): void {
		if (wallet.credits < credits) throw insufficientCredits(credits, wallet.credits);
	}

	charge(wallet: Wallet, at: number, operation: string, credits: number, refId: string): void {
		this.ensureAffordable(wallet, credits);
		wallet.credits -= credits;
		this.push(wallet, at, operation, 'charge', credits, refId);
	}

	refund(wallet: Wallet, at: number, operation: string, credits: number, refId: string): void {
		wallet.credits += credits;
		this.push(wallet, at, operation, 'refund', credits, refId);
	}

	list(accountId?: string): LedgerEntry[] {
		return this.entries
			.filter((e) => accountId === undefined || e.account === accountId)
			.map((e) => ({ ...e }));
	}

	clear(): void {
		this.entries = [];
		this.seq = 0;
	}

	private push(
		wallet: Wallet,
		at: number,
		operation: string,
		kind: 'charge' | 'refund',
		credits: number,
		refId: string,
	): void {
		this.entries.push({
			seq: ++this.seq,
			at,
			account: wallet.id,
			operation,
			kind,
			credits,
			refId,
			balance: wallet.credits,
		});
	}
}
