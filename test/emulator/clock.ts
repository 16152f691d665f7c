/**
 * The emulator's notion of time. Task states, idempotency windows and ledger timestamps all read it,
 * so a manual clock makes every time-driven behaviour deterministic in tests.
 */
export interface Clock {
	readonly mode: 'real' | 'manual';
	now(): number;
	advance(ms: number): void;
}

export function createClock(mode: 'real' | 'manual'): Clock {
	if (mode === 'real') {
		return {
			mode,
			now: () => Date.now(),
			advance: () => {
				throw new Error(
					'advance() needs the manual clock: start the emulator with clock: "manual"',
				);
			},
		};
	}
	// Starts at the real time so created_at values look plausible to clients that compare them with Date.now().
	let current = Date.now();
	return {
		mode,
		now: () => current,
		advance: (ms: number) => {
			if (!Number.isFinite(ms) || ms < 0)
				throw new Error(`advance(ms) needs a non-negative number, got ${ms}`);
			current += ms;
		},
	};
}
