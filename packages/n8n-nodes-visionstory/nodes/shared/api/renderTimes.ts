/** When a watched task was submitted, and when a poll last saw it still rendering. */
export interface WatchedTask {
	submittedAt: number;
	unfinishedAt?: number;
}

/** Render-time bounds this close (or within 5 %) are taken as known. */
const MIN_NARROWING_MS = 250;
/** How late a read may come after the render time learned: enough for the service's own jitter. */
const MAX_MARGIN_MS = 1000;

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

	estimate(): number | undefined {
		if (this.atMost === Infinity)
			return this.longerThan > 0
				? this.longerThan + Math.max(250, this.longerThan * 0.02)
				: undefined;
		// Close enough to stop narrowing. Read a little after it: a read that comes too early costs a whole
		// poll interval, one that comes late only the margin (renders vary a little).
		// A task seen unfinished a little past the quickest finish moves the read that little later; a slow outlier does not.
		const tolerance = Math.max(MIN_NARROWING_MS, this.atMost * 0.05);
		if (this.atMost - this.longerThan <= tolerance) {
			const known = this.atMost + Math.min(Math.max(0, this.longerThan - this.atMost), tolerance);
			return known + Math.max(MIN_NARROWING_MS, Math.min(known * 0.03, MAX_MARGIN_MS));
		}
		return (this.longerThan + this.atMost) / 2;
	}
}
