import type { IPollFunctions } from 'n8n-workflow';

import type { TaskKind } from '../shared/api/tasks';
import { Notices } from '../shared/api/watch/notices';
import type { KindReport } from '../shared/api/watch/round';
import type { TaskSource } from '../shared/api/watch/sources';

/** How the trigger names itself in n8n's log. */
export const WHO = 'VisionStory Trigger';

/**
 * What was said in n8n's log, per active workflow: a fallback is logged when it starts (and again
 * after a restart of n8n), not on every poll.
 */
const notices = new WeakMap<object, Notices>();

/** Says in n8n's log what the watcher's notices say after a poll. */
export function report(
	context: IPollFunctions,
	staticData: object | undefined,
	reports: readonly KindReport[],
	sources: Record<TaskKind, TaskSource>,
): void {
	const said = (staticData && notices.get(staticData)) ?? new Notices(WHO);
	if (staticData) notices.set(staticData, said);
	for (const { level, text } of said.after(reports, sources)) context.logger[level](text);
}
