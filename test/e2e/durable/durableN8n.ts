/**
 * What both durable-scheduler suites share: n8n's opt-in durable poll scheduler switched on, the
 * trigger's workflow (the callback example with Download Result on, its own id and callback path),
 * and the second of the minute n8n polls it at.
 */
import { createHash } from 'node:crypto';

import {
	CALLBACK_PLACEHOLDER,
	loadExamples,
	prepareExample,
	type WorkflowJson,
} from '../../../scripts/n8n/examples';

/**
 * The four settings that put polling triggers on n8n's durable scheduler with durable cursors (n8n
 * 2.36+). The poll timeout is n8n's default, written out because the checks compute the poll budget
 * from it.
 */
export const DURABLE_ENV: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TIMEOUT: '45',
};

/**
 * What `getPollBudgetMs()` gives a scheduled poll under that timeout: n8n keeps a fifth of it (at
 * least 5 s, at most half) as its own margin (`TriggerExecutionContextFactory.getExecutePollFunctions`).
 */
export function pollBudgetMs(env: Record<string, string> = DURABLE_ENV): number {
	const ceiling = Number(env.N8N_SCHEDULER_POLL_TIMEOUT) * 1000;
	return ceiling - Math.min(Math.max(0.2 * ceiling, 5_000), ceiling / 2);
}

export const DURABLE_WORKFLOW_ID = 'vsDurableTrigger';
export const DURABLE_CALLBACK_PATH = '/visionstory-callback/durable';
export const TRIGGER_NODE = 'VisionStory Trigger';

/** The callback example as a user would set it up here: every minute, both kinds, both statuses, files downloaded. */
export function durableTriggerWorkflow(callbackUrl: string): WorkflowJson {
	const example = loadExamples()['finished-video-callback'];
	const workflow = prepareExample(
		{
			...example,
			id: DURABLE_WORKFLOW_ID,
			name: `${example.name} (durable scheduler)`,
			nodes: example.nodes.map((node) =>
				node.type === 'n8n-nodes-base.httpRequest'
					? { ...node, parameters: { ...node.parameters, url: `${CALLBACK_PLACEHOLDER}/durable` } }
					: node,
			),
		},
		{ callbackUrl },
	);
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER_NODE);
	if (!trigger) throw new Error('the callback example has no VisionStory Trigger');
	trigger.parameters = {
		...trigger.parameters,
		pollTimes: { item: [{ mode: 'everyMinute' }] },
		statuses: ['created', 'failed'],
		downloadResult: true,
	};
	return workflow;
}

/**
 * The second of each minute at which n8n 2.x's durable scheduler polls an "every minute" trigger: it
 * spreads triggers over the minute by a hash of the workflow and node ids (`seededCron` in n8n's
 * poll-trigger-job-registrar). Activating just after that second leaves the activation poll most of a
 * minute before the first scheduled poll.
 */
export function scheduledSecond(workflow: WorkflowJson, nodeName = TRIGGER_NODE): number {
	const node = workflow.nodes.find((n) => n.name === nodeName) as { id?: string } | undefined;
	if (!node?.id) throw new Error(`${nodeName} has no node id`);
	const hash = createHash('sha256').update(`${workflow.id}:${node.id}:second`).digest();
	return hash.readUInt32BE(0) % 60;
}
