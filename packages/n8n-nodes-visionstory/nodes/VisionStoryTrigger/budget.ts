import type { IPollFunctions } from 'n8n-workflow';

import { VisionStoryError } from '../shared/api/errors';
import type { RetryPolicy } from '../shared/api/exchange';
import { LIMITS } from '../shared/api/watch/cursor';

/** n8n 1.x has no getPollBudgetMs; 2.x gives 5 minutes by default. */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/** Reads still unanswered at this part of the budget are cut: the kind is read again next poll. */
const READS_CUT_SHARE = 0.6;
/** A download still running at this part of the budget is cut; its video waits for the next poll. */
const DOWNLOADS_CUT_SHARE = 0.9;
/** A later poll catches up anyway, so a struggling service is not retried for long inside one. */
const RETRY = { maxAttempts: 3, maxElapsedMs: 20_000 };

/**
 * The time one poll of an active workflow may take, and its parts. n8n gives a poll
 * `getPollBudgetMs()`: 5 minutes, or under its durable poll scheduler the scheduler's poll timeout
 * less a margin (36 s of 45 s by default); a scheduled poll that outlasts the timeout is abandoned,
 * nothing it read is kept, and polling backs off. So every part of a poll ends inside the budget:
 * list pages and status reads start until half of it (the watcher's deadline), reads still waiting
 * are cut at 60 %, files start downloading until 75 % (the poll's first whatever the time), and a
 * download still running is cut at 90 %. What is cut is read or fetched again by the next poll.
 */
export interface PollBudget {
	ms: number;
	/** Date.now() after which no page or status read starts. */
	readsUntil: number;
	/** Date.now() after which no download starts but the poll's first. */
	downloadsUntil: number;
	/** Fires when reads still waiting are to be cut. */
	reads: AbortSignal;
	/** Fires when a download still running is to be cut. */
	downloads: AbortSignal;
	retry: Partial<RetryPolicy>;
}

export function pollBudget(context: IPollFunctions): PollBudget {
	const given =
		typeof context.getPollBudgetMs === 'function'
			? context.getPollBudgetMs()
			: DEFAULT_POLL_BUDGET_MS;
	const ms = Number.isFinite(given) && given > 0 ? given : DEFAULT_POLL_BUDGET_MS;
	const now = Date.now();
	return {
		ms,
		readsUntil: now + ms * LIMITS.budgetShare,
		downloadsUntil: now + ms * LIMITS.downloadShare,
		// Timers of the runtime, not n8n's sleep: they must fire while the poll's own requests wait.
		reads: AbortSignal.timeout(Math.round(ms * READS_CUT_SHARE)),
		downloads: AbortSignal.timeout(Math.round(ms * DOWNLOADS_CUT_SHARE)),
		retry: { ...RETRY, maxElapsedMs: Math.min(RETRY.maxElapsedMs, ms / 4) },
	};
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * What a read or download cut by the budget says, in place of the exchange's "canceled"; any other
 * error as it came.
 */
export function outOfTime<E>(
	error: E,
	budget: PollBudget,
	what: 'reads' | 'downloads',
): E | VisionStoryError {
	if (!(error instanceof VisionStoryError) || error.category !== 'aborted' || !budget[what].aborted)
		return error;
	return new VisionStoryError({
		// Not an abort of the user's: the next poll tries again, a download counts as a failed try.
		category: 'network',
		operation: error.operation,
		message:
			what === 'reads'
				? `VisionStory did not answer within this poll's time (n8n gives a poll ${seconds(budget.ms)})`
				: `The file did not finish downloading within this poll's time (n8n gives a poll ${seconds(budget.ms)})`,
	});
}
