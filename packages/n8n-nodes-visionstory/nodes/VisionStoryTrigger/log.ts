import type { IPollFunctions } from 'n8n-workflow';

import type { TaskKind } from '../shared/api/tasks';
import type { KindReport } from './round';
import type { TaskSource } from './sources';

/**
 * What was last said in n8n's log about each kind's list, per active workflow: a fallback is logged
 * when it starts (and again after a restart of n8n), not on every poll.
 */
const logged = new WeakMap<object, Map<TaskKind, string>>();

export function unusableWarning(source: TaskSource, reason: string, watched: number): string {
	const { noun, list, read } = source.endpoints;
	const known =
		watched > 0
			? `the ${watched} ${noun} it already watches are still read ${read} until they finish`
			: `it watches none of them yet`;
	return `VisionStory Trigger: the list of ${noun} (${list}) cannot be used (${reason}). New ${noun} cannot be seen until it answers again; ${known}. Other kinds of video are not affected.`;
}

function idsOnlyWarning(source: TaskSource): string {
	const { noun, list, read } = source.endpoints;
	return `VisionStory Trigger: the list of ${noun} (${list}) gives no status, so the trigger reads each new or rendering one ${read}, up to ${source.checksPerPoll} a poll.`;
}

export function failedWarning(source: TaskSource, message: string): string {
	return `VisionStory Trigger: ${source.endpoints.noun} could not be read in this poll (${message}); the next poll catches up. Other kinds of video were polled as usual.`;
}

/** Says in n8n's log when a kind falls back from its list, and when a kind's poll failed while others went on. */
export function report(
	context: IPollFunctions,
	staticData: object | undefined,
	reports: readonly KindReport[],
	sources: Record<TaskKind, TaskSource>,
): void {
	const said = (staticData && logged.get(staticData)) ?? new Map<TaskKind, string>();
	if (staticData) logged.set(staticData, said);
	for (const { kind, list, reason, watched, failure } of reports) {
		const source = sources[kind];
		if (failure) {
			context.logger.warn(failedWarning(source, failure.message));
			continue;
		}
		const state = list === 'unusable' ? `unusable:${reason ?? ''}` : list;
		if (said.get(kind) === state) continue;
		if (list === 'unusable')
			context.logger.warn(unusableWarning(source, reason ?? 'no answer', watched));
		else if (list === 'idsOnly') context.logger.warn(idsOnlyWarning(source));
		else if (said.has(kind))
			context.logger.info(
				`VisionStory Trigger: the list of ${source.endpoints.noun} can be read again`,
			);
		said.set(kind, state);
	}
}
