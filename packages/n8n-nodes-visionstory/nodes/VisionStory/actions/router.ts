import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { Slots } from '../../shared/api/concurrency';
import { invalidInput, isAborted } from '../../shared/api/errors';
import type { VisionStoryError } from '../../shared/api/errors';
import { createN8nClient } from '../../shared/n8n/client';
import type { FieldLabeler } from '../../shared/n8n/nodeErrors';
import { errorItem, toNodeError, toolCallError } from '../../shared/n8n/nodeErrors';
import type {
	ItemOutcome,
	Operation,
	Prepared,
	OperationContext,
} from '../../shared/framework/action';
import { labeler } from '../../shared/framework/fieldLabels';
import type { Params } from '../../shared/framework/params';
import { checkDeclared, readParams } from '../../shared/framework/params';
import {
	ledgerOf,
	spendingClient,
	spendPolicyOf,
	spendSummary,
	validateOnlyOf,
	withSpend,
} from '../../shared/framework/spend';
import { isAgentToolCall, isToolRun, toolOutput } from '../../shared/framework/toolResult';
import { allowedOperations, findOperation } from './resources';

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
	ctx: OperationContext,
	operation: Operation,
	items: Array<Prepared<unknown>>,
): Promise<Map<number, IDataObject>> {
	const results = new Map<number, IDataObject>();
	const { cap } = ctx.client.policy;
	let total = ctx.client.ledger.spent();
	for (const item of items) {
		const estimate = operation.estimate ? await operation.estimate(ctx, item.request) : undefined;
		// An unknown price costs at least one credit.
		total += estimate ?? 1;
		results.set(item.index, {
			validateOnly: true,
			valid: true,
			operation: operation.option.value,
			estimatedCredits: estimate ?? null,
			priceKnown: estimate !== undefined,
			withinCap: cap === undefined || total <= cap,
			...spendSummary(ctx.client),
		});
	}
	return results;
}

/** Runs the operation on every item, one at a time or all together, into one outcome per item. */
async function executeItems(
	ctx: OperationContext,
	operation: Operation,
	items: Array<Prepared<unknown>>,
): Promise<ItemOutcome[]> {
	if (operation.executeAll) return await operation.executeAll(ctx, items);
	const slots = new Slots(operation.concurrency ?? ITEM_CONCURRENCY);
	const outcomes = await Promise.all(
		items.map(async (item): Promise<ItemOutcome> => {
			await slots.take();
			try {
				return { ok: true, value: (await operation.execute?.(ctx, item)) ?? [] };
			} catch (error) {
				const kept = await operation.keptOnFailure?.(ctx, item, error);
				return { ok: false, error: error as VisionStoryError, kept };
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

/** An error item with what its item was still charged for: its binary, and its JSON beside the error's. */
function withKept(
	item: INodeExecutionData,
	kept: INodeExecutionData | undefined,
	forErrorOutput: boolean,
): INodeExecutionData {
	if (!kept) return item;
	const json: IDataObject = forErrorOutput
		? { ...item.json, error: { ...(item.json.error as IDataObject), ...kept.json } }
		: { ...kept.json, ...item.json };
	return { ...item, json, binary: kept.binary };
}

/** The operation the node is set to, from the one list; an unknown pair (an expression, an old workflow) is refused by name. */
function chosenOperation(context: IExecuteFunctions): Operation {
	const resource = context.getNodeParameter('resource', 0) as string;
	const value = context.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, value);
	if (operation) return operation;
	throw toNodeError(
		context.getNode(),
		invalidInput(value, [
			{
				field: 'Resource and Operation (resource, operation)',
				message: `"${resource}" / "${value}" is not supported; allowed: ${allowedOperations()}`,
			},
		]),
		0,
	);
}

/**
 * The node's `execute`, n8n's router: picks the operation from the resource and operation set, then
 * runs the one item loop, as n8n's routers have it: prepares and checks every item before anything
 * is sent (a bad item sends nothing), runs the good ones, and assembles the outputs with pairedItem,
 * the On Error setting and the spend. The operation is called, never calls back.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runItems(this);
}

/** The one item loop, over the operation the node is set to. */
async function runItems(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const operation = chosenOperation(context);
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
	const ctx: OperationContext = {
		n8n: context,
		// Every operation keeps the execution's ledger: reads of its videos report what they cost.
		client: spendingClient(client, ledgerOf(context), policy),
		signal: context.getExecutionCancelSignal?.(),
		// Execution ids restart at 1 in every n8n database: the instance id keeps two installations apart.
		idempotencyScope: `${instanceIdOf(context)}:${executionId}:${node.id ?? node.name}:${runIndex}`,
		keysMayRepeat: !context.getExecutionId() || modeOf(context) === 'retry',
	};
	const asTool = isToolRun(context);
	// An AI Agent reads a failure as the tool's answer (message, hint, ids) and acts on it: on n8n 1.x
	// a tool that throws ends the agent's whole run, and on 2.x the agent would get the message alone.
	// Any other caller (the MCP Server Trigger) gets the failure thrown: n8n marks an MCP result as an
	// error only then.
	const continueOnFail = context.continueOnFail() || (asTool && isAgentToolCall(items));
	const toErrorOutput = node.onError === 'continueErrorOutput';
	const failure = (index: number, error: unknown) =>
		asTool && !isAborted(error)
			? toolCallError(node, error, index, label(index))
			: toNodeError(node, error, index, label(index));
	const outcomes = new Array<ItemOutcome | undefined>(items.length);
	let prepared: Array<Prepared<unknown>> = [];
	const reject = (index: number, error: unknown) => {
		if (!continueOnFail || isAborted(error)) throw failure(index, error);
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
			prepared.push({ index, request: await operation.prepare(ctx, index) });
		} catch (error) {
			reject(index, error);
		}
	}
	if (operation.check && prepared.length) {
		try {
			const rejected = await operation.check(ctx, prepared);
			for (const [index, error] of rejected) reject(index, error);
			prepared = prepared.filter((item) => !rejected.has(item.index));
		} catch (error) {
			rejectAll(error);
		}
	}
	if (validateOnly && prepared.length) {
		try {
			const estimated = await estimates(ctx, operation, prepared);
			for (const item of prepared)
				outcomes[item.index] = { ok: true, value: [{ json: estimated.get(item.index)! }] };
		} catch (error) {
			rejectAll(error);
		}
		prepared = [];
	}
	if (prepared.length) {
		try {
			const results = await executeItems(ctx, operation, prepared);
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
		(charged || operation.reportsSpend) && !validateOnly ? spendSummary(ctx.client) : undefined;
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) continue;
		if (outcome.ok) {
			const value = summary ? withSpend(outcome.value, summary) : outcome.value;
			for (const item of value)
				outputs[outcome.output ?? 0].push({ ...item, pairedItem: { item: index } });
		} else if (continueOnFail || outcome.kept) {
			// What the item was charged for comes out with its error even where On Error says stop:
			// failing the workflow would throw paid output away (as a failed download keeps its video).
			const forErrorOutput = continueOnFail && toErrorOutput && !asTool;
			const item = withKept(
				errorItem(outcome.error, index, label(index), forErrorOutput),
				outcome.kept,
				forErrorOutput,
			);
			// n8n routes an item down the error output only while its JSON holds nothing but the error.
			const withSummary = summary && (asTool || (outcome.kept && !forErrorOutput));
			outputs[0].push(withSummary ? { ...item, json: { ...item.json, ...summary } } : item);
		} else {
			throw failure(index, outcome.error);
		}
	}
	return asTool ? toolOutput(outputs) : outputs;
}
