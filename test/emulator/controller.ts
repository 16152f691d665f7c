import type { Drift } from './drift';
import type { FaultInjector } from './faults';
import type { RequestFilter, RequestLog } from './requestLog';
import type { EmulatorState } from './state';
import { taskRecord } from './tasks';
import type { EmulatorConfig, Faults, LedgerEntry, RequestLogEntry, TaskRecord } from './types';

/**
 * The emulator's own controls and introspection, shared by the in-process Emulator object and the
 * /__emulator HTTP endpoints. Accounts are named by id here; only the edges translate API keys.
 * Every read settles the clock first, so a refund that is due shows up however it is observed.
 */
export class Controller {
	constructor(
		readonly state: EmulatorState,
		private readonly faultInjector: FaultInjector,
		private readonly log: RequestLog,
		private readonly drift?: Drift,
	) {}

	accountId(apiKey: string): string | undefined {
		return this.state.accountByKey(apiKey)?.id;
	}

	addAccount(apiKey: string, credits: number): string {
		if (typeof apiKey !== 'string' || apiKey === '')
			throw new Error('apiKey must be a non-empty string');
		if (typeof credits !== 'number' || !Number.isFinite(credits) || credits < 0)
			throw new Error('credits must be a number >= 0');
		return this.state.addAccount(apiKey, credits).id;
	}

	ledger(accountId?: string): LedgerEntry[] {
		this.state.settle();
		return this.state.ledger.list(accountId);
	}

	balance(accountId: string): number {
		this.state.settle();
		const account = this.state.accountById(accountId);
		if (!account) throw new Error(`no account ${accountId}`);
		return account.credits;
	}

	tasks(accountId?: string): TaskRecord[] {
		this.state.settle();
		const now = this.state.now();
		return this.state
			.allAccounts()
			.filter((a) => accountId === undefined || a.id === accountId)
			.flatMap((a) => [...a.talkingVideos.values(), ...a.aiVideos.values()])
			.sort((x, y) => x.seq - y.seq)
			.map((t) => taskRecord(t, now));
	}

	requests(filter?: RequestFilter): RequestLogEntry[] {
		return this.log.list(filter);
	}

	clearLog(): void {
		this.log.clear();
	}

	config(): EmulatorConfig {
		return { ...this.state.config };
	}

	setConfig(change: Partial<EmulatorConfig>): void {
		this.state.setConfig(change);
	}

	faults(): Faults {
		return this.faultInjector.get();
	}

	setFaults(change: Partial<Faults>): void {
		this.faultInjector.set(change);
	}

	clearFaults(): void {
		this.faultInjector.clear();
	}

	now(): number {
		return this.state.now();
	}

	advance(ms: number): void {
		this.state.clock.advance(ms);
		this.state.settle();
	}

	reset(): void {
		this.state.reset();
		this.faultInjector.reset();
		this.log.clear();
		this.drift?.reset();
	}
}
