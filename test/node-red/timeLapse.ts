/**
 * Time lapse for Node-RED tests whose waits span minutes: from `timeLapse()` the whole process sees
 * time run `speed` times faster. Date.now moves `speed` ms for each real ms, and a timer of a second
 * or more fires after `ms / speed` real ms, so the node's polls, the transport's backoff and the
 * emulator's renders (its real clock reads Date.now) keep their proportions. Shorter timers stay real
 * (the test helper waits 300 ms for a deploy to start), and sockets keep their own timers (a request's
 * timeout stays real), so an HTTP exchange is not cut short.
 */
export interface TimeLapse {
	/** Back to real time (Date.now keeps the time it reached, so nothing goes backwards). */
	stop(): void;
}

export function timeLapse(speed: number): TimeLapse {
	const realNow = Date.now;
	const realSetTimeout = global.setTimeout;
	const origin = realNow();
	global.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
		realSetTimeout(
			handler,
			(ms ?? 0) >= 1000 ? ms! / speed : (ms ?? 0),
			...args,
		)) as typeof setTimeout;
	const lapsed = () => origin + (realNow() - origin) * speed;
	Date.now = lapsed;
	return {
		stop() {
			const reached = lapsed();
			const stoppedAt = realNow();
			Date.now = () => reached + (realNow() - stoppedAt);
			global.setTimeout = realSetTimeout;
		},
	};
}
