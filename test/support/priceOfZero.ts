import type { FaultScript } from '../emulator';

/**
 * Issue 38, defect 3, as the emulator plays it: the AI video cost endpoint answers `credit: 0` for
 * every estimate (the nodes ask once per model, duration and resolution).
 */
export const COST_OF_ZERO: FaultScript = {
	method: 'GET',
	path: '/api/v1/ai_video/cost',
	kind: 'rewriteAnswer',
	rewrite: { set: { credit: 0 } },
	count: 100,
};

/** What one 720p AI video of 5 s on wan-2.5 is charged: 5 × 4 credits. */
export const AI_VIDEO_PRICE = 20;
