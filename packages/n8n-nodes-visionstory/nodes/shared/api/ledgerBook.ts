import { SpendLedger } from './spend';

/**
 * Spend ledgers by key (an n8n execution, a Node-RED message), kept in bounded memory: past `max`
 * keys, or untouched for `idleMs`, the least recently used go first. A caller that is still running
 * holds its ledger itself, so only a later use of a key pushed out meanwhile starts from nothing.
 */
export class LedgerBook {
	/** A Map iterates in insertion order and every touch re-inserts: the first entries are the least recently used. */
	private readonly entries = new Map<string, { ledger: SpendLedger; touchedAt: number }>();

	constructor(
		private readonly max: number,
		private readonly idleMs = Number.POSITIVE_INFINITY,
	) {}

	/** The ledger of `key`, a new one the first time. */
	ledger(key: string): SpendLedger {
		const now = Date.now();
		const entry = this.entries.get(key) ?? { ledger: new SpendLedger(), touchedAt: now };
		this.entries.delete(key);
		entry.touchedAt = now;
		this.entries.set(key, entry);
		for (const [old, { touchedAt }] of this.entries) {
			if (this.entries.size <= this.max && now - touchedAt <= this.idleMs) break;
			this.entries.delete(old);
		}
		return entry.ledger;
	}

	/** How many keys are remembered. */
	get size(): number {
		return this.entries.size;
	}
}
