import type { IDataObject } from 'n8n-workflow';

import type { PollResult } from '../harness';
import type { TriggerContext } from './trigger';

/** What n8n 2.40.7's durable scheduler gives a scheduled poll by default: its 45 s timeout less 9 s of margin. */
export const SCHEDULED_POLL_BUDGET_MS = 36_000;

/**
 * n8n's durable poll scheduler (2.36+, with durable cursors) around the engine harness's polls, as
 * n8n 2.40.7's code does it: the node's static data lives in a table of its own (the cursor) and each
 * poll gets a copy of it (`PollCursorService.resolveCursor`); a scheduled poll writes the copy back
 * whether or not it emitted (`PollTriggerTaskHandler`: with the execution, or `commitStagedCursor`);
 * the activation poll, run as a test (`PollTriggerExecutor` with `testingTrigger`), writes it back
 * only when it emitted. The workflow's own static data (`global`) is saved after an activation
 * (`WorkflowTriggerActivator.activateInternal`) and with a scheduled poll that emitted (its `__emit`).
 */
export class DurableScheduler {
	/** The node's row in n8n's cursor table: none until the workflow is activated. */
	cursor: IDataObject | undefined;
	/** The workflow's global static data as saved in its database row. */
	global: IDataObject = {};

	constructor(
		private readonly trigger: TriggerContext,
		private readonly parameters: IDataObject = {},
		private readonly budgetMs = SCHEDULED_POLL_BUDGET_MS,
	) {}

	/** The poll at activation: its static data is kept only if it emitted. */
	async activate(): Promise<PollResult> {
		// The row starts as the node's static data in the workflow, empty for a new trigger.
		this.cursor ??= {};
		const result = await this.trigger.poll(this.cursor, this.parameters, {
			globalStaticData: this.global,
		});
		if (result.items) this.cursor = result.staticData;
		this.global = result.globalStaticData;
		return result;
	}

	/** A scheduled poll: its static data is kept, emitted or not. */
	async scheduled(): Promise<PollResult> {
		const result = await this.trigger.poll(this.cursor, this.parameters, {
			globalStaticData: this.global,
			pollBudgetMs: this.budgetMs,
			activation: 'update',
		});
		this.cursor = result.staticData;
		if (result.items) this.global = result.globalStaticData;
		return result;
	}
}
