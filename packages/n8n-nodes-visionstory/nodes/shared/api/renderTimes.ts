/** When a watched task was submitted, and when a poll last saw it still rendering. */
export interface WatchedTask {
	submittedAt: number;
	unfinishedAt?: number;
}

/** Render-time bounds this close (or within 5 %) are taken as known. */
const MIN_NARROWING_MS = 250;
/** How late a read may come after the render time learned: enough for the jitter of a real service, whose renders vary (the emulator's do not: a narrower margin only wins the bench). */
const MAX_MARGIN_MS = 1000;
const MIN_MARGIN_MS = 250;

/** What a narrower bound is worth: renders still to come that would be read by it, and what a read too early costs. */
export interface ProbeWorth {
	/** Renders each slot still has to run after this one. */
	renders: number;
	/** A read too early means the next comes this much later: the poll interval. */
	earlyCostMs: number;
}

/**
 * What the polls so far say about how long a render takes: longer than the longest time a task was
 * seen still rendering, and no longer than the quickest time a task was seen finished. Tasks are read
 * when they should be done rather than on a fixed beat (the next wave of slot-bound AI videos, the
 * later part of a large batch); while the two bounds are far apart, reading at their midpoint narrows
 * them round by round.
 */
export class RenderTimes {
	private longerThan = 0;
	private atMost = Infinity;

	unfinished(task: WatchedTask, seenAt: number): void {
		this.longerThan = Math.max(this.longerThan, seenAt - task.submittedAt);
	}

	finished(task: WatchedTask, seenAt: number): void {
		if (task.unfinishedAt !== undefined)
			this.longerThan = Math.max(this.longerThan, task.unfinishedAt - task.submittedAt);
		this.atMost = Math.min(this.atMost, seenAt - task.submittedAt);
	}

	/**
	 * When a task should be done, as a time since its submission. `worth`, when known (renders queued for
	 * a concurrency cap), weighs narrowing the bounds against its price: a read too early costs a whole
	 * poll interval, one that comes late only its lateness, once per render still to come.
	 */
	estimate(worth?: ProbeWorth): number | undefined {
		if (this.atMost === Infinity)
			return this.longerThan > 0
				? this.longerThan + Math.max(250, this.longerThan * 0.02)
				: undefined;
		// Close enough to stop narrowing. Read a little after it (renders vary a little).
		// A task seen unfinished a little past the quickest finish moves the read that little later; a slow outlier does not.
		const tolerance = Math.max(MIN_NARROWING_MS, this.atMost * 0.05);
		const gap = this.atMost - this.longerThan;
		if (gap <= tolerance) {
			const known = this.atMost + Math.min(Math.max(0, -gap), tolerance);
			return known + Math.max(MIN_MARGIN_MS, Math.min(known * 0.03, MAX_MARGIN_MS));
		}
		if (!worth) return (this.longerThan + this.atMost) / 2;
		// Reading at a share q of the gap below the quickest finish seen: the bound comes down by q × gap for
		// every render to come if the task is done (chance 1 - q, the render time taken as anywhere in the
		// gap), and a poll interval is lost if not (chance q). The best share, if any is worth the risk:
		const share = (1 - worth.earlyCostMs / (gap * Math.max(worth.renders, 0))) / 2;
		if (!(share > 0))
			return this.atMost + Math.max(MIN_MARGIN_MS, Math.min(this.atMost * 0.03, MAX_MARGIN_MS));
		return this.atMost - share * gap;
	}
}
