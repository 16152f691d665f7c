/** What every queue-mode check shares: the cluster, the emulator as VisionStory, a callback endpoint. */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CallbackServer } from '../../../scripts/n8n/callbackServer';
import type { WorkflowJson } from '../../../scripts/n8n/examples';
import { waitFor } from '../../../scripts/n8n/queue/executions';
import type { QueueSession } from '../../../scripts/n8n/queue/session';
import { callWebhook, type ExecutionSummary, type WebhookAnswer } from '../../../scripts/n8n/rest';
import type { N8nLine } from '../../../scripts/n8n/versions';
import type { Emulator, LedgerEntry, TaskRecord } from '../../emulator';

export interface QueueContext {
	line: N8nLine;
	emulator: Emulator;
	callback: CallbackServer;
	session: QueueSession;
	/** A public avatar of the emulator, for fixtures that take one in their webhook body. */
	avatarId: string;
	/** Where binary files of executions are fetched to. */
	scratch: string;
	log(line: string): void;
}

/** Two workers of concurrency 3: five executions at once cannot all land on one of them. */
export const WORKERS: Record<string, { concurrency: number }> = {
	a: { concurrency: 3 },
	b: { concurrency: 3 },
};

export const BATCH_WORKFLOW = 'vsQueueBatch';
export const BATCH_PATH = 'visionstory-queue-batch';

export function fixture(name: string): WorkflowJson {
	return JSON.parse(
		readFileSync(join(__dirname, 'workflows', `${name}.json`), 'utf8'),
	) as WorkflowJson;
}

/**
 * The webhook batch with another id and path and some Create parameters changed, so each check has
 * a workflow of its own and its executions are told apart by workflow.
 */
export function batchVariant(
	id: string,
	path: string,
	create: Record<string, unknown>,
): WorkflowJson {
	const workflow = fixture('webhook-batch');
	workflow.id = id;
	workflow.name = `${workflow.name} (${id})`;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.webhook') {
			node.parameters.path = path;
			(node as { webhookId?: string }).webhookId = randomUUID();
		}
		if (node.type.endsWith('.visionStory') && node.parameters.resource === 'talkingVideo')
			node.parameters = { ...node.parameters, ...create };
	}
	return workflow;
}

/** POSTs a batch of scripts to a webhook of the webhook processor. */
export async function postBatch(
	ctx: QueueContext,
	path: string,
	scripts: string[],
	extra: Record<string, unknown> = {},
): Promise<WebhookAnswer> {
	const answer = await callWebhook(ctx.session.cluster.webhookBaseUrl, path, {
		avatar_id: ctx.avatarId,
		scripts,
		...extra,
	});
	if (answer.status !== 200)
		throw new Error(
			`the webhook ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
		);
	return answer;
}

export function scriptsFor(batch: string, count: number): string[] {
	return Array.from(
		{ length: count },
		(_, i) => `Batch ${batch}, video ${i + 1}: thanks for your order!`,
	);
}

/** The execution ids a worker log started after `known`, once `count` new ones appear. */
export async function newWorkerRuns(
	ctx: QueueContext,
	known: Set<string>,
	count: number,
	timeoutMs: number,
): Promise<string[]> {
	return await waitFor(
		() => {
			const fresh = [...ctx.session.cluster.workerRuns().keys()].filter((id) => !known.has(id));
			return fresh.length >= count ? fresh : undefined;
		},
		timeoutMs,
		`${count} new execution(s) started by a worker`,
	);
}

/** The one execution of a workflow that is not in `known`, once it has settled. */
export async function newExecution(
	ctx: QueueContext,
	workflowId: string,
	known: Set<string>,
	timeoutMs: number,
): Promise<ExecutionSummary> {
	return await waitFor(
		async () => {
			const fresh = (await ctx.session.rest.executions(workflowId)).filter(
				(e) => !known.has(String(e.id)),
			);
			if (fresh.length > 1)
				throw new Error(
					`expected one new execution of ${workflowId}, found ${fresh.map((e) => e.id).join(', ')}`,
				);
			return fresh.length === 1 &&
				!['new', 'running', 'waiting', 'unknown'].includes(fresh[0].status)
				? fresh[0]
				: undefined;
		},
		timeoutMs,
		`a new execution of ${workflowId} to settle`,
		{ everyMs: 1000 },
	);
}

export async function executionIds(ctx: QueueContext, workflowId: string): Promise<Set<string>> {
	return new Set((await ctx.session.rest.executions(workflowId)).map((e) => String(e.id)));
}

/** The emulator's records since a mark: every new task, and every ledger entry. */
export interface ServiceMark {
	tasks: Set<string>;
	ledger: number;
}

export function markService(ctx: QueueContext): ServiceMark {
	return {
		tasks: new Set(ctx.emulator.tasks().map((t) => t.video_id)),
		ledger: ctx.emulator.ledger().length,
	};
}

export function sinceMark(
	ctx: QueueContext,
	mark: ServiceMark,
): { tasks: TaskRecord[]; charges: LedgerEntry[]; refunds: LedgerEntry[] } {
	const entries = ctx.emulator.ledger().slice(mark.ledger);
	return {
		tasks: ctx.emulator.tasks().filter((t) => !mark.tasks.has(t.video_id)),
		charges: entries.filter((e) => e.kind === 'charge'),
		refunds: entries.filter((e) => e.kind === 'refund'),
	};
}

/** Output items of one node run in an execution record from the public API. */
export function outputOf(
	execution: {
		data?: {
			resultData?: {
				runData?: Record<
					string,
					Array<{ data?: { main?: Array<Array<{ json: Record<string, any> }> | null> } }>
				>;
			};
		};
	},
	node: string,
	output = 0,
	run = 0,
): Array<{ json: Record<string, any> }> {
	return execution.data?.resultData?.runData?.[node]?.[run]?.data?.main?.[output] ?? [];
}
