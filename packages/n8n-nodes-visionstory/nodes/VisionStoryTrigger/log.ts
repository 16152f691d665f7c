import type { IPollFunctions } from 'n8n-workflow';

import type { TaskKind } from '../shared/api/tasks';
import { Notices } from '../shared/api/watch/notices';
import type { KindReport } from '../shared/api/watch/round';
import type { TaskSource } from '../shared/api/watch/sources';

/** How the trigger names itself in n8n's log. */
export const WHO = 'VisionStory Trigger';

/** Trigger nodes whose notices are remembered; past this many, the longest unpolled is forgotten. */
const NODES_REMEMBERED = 1000;

/**
 * What was said in n8n's log, per trigger node of a workflow (not per static data object: n8n's
 * durable scheduler hands every poll a fresh copy): a fallback is logged when it starts (and again
 * after a restart of n8n), not on every poll.
 */
const notices = new Map<string, Notices>();

function noticesOf(context: IPollFunctions): Notices {
	const node = context.getNode();
	const key = `${context.getWorkflow().id ?? ''}:${node.id || node.name}`;
	const said = notices.get(key) ?? new Notices(WHO);
	notices.delete(key);
	notices.set(key, said);
	if (notices.size > NODES_REMEMBERED) notices.delete(notices.keys().next().value as string);
	return said;
}

/** Says in n8n's log what the watcher's notices say after a poll. */
export function report(
	context: IPollFunctions,
	reports: readonly KindReport[],
	sources: Record<TaskKind, TaskSource>,
): void {
	for (const { level, text } of noticesOf(context).after(reports, sources))
		context.logger[level](text);
}
