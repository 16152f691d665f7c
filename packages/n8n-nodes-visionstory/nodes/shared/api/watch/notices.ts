import type { TaskKind } from '../tasks';
import type { Missed } from './poller';
import type { KindReport } from './round';
import type { TaskSource } from './sources';

/** A line for the host's log (n8n's logger, Node-RED's node.warn / node.log). */
export interface Notice {
	level: 'warn' | 'info';
	text: string;
}

export function unusableWarning(
	who: string,
	source: TaskSource,
	reason: string,
	watched: number,
): string {
	const { noun, list, read } = source.endpoints;
	const known =
		watched > 0
			? `the ${watched} ${noun} it already watches are still read ${read} until they finish`
			: `it watches none of them yet`;
	return `${who}: the list of ${noun} (${list}) cannot be used (${reason}). New ${noun} cannot be seen until it answers again; ${known}. Other kinds of video are not affected.`;
}

function idsOnlyWarning(who: string, source: TaskSource): string {
	const { noun, list, read } = source.endpoints;
	return `${who}: the list of ${noun} (${list}) gives no status, so each new or rendering one is read ${read}, up to ${source.checksPerPoll} a poll.`;
}

function firstPageOnlyWarning(who: string, source: TaskSource): string {
	const { noun, list, read } = source.endpoints;
	return `${who}: the list of ${noun} (${list}) answers the same page whatever its cursor, so only its newest entries can be read; ${noun} already watched are read ${read}. When more ${noun} are made between two polls than that page shows, some may be missed: each time, a warning says so.`;
}

const when = (at: number | null) =>
	at === null ? 'an unknown time' : new Date(at * 1000).toISOString();

export function missedWarning(who: string, source: TaskSource, missed: Missed): string {
	const { noun, list } = source.endpoints;
	return `${who}: ${missed.read} new ${noun} were read from the only page ${list} gives, and that page did not reach those seen before: ${noun} made between ${when(missed.since)} and ${when(missed.before)} could not be read and may have been missed (the service does not say how many). Poll more often so fewer are made between two polls.`;
}

export function failedWarning(who: string, source: TaskSource, message: string): string {
	return `${who}: ${source.endpoints.noun} could not be read in this poll (${message}); the next poll catches up. Other kinds of video were polled as usual.`;
}

/**
 * What to say in the host's log after a poll: a fallback from a list when it starts (not every poll),
 * a kind whose poll failed while others went on, and every poll in which tasks may have been missed.
 * One per watching node (n8n: per active workflow), so what was said is not said again.
 */
export class Notices {
	private readonly said = new Map<TaskKind, string>();

	constructor(private readonly who: string) {}

	after(reports: readonly KindReport[], sources: Record<TaskKind, TaskSource>): Notice[] {
		const out: Notice[] = [];
		const warn = (text: string) => out.push({ level: 'warn', text });
		for (const { kind, list, reason, watched, failure, missed } of reports) {
			const source = sources[kind];
			if (failure) {
				warn(failedWarning(this.who, source, failure.message));
				continue;
			}
			const state = list === 'unusable' ? `unusable:${reason ?? ''}` : list;
			if (this.said.get(kind) !== state) {
				if (list === 'unusable')
					warn(unusableWarning(this.who, source, reason ?? 'no answer', watched));
				else if (list === 'idsOnly') warn(idsOnlyWarning(this.who, source));
				else if (list === 'firstPageOnly') warn(firstPageOnlyWarning(this.who, source));
				else if (this.said.has(kind))
					out.push({
						level: 'info',
						text: `${this.who}: the list of ${source.endpoints.noun} can be read again`,
					});
				this.said.set(kind, state);
			}
			if (missed) warn(missedWarning(this.who, source, missed));
		}
		return out;
	}
}
