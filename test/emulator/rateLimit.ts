import { ApiError } from './errors';
import type { Account } from './state';

const WINDOW_MS = 1000;

/**
 * The per-key rate limit (config `rateLimitPerSecond`, 0 for none): at most that many API requests
 * of one account in any second of the emulator's clock, counted when they arrive. A request above it
 * is answered 429 with Retry-After (whole seconds until the window has room) and no details, as
 * facts.md describes a general rate limit, and is not counted itself.
 */
export class RateLimiter {
	private readonly arrivals = new WeakMap<Account, number[]>();

	check(account: Account, now: number, perSecond: number): ApiError | undefined {
		if (!(perSecond > 0)) return undefined;
		const times = (this.arrivals.get(account) ?? []).filter((t) => t > now - WINDOW_MS);
		this.arrivals.set(account, times);
		if (times.length < perSecond) {
			times.push(now);
			return undefined;
		}
		const retryAfter = Math.max(
			1,
			Math.ceil((times[times.length - perSecond] + WINDOW_MS - now) / 1000),
		);
		return new ApiError(
			429,
			429,
			`Too many requests: this API key may send at most ${perSecond} requests per second`,
			{
				hint: `Slow down: wait ${retryAfter} second${retryAfter === 1 ? '' : 's'} (Retry-After) before sending again, and spread your requests`,
				headers: { 'Retry-After': String(retryAfter) },
			},
		);
	}
}
