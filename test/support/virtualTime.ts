/**
 * Virtual time for engine tests: n8n-workflow's `sleep` (used by the nodes' waits and retries, and by
 * n8n's own Retry On Fail) advances the emulator's manual clock, and Date.now, instead of waiting, so
 * a render of minutes takes milliseconds while every request still goes over real HTTP.
 *
 * Use at the top of a test file:
 *   jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());
 *   ...
 *   virtualClock.target = emulator;
 */
export const virtualClock: {
	target?: { advance(ms: number): void };
	slept: number;
	/**
	 * Awaited at the start of every virtual sleep: lets a test change the world while the code under
	 * test waits. Returning `'interrupted'` ends that sleep without moving time on, as a real sleep cut
	 * short at its start by a cancel (the code under test stops waiting on its abort signal).
	 */
	onSleep?: (ms: number) => Promise<void | 'interrupted'> | void | 'interrupted';
} = { slept: 0 };

const realNow = Date.now.bind(Date);

export function virtualWorkflow(): Record<string, unknown> {
	const actual = jest.requireActual('n8n-workflow') as Record<string, unknown>;
	// Deadlines are measured with Date.now: it moves with the virtual sleeps too.
	Date.now = () => realNow() + virtualClock.slept;
	return {
		...actual,
		sleep: async (ms: number) => {
			if ((await virtualClock.onSleep?.(ms)) === 'interrupted') return;
			virtualClock.slept += ms;
			virtualClock.target?.advance(ms);
			// Let other work (sockets, timers) run, as a real sleep would.
			await new Promise((resolve) => setImmediate(resolve));
		},
	};
}

/**
 * Takes real time out of Date.now altogether: from here on it reads `start` plus what was slept
 * virtually. For tests that compare dates to the millisecond (an HTTP-date Retry-After); both the
 * emulator and the client run in this process and read the same clock.
 */
export function freezeWallClock(start: number): void {
	const sleptBefore = virtualClock.slept;
	Date.now = () => start + virtualClock.slept - sleptBefore;
}
