import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	INodeExecutionData,
	IPinData,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { buildAdditionalData } from './additional-data';
import type { BinaryStore } from './binary-data';
import { withBinaryStore } from './binary-data';
import type { CredentialDataMap } from './credentials';
import { HarnessCredentialsHelper } from './credentials';
import type { EngineContext } from './engine-context';
import { REPO_ROOT } from '../../scripts/paths';
import type { RunOptions, RunResult, WorkflowJson } from './types';

/** Relative paths are taken from the repository root, whatever folder jest runs from. */
export function loadWorkflow(workflowOrPath: WorkflowJson | string): WorkflowJson {
	const json =
		typeof workflowOrPath === 'string'
			? readFileSync(path.resolve(REPO_ROOT, workflowOrPath), 'utf8')
			: JSON.stringify(workflowOrPath);
	// Always a private copy: the engine writes into node objects and static data.
	return JSON.parse(json) as WorkflowJson;
}

/**
 * Pinned items as the editor stores them are `{ json }` objects; older exports and hand-written
 * tests sometimes pin bare objects, which the editor would wrap the same way.
 */
function normalisePinData(pinData: IPinData): IPinData {
	return Object.fromEntries(
		Object.entries(pinData).map(([node, items]) => [
			node,
			items.map((item) =>
				isExecutionData(item) ? item : { json: item as unknown as INodeExecutionData['json'] },
			),
		]),
	);
}

function isExecutionData(item: unknown): item is INodeExecutionData {
	return (
		typeof item === 'object' && item !== null && 'json' in item && typeof item.json === 'object'
	);
}

/**
 * Runs the workflow the way the editor's "Execute workflow" does: execution mode `manual`, start
 * at the trigger, pinned nodes produce their pinned items instead of running.
 */
export async function runWorkflow(
	engine: EngineContext,
	workflowOrPath: WorkflowJson | string,
	options: RunOptions = {},
): Promise<RunResult> {
	const data = loadWorkflow(workflowOrPath);
	const pinData = normalisePinData({ ...(data.pinData ?? {}), ...(options.pinData ?? {}) });
	const workflowData = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		...data,
		pinData,
	} as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes: engine.nodeTypes,
		staticData: workflowData.staticData as Workflow['staticData'] | undefined,
		settings: workflowData.settings,
		pinData,
	});
	const executionId = options.executionId ?? randomUUID();
	const credentialsHelper = new HarnessCredentialsHelper(
		engine.credentialTypes,
		(options.credentials ?? {}) as CredentialDataMap,
	);
	const mode = options.retryOf ? 'retry' : 'manual';
	const additionalData = buildAdditionalData({
		credentialsHelper,
		executionId,
		workflow: workflowData,
		mode,
	});

	const run = await withBinaryStore(engine.binaryStore, async () => {
		// A PCancelable: cancel() is what n8n calls when the user stops the execution.
		const execution = options.retryOf
			? new WorkflowExecute(
					additionalData,
					'retry',
					retryData(options.retryOf),
				).processRunExecutionData(workflow)
			: new WorkflowExecute(additionalData, 'manual').run({ workflow, pinData });
		options.onStart?.({ cancel: () => execution.cancel() });
		return await execution;
	});
	return toRunResult(run, executionId, engine.binaryStore);
}

/** What n8n's ExecutionService.retry hands the runner: the saved data, its error and the failed node run dropped. */
function retryData(failed: RunResult): IRunExecutionData {
	// Saved executions go through JSON; nothing but plain data survives into a retry.
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return data;
}

function toRunResult(run: IRun, executionId: string, binaryStore: BinaryStore): RunResult {
	const { runData, error } = run.data.resultData;

	const describeRun = (): string => {
		const ran = Object.keys(runData);
		const ranText = ran.length > 0 ? `Nodes that ran: ${ran.join(', ')}.` : 'No node ran.';
		return error ? `${ranText} Execution error: ${error.message}` : ranText;
	};

	const output: RunResult['output'] = (nodeName, outputIndex = 0, runIndex = 0) => {
		const tasks = runData[nodeName];
		if (!tasks) throw new Error(`Node "${nodeName}" did not run. ${describeRun()}`);
		const task = tasks[runIndex];
		if (!task)
			throw new Error(
				`Node "${nodeName}" ran ${tasks.length} time(s); there is no run ${runIndex}`,
			);
		if (task.error && !task.data) {
			throw new Error(
				`Node "${nodeName}" failed: ${task.error.message}${task.error.description ? ` (${task.error.description})` : ''}`,
			);
		}
		return task.data?.main?.[outputIndex] ?? [];
	};

	const binary: RunResult['binary'] = async (nodeName, itemIndex = 0, property = 'data') => {
		const items = output(nodeName);
		const item = items[itemIndex];
		if (!item)
			throw new Error(
				`Node "${nodeName}" output has ${items.length} item(s); there is no item ${itemIndex}`,
			);
		const binaryData = item.binary?.[property];
		if (!binaryData) {
			const present = Object.keys(item.binary ?? {});
			throw new Error(
				`Item ${itemIndex} of node "${nodeName}" has no binary property "${property}" (it has: ${present.join(', ') || 'none'})`,
			);
		}
		if (binaryStore.released)
			throw new Error('The harness has been shut down; its binary data is gone');
		// Either inline base64 (default mode) or an id the filesystem store resolves.
		return await binaryStore.service.getAsBuffer(binaryData);
	};

	const nodeError: RunResult['nodeError'] = (nodeName) =>
		(runData[nodeName] ?? [])
			.map((task) => task.error)
			.filter((taskError): taskError is ExecutionBaseError => taskError !== undefined)
			.pop();

	return {
		runData,
		data: run.data,
		error,
		status: run.status,
		executionId,
		output,
		binary,
		nodeError,
	};
}
