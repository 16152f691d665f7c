import { createPrng } from './prng';
import type { EmulatorConfig } from './types';

/**
 * A video task's `created_at` as the service reports it (Unix seconds): the second it was submitted,
 * or, with `createdAtSkewSeconds`, up to that many seconds earlier, as from a service whose machines'
 * clocks are apart or that stamps a task when its upload began and lists it once the upload ended.
 * Drawn from the task's `seq`, so the same run gives the same times.
 */
export function reportedCreatedAt(
	config: EmulatorConfig,
	submittedAt: number,
	seq: number,
): number {
	const second = Math.floor(submittedAt / 1000);
	const skew = Math.floor(config.createdAtSkewSeconds);
	if (skew <= 0) return second;
	return second - Math.floor(createPrng(seq)() * (skew + 1));
}
