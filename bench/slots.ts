import type { RequestLogEntry, TaskRecord } from '../test/emulator';

/** One render in one slot of the concurrency cap, and how long the slot stood idle after it. */
export interface SlotRender {
	slot: number;
	videoId: string;
	submittedAt: number;
	finishedAt: number;
	/** The first status read after the render ended that asked for this task. */
	seenAt: number;
	/** The next submission into this slot; undefined for the slot's last render. */
	nextSubmittedAt?: number;
}

/** Where the time between the floor and the wall time went, summed over the slots, in seconds. */
export interface SlotLosses {
	/** From the batch's start to each slot's first submission. */
	start: number;
	/** From a render's end to the read that saw it finished: a late read (or a read too early, and the 5 s after it). */
	lateRead: number;
	/** From that read to the next submission into the slot. */
	refill: number;
	/** Per slot, the render of the slot's last task ended before the last render of the batch: slots left unused at the end. */
	tail: number;
	/** Of `lateRead`, the part on each slot's first render, read before any render time was known. */
	firstLateRead: number;
	renders: SlotRender[];
}

/**
 * The slot timeline of a batch under a concurrency cap, from the emulator's records: each task goes to
 * the slot that freed first (the cap lets a task in only when one of ours has finished), and every gap
 * in a slot is split into the read that came late and the time from that read to the next submission.
 */
export function slotTimeline(
	tasks: TaskRecord[],
	requests: RequestLogEntry[],
	cap: number,
	startedAt: number,
): SlotLosses {
	const reads = requests
		.filter((r) => r.method === 'GET' && r.path === '/api/v1/ai_video' && r.status === 200)
		.map((r) => ({
			at: r.at,
			ids: new Set(String(r.query.video_ids ?? r.query.video_id ?? '').split(',')),
		}));
	const ordered = [...tasks]
		.filter((t) => t.finishedAt !== null)
		.sort((a, b) => a.submittedAt - b.submittedAt);
	const slots: SlotRender[][] = Array.from({ length: cap }, () => []);
	for (const task of ordered) {
		// The slot whose last render ended earliest (empty slots first).
		const slot = slots
			.map((renders, index) => ({ index, freeAt: renders.at(-1)?.finishedAt ?? -Infinity }))
			.sort((a, b) => a.freeAt - b.freeAt)[0].index;
		const previous = slots[slot].at(-1);
		if (previous) previous.nextSubmittedAt = task.submittedAt;
		const seen = reads.find((r) => r.at >= task.finishedAt! && r.ids.has(task.video_id));
		slots[slot].push({
			slot,
			videoId: task.video_id,
			submittedAt: task.submittedAt,
			finishedAt: task.finishedAt!,
			seenAt: seen?.at ?? task.finishedAt!,
		});
	}
	const renders = slots.flat();
	const lastEnd = Math.max(...renders.map((r) => r.seenAt));
	const seconds = (ms: number) => ms / 1000;
	return {
		start: seconds(
			slots.reduce((sum, s) => sum + (s.length ? s[0].submittedAt - startedAt : 0), 0),
		),
		lateRead: seconds(renders.reduce((sum, r) => sum + (r.seenAt - r.finishedAt), 0)),
		refill: seconds(
			renders.reduce(
				(sum, r) => sum + (r.nextSubmittedAt !== undefined ? r.nextSubmittedAt - r.seenAt : 0),
				0,
			),
		),
		tail: seconds(slots.reduce((sum, s) => sum + (s.length ? lastEnd - s.at(-1)!.seenAt : 0), 0)),
		firstLateRead: seconds(
			slots.reduce((sum, s) => sum + (s.length ? s[0].seenAt - s[0].finishedAt : 0), 0),
		),
		renders,
	};
}

/** The timeline as text lines: one per render, times in seconds from the batch's start. */
export function timelineLines(timeline: SlotLosses, startedAt: number): string[] {
	const t = (ms: number) => ((ms - startedAt) / 1000).toFixed(2);
	return timeline.renders
		.sort((a, b) => a.slot - b.slot || a.submittedAt - b.submittedAt)
		.map(
			(r) =>
				`slot ${r.slot + 1}: submitted ${t(r.submittedAt)} s, render ended ${t(r.finishedAt)} s, seen ${t(r.seenAt)} s (+${((r.seenAt - r.finishedAt) / 1000).toFixed(2)} s)${r.nextSubmittedAt !== undefined ? `, next submitted ${t(r.nextSubmittedAt)} s (+${((r.nextSubmittedAt - r.seenAt) / 1000).toFixed(2)} s)` : ''}`,
		);
}
