/**
 * Time lapse for Node-RED tests whose waits span minutes: from `timeLapse()` the whole process sees
 * time run `speed` times faster. Date.now moves `speed` ms for each real ms, and a timer of `ms` fires
 * after `ms / speed` real ms, so the node's polls, the transport's backoff, the emulator's renders (its
 * real clock reads Date.now) and Node-RED's own timers all keep their proportions. Sockets keep their
 * own timers (a request's timeout stays real), so an HTTP exchange is not cut short.
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
		realSetTimeout(handler, (ms ?? 0) / speed, ...args)) as typeof setTimeout;
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
