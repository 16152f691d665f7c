/**
 * Time in the Node-RED unit tests without waiting for it: with jest's fake timers (`useNodeClock`),
 * a node's waits between polls pass when the test moves the clock on, while its requests to the
 * emulator are real I/O, answered in turns of the event loop between steps. The emulator's real
 * clock reads Date.now(), so a render finishes as the clock passes its time too.
 */

/** Fakes the timers and Date from here on (not nextTick or setImmediate: I/O goes on). */
export function useNodeClock(): void {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
}

/** One step of jest's clock, then turns of the event loop for the requests it started to be answered. */
async function step(ms: number): Promise<void> {
	await jest.advanceTimersByTimeAsync(ms);
	for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves jest's clock on by `ms`, a tenth of a second at a time. */
export async function passes(ms: number): Promise<void> {
	for (let at = 0; at < ms; at += 100) await step(100);
}

/** Moves jest's clock on until `done` (a test that never gets there ends at jest's timeout). */
export async function passesUntil(done: () => boolean): Promise<void> {
	while (!done()) await step(100);
}
