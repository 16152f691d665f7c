import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { fieldIssues } from '../api/client';
import type { RequestOf } from '../api/contract';
import type { FieldIssue } from '../api/errors';
import { invalidInput, isAborted } from '../api/errors';
import type { VisionStoryError } from '../api/errors';
import type { MediaInput } from '../n8n/binary';
import { mediaParts, mediaRefOf } from '../n8n/binary';
import { createN8nClient } from '../n8n/client';
import type { FieldLabeler } from '../n8n/nodeErrors';
import { errorItem, toNodeError } from '../n8n/nodeErrors';
import { labeler } from './fieldLabels';
import { readMedia } from './mediaParams';
import type { ItemOutcome, MediaRefs, OperationDef, Params, Prepared, Scope } from './operation';
import { checkDeclared, readParams } from './params';
import { isToolRun, toolOutput } from './toolResult';
import { dryRun, isChargedOperation, ledgerOf, reportsSpend, spendingClient, spendPolicyOf, spendSummary, validateOnlyOf, withSpend } from './spend';

async function prepare(scope: Scope, operation: OperationDef, index: number, params: Params): Promise<Prepared> {
	const { context, client } = scope;
	const issues: FieldIssue[] = checkDeclared(operation.properties, params);
	const inputs: MediaInput[] = [];
	const refs: MediaRefs = {};
	for (const decl of operation.media ?? []) {
		const read = await readMedia(context, decl, params, index, issues);
		const list = Array.isArray(read) ? read : read ? [read] : [];
		const placed = list.map((input) => {
			inputs.push(input);
			return mediaRefOf(input, inputs.length - 1);
		});
		refs[decl.name] = Array.isArray(read) ? placed : placed[0];
	}
	if (issues.length) throw invalidInput(operation.value, issues);
	let request: IDataObject | undefined;
	if (operation.request) {
		const raw = operation.request(params, refs);
		if (operation.validateAs) request = client.validate(operation.validateAs, raw as RequestOf<typeof operation.validateAs>) as IDataObject;
		else if (operation.schema) {
			const parsed = operation.schema.safeParse(raw);
			if (!parsed.success) throw invalidInput(operation.value, fieldIssues(parsed.error));
			request = parsed.data as IDataObject;
		} else request = raw as IDataObject;
	}
	return { index, params, inputs, request };
}

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

function runIndexOf(context: IExecuteFunctions): number {
	try {
		const proxy = context.getWorkflowDataProxy(0) as { $runIndex?: unknown };
		return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
	} catch {
		return 0;
	}
}

/**
 * Runs one operation over all input items: reads and checks every item first (a bad item sends
 * nothing), hands the good ones to the operation together (so waits and batches can span items),
 * then assembles the output with pairedItem and continue-on-fail.
 */
export async function executeOperation(context: IExecuteFunctions, operations: readonly OperationDef[]): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const value = context.getNodeParameter('operation', 0) as string;
	const operation = operations.find((o) => o.value === value);
	if (!operation) {
		const allowed = operations.map((o) => `${o.value} (${o.name})`).join(', ');
		throw toNodeError(node, invalidInput(value, [{ field: 'Operation (operation)', message: `"${value}" is not supported; allowed: ${allowed}` }]), 0);
	}
	const items = context.getInputData();
	const paramsOf = new Map<number, Params>();
	const label = (index: number): FieldLabeler => labeler(operation.properties, operation.fieldParameters, paramsOf.get(index));
	const charged = isChargedOperation(operation);
	const [client, policy] = await Promise.all([createN8nClient(context), charged ? spendPolicyOf(context) : {}]).catch((error: unknown) =>
		Promise.reject(toNodeError(node, error, 0)),
	);
	// Every operation keeps the execution's ledger: reads of its videos report what they cost.
	const spend = spendingClient(client, ledgerOf(context), policy);
	const validateOnly = charged && validateOnlyOf(context);
	const runIndex = runIndexOf(context);
	const executionId = idempotencyExecutionId(context);
	const scope: Scope = {
		context,
		client: spend,
		spend,
		signal: context.getExecutionCancelSignal?.(),
		// Execution ids restart at 1 in every n8n database: the instance id keeps two installations apart.
		idempotencyContext: (itemIndex) => `${instanceIdOf(context)}:${executionId}:${node.id ?? node.name}:${runIndex}:${itemIndex}`,
		media: (item) => mediaParts(context, item.inputs),
	};
	const asTool = isToolRun(context);
	// A model reads a failure as the tool's answer (message, hint, ids) and can act on it; a thrown error would end its run.
	const continueOnFail = context.continueOnFail() || asTool;
	const toErrorOutput = node.onError === 'continueErrorOutput';
	const outcomes = new Array<ItemOutcome | undefined>(items.length);
	let prepared: Prepared[] = [];
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
			prepared.push(await prepare(scope, operation, index, params));
		} catch (error) {
			reject(index, error);
		}
	}
	if (operation.check && prepared.length) {
		try {
			const rejected = await operation.check(scope, prepared);
			for (const [index, error] of rejected) reject(index, error);
			prepared = prepared.filter((item) => !rejected.has(item.index));
		} catch (error) {
			rejectAll(error);
		}
	}
	if (validateOnly && prepared.length) {
		try {
			const estimates = await dryRun(scope, operation, prepared);
			for (const item of prepared) outcomes[item.index] = { ok: true, value: [{ json: estimates.get(item.index)! }] };
		} catch (error) {
			rejectAll(error);
		}
		prepared = [];
	}
	if (prepared.length) {
		try {
			const results = await operation.run(scope, prepared);
			prepared.forEach((item, position) => (outcomes[item.index] = results[position]));
		} catch (error) {
			rejectAll(error);
		}
	}
	const outputs: INodeExecutionData[][] = Array.from({ length: operation.outputs?.length ?? 1 }, () => []);
	// The spend once every item is done: what the execution has been charged so far.
	const summary = reportsSpend(operation) && !validateOnly ? spendSummary(spend) : undefined;
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) continue;
		if (outcome.ok) {
			const value = summary ? withSpend(outcome.value, summary) : outcome.value;
			for (const item of value) outputs[outcome.output ?? 0].push({ ...item, pairedItem: { item: index } });
		} else if (continueOnFail) {
			const item = errorItem(outcome.error, index, label(index), toErrorOutput && !asTool);
			outputs[0].push(summary && asTool ? { ...item, json: { ...item.json, ...summary } } : item);
		} else {
			throw toNodeError(node, outcome.error, index, label(index));
		}
	}
	return asTool ? toolOutput(outputs) : outputs;
}

