import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { Slots } from '../api/concurrency';
import { invalidInput, isAborted } from '../api/errors';
import type { VisionStoryError } from '../api/errors';
import { createN8nClient } from '../n8n/client';
import type { FieldLabeler } from '../n8n/nodeErrors';
import { errorItem, toNodeError } from '../n8n/nodeErrors';
import type { ItemOutcome, Operation, Prepared, Run } from './action';
import { labeler } from './fieldLabels';
import type { Params } from './params';
import { checkDeclared, readParams } from './params';
import {
	ledgerOf,
	spendingClient,
	spendPolicyOf,
	spendSummary,
	validateOnlyOf,
	withSpend,
} from './spend';
import { isToolRun, toolOutput } from './toolResult';

/** Items sent at once by operations that handle one item at a time: enough to overlap slow calls, few enough to stay polite. */
export const ITEM_CONCURRENCY = 5;

function instanceIdOf(context: IExecuteFunctions): string {
	try {
		return context.getInstanceId();
	} catch {
		return '';
	}
}

/** Where the node notes, in its own execution context, which execution first ran it. */
const KEY_EXECUTION = 'idempotencyExecutionId';

/**
 * The execution a create's idempotency key belongs to. n8n's Retry runs a failed execution again
 * under a new execution id (mode `retry`), starting from the failed execution's saved data, node
 * context included. The first execution to run this node notes its id there, so a retry (or a retry
 * of that retry) sends the same keys and gets back the videos already made instead of new, charged
 * ones. Any other run (a new trigger event, webhook call or manual run) starts with an empty
 * context and creates anew.
 */
function idempotencyExecutionId(context: IExecuteFunctions): string {
	const executionId = context.getExecutionId();
	try {
		const nodeContext = context.getContext('node');
		const noted = nodeContext[KEY_EXECUTION];
		if (context.getMode() === 'retry' && typeof noted === 'string' && noted !== '') return noted;
		nodeContext[KEY_EXECUTION] = executionId;
	} catch {
		// A context without node context data keys by its own execution, as before.
	}
	return executionId;
}

function modeOf(context: IExecuteFunctions): string | undefined {
	try {
		return context.getMode();
	} catch {
		return undefined;
	}
}

function runIndexOf(context: IExecuteFunctions): number {
	try {
		const proxy = context.getWorkflowDataProxy(0) as { $runIndex?: unknown };
		return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
	} catch {
		return 0;
	}
}

/** Validate Only: each item's estimate instead of the call, counted against the cap in order, as a real run would spend. */
async function estimates(
	run: Run,
	operation: Operation,
	items: Array<Prepared<unknown>>,
): Promise<Map<number, IDataObject>> {
	const results = new Map<number, IDataObject>();
	const { cap } = run.client.policy;
	let total = run.client.ledger.spent();
	for (const item of items) {
		const estimate = operation.estimate ? await operation.estimate(run, item.request) : undefined;
		// An unknown price costs at least one credit.
		total += estimate ?? 1;
		results.set(item.index, {
			validateOnly: true,
			valid: true,
			operation: operation.option.value,
			estimatedCredits: estimate ?? null,
			priceKnown: estimate !== undefined,
			withinCap: cap === undefined || total <= cap,
			...spendSummary(run.client),
		});
	}
	return results;
}

/** Runs the operation on every item, one at a time or all together, into one outcome per item. */
async function executeItems(
	run: Run,
	operation: Operation,
	items: Array<Prepared<unknown>>,
): Promise<ItemOutcome[]> {
	if (operation.executeAll) return await operation.executeAll(run, items);
	const slots = new Slots(operation.concurrency ?? ITEM_CONCURRENCY);
	const outcomes = await Promise.all(
		items.map(async (item): Promise<ItemOutcome> => {
			await slots.take();
			try {
				return { ok: true, value: (await operation.execute?.(run, item)) ?? [] };
			} catch (error) {
				return { ok: false, error: error as VisionStoryError };
			} finally {
				slots.give();
			}
		}),
	);
	// A canceled execution ends the node rather than yielding one error item per input.
	const aborted = outcomes.find((o) => !o.ok && isAborted(o.error));
	if (aborted && !aborted.ok) throw aborted.error;
	return outcomes;
}

/**
 * A node's `execute`: the router over its operations. n8n calls it with the execution's context as
 * `this`, so the node file holds only its description and this line.
 */
export function routerFor(
	operations: readonly Operation[],
): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> {
	return async function execute(this: IExecuteFunctions) {
		return await router(this, operations);
	};
}

/**
 * The one item loop of every node, as n8n's routers have it: picks the operation, prepares and checks
 * every item before anything is sent (a bad item sends nothing), runs the good ones, and assembles the
 * outputs with pairedItem, the On Error setting and the spend. The operation is called, never calls back.
 */
export async function router(
	context: IExecuteFunctions,
	operations: readonly Operation[],
): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const value = context.getNodeParameter('operation', 0) as string;
	const operation = operations.find((o) => o.option.value === value);
	if (!operation) {
		const allowed = operations.map((o) => `${o.option.value} (${o.option.name})`).join(', ');
		throw toNodeError(
			node,
			invalidInput(value, [
				{
					field: 'Operation (operation)',
					message: `"${value}" is not supported; allowed: ${allowed}`,
				},
			]),
			0,
		);
	}
	const items = context.getInputData();
	const paramsOf = new Map<number, Params>();
	const label = (index: number): FieldLabeler => labeler(operation.properties, paramsOf.get(index));
	const charged = operation.charged === true;
	const [client, policy] = await Promise.all([
		createN8nClient(context),
		charged ? spendPolicyOf(context) : {},
	]).catch((error: unknown) => Promise.reject(toNodeError(node, error, 0)));
	const validateOnly = charged && validateOnlyOf(context);
	const runIndex = runIndexOf(context);
	const executionId = idempotencyExecutionId(context);
	const run: Run = {
		context,
		// Every operation keeps the execution's ledger: reads of its videos report what they cost.
		client: spendingClient(client, ledgerOf(context), policy),
		signal: context.getExecutionCancelSignal?.(),
		// Execution ids restart at 1 in every n8n database: the instance id keeps two installations apart.
		idempotencyScope: `${instanceIdOf(context)}:${executionId}:${node.id ?? node.name}:${runIndex}`,
		keysMayRepeat: !context.getExecutionId() || modeOf(context) === 'retry',
	};
	const asTool = isToolRun(context);
	// A model reads a failure as the tool's answer (message, hint, ids) and can act on it; a thrown error would end its run.
	const continueOnFail = context.continueOnFail() || asTool;
	const toErrorOutput = node.onError === 'continueErrorOutput';
	const outcomes = new Array<ItemOutcome | undefined>(items.length);
	let prepared: Array<Prepared<unknown>> = [];
	const reject = (index: number, error: unknown) => {
		if (!continueOnFail || isAborted(error)) throw toNodeError(node, error, index, label(index));
		outcomes[index] = { ok: false, error: error as VisionStoryError };
	};
	/** A failure of a step that serves every item (a model list, a catalog) fails each of them. */
	const rejectAll = (error: unknown) => {
		for (const item of prepared) reject(item.index, error);
		prepared = [];
	};
	for (let index = 0; index < items.length; index++) {
		try {
			const params = readParams(context, operation.properties, index);
			paramsOf.set(index, params);
			const issues = checkDeclared(operation.properties, params);
			if (issues.length) throw invalidInput(operation.option.value, issues);
			prepared.push({ index, request: await operation.prepare(run, index) });
		} catch (error) {
			reject(index, error);
		}
	}
	if (operation.check && prepared.length) {
		try {
			const rejected = await operation.check(run, prepared);
			for (const [index, error] of rejected) reject(index, error);
			prepared = prepared.filter((item) => !rejected.has(item.index));
		} catch (error) {
			rejectAll(error);
		}
	}
	if (validateOnly && prepared.length) {
		try {
			const estimated = await estimates(run, operation, prepared);
			for (const item of prepared)
				outcomes[item.index] = { ok: true, value: [{ json: estimated.get(item.index)! }] };
		} catch (error) {
			rejectAll(error);
		}
		prepared = [];
	}
	if (prepared.length) {
		try {
			const results = await executeItems(run, operation, prepared);
			prepared.forEach((item, position) => (outcomes[item.index] = results[position]));
		} catch (error) {
			rejectAll(error);
		}
	}
	const outputs: INodeExecutionData[][] = Array.from(
		{ length: operation.outputs?.length ?? 1 },
		() => [],
	);
	// The spend once every item is done: what the execution has been charged so far.
	const summary =
		(charged || operation.reportsSpend) && !validateOnly ? spendSummary(run.client) : undefined;
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) continue;
		if (outcome.ok) {
			const value = summary ? withSpend(outcome.value, summary) : outcome.value;
			for (const item of value)
				outputs[outcome.output ?? 0].push({ ...item, pairedItem: { item: index } });
		} else if (continueOnFail) {
			const item = errorItem(outcome.error, index, label(index), toErrorOutput && !asTool);
			outputs[0].push(summary && asTool ? { ...item, json: { ...item.json, ...summary } } : item);
		} else {
			throw toNodeError(node, outcome.error, index, label(index));
		}
	}
	return asTool ? toolOutput(outputs) : outputs;
}
