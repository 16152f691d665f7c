/** Credit prices from the README. One place, so the cost estimate and the actual charge cannot drift apart. */

const TALKING_PRICE: Record<string, number> = { '720p': 10, '1080p': 20, '2k': 40 };
const AI_RATE: Record<string, number> = { '480p': 2, '720p': 4, '1080p': 8, '4k': 16 };

export function talkingVideoPrice(resolution: string): number {
	return TALKING_PRICE[resolution] ?? TALKING_PRICE['720p'];
}

export function aiVideoPrice(durationSec: number, resolution: string): number {
	return durationSec * (AI_RATE[resolution] ?? AI_RATE['720p']);
}

export function ttsPrice(characters: number): number {
	return 2 * Math.ceil(characters / 1000);
}

/** Align and transcribe: 1 credit per started 5 minutes, so even a silent clip costs 1. */
export function audioPrice(durationSec: number): number {
	return Math.max(1, Math.ceil(durationSec / 300));
}

export function understandPrice(inputs: number): number {
	return Math.max(1, inputs);
}
