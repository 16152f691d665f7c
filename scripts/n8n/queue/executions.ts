/**
 * Executions as a queue-mode n8n records them: waiting for one to settle through the public API, and
 * turning its record into the same shape `n8n execute` gives, with binary files fetched from n8n
 * (queue mode keeps them in the database on 2.x, inline on 1.x).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { ExecutionSummary, N8nRest } from '../rest';
import type { ExecutionResult, NodeRun } from '../runData';

const UNSETTLED = new Set(['new', 'running', 'unknown']);

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value; the error names what was awaited and, if given, what was seen. */
export async function waitFor<T>(
	check: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	what: string,
	options: { seen?: () => string; everyMs?: number } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(
				`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${options.seen ? `; seen: ${options.seen()}` : ''}`,
			);
		await sleep(options.everyMs ?? 500);
	}
}

// n8n saves a finished execution in two writes, its status first and its run data after: a reader
// in between sees "success" with the run data of its start. How long to wait for the second write.
const DATA_AFTER_STATUS_MS = 15_000;

/**
 * The execution once it has settled: finished, failed, or waiting in the database when `waiting`
 * counts as settled; with `withRunData`, also once its run data is saved (some node ran, or the run's
 * error is there), or DATA_AFTER_STATUS_MS after its status settled.
 */
export async function waitForExecution(
	rest: N8nRest,
	id: string,
	timeoutMs: number,
	options: { settledWhenWaiting?: boolean; everyMs?: number; withRunData?: boolean } = {},
): Promise<ExecutionSummary> {
	let settledAt: number | undefined;
	return await waitFor(
		async () => {
			const execution = await rest.execution(id).catch(() => undefined);
			if (!execution || UNSETTLED.has(execution.status)) return undefined;
			if (execution.status === 'waiting' && !options.settledWhenWaiting) return undefined;
			if (!options.withRunData) return execution;
			settledAt ??= Date.now();
			const result = execution.data?.resultData;
			const saved = Object.keys(result?.runData ?? {}).length > 0 || result?.error !== undefined;
			return saved || Date.now() - settledAt > DATA_AFTER_STATUS_MS ? execution : undefined;
		},
		timeoutMs,
		`execution ${id} to settle`,
		{ everyMs: options.everyMs ?? 1000 },
	);
}

/** Executions of a workflow, oldest first, once there are `count` of them and all have settled. */
export async function waitForExecutions(
	rest: N8nRest,
	workflowId: string,
	count: number,
	timeoutMs: number,
): Promise<ExecutionSummary[]> {
	return await waitFor(
		async () => {
			const executions = await rest.executions(workflowId);
			if (
				executions.length < count ||
				executions.some((e) => UNSETTLED.has(e.status) || e.status === 'waiting')
			)
				return undefined;
			return executions.sort((a, b) => Number(a.id) - Number(b.id));
		},
		timeoutMs,
		`${count} settled execution(s) of ${workflowId}`,
		{ everyMs: 1000 },
	);
}

/**
 * The record as `n8n execute` would print it. Binary files stored outside the run data are fetched
 * through main's REST API into `folder`, where `readBinary` finds them, unless `folder` is the user
 * folder of the n8n that stored them (regular mode), where they already are.
 */
export async function executionResult(
	rest: N8nRest,
	execution: ExecutionSummary,
	folder: string,
	options: { filesAreLocal?: boolean } = {},
): Promise<ExecutionResult> {
	const resultData = (execution.data?.resultData ?? {}) as {
		runData?: Record<string, NodeRun[]>;
		error?: { message?: string; description?: string };
	};
	const runData = resultData.runData ?? {};
	for (const runs of Object.values(runData)) {
		for (const run of runs) {
			for (const items of run.data?.main ?? []) {
				for (const item of items ?? []) {
					for (const ref of Object.values(item.binary ?? {})) {
						if (!ref.id || options.filesAreLocal) continue;
						const separator = ref.id.indexOf(':');
						const file = join(
							folder,
							'.n8n',
							ref.id.slice(0, separator),
							ref.id.slice(separator + 1),
						);
						mkdirSync(dirname(file), { recursive: true });
						writeFileSync(file, await rest.binaryData(ref.id));
					}
				}
			}
		}
	}
	const started = execution.startedAt ? Date.parse(execution.startedAt) : NaN;
	const stopped = execution.stoppedAt ? Date.parse(execution.stoppedAt) : NaN;
	return {
		status: execution.status,
		error: resultData.error
			? [resultData.error.message, resultData.error.description].filter(Boolean).join(': ')
			: undefined,
		runData,
		userFolder: folder,
		log: `execution ${execution.id} (${execution.mode}): ${execution.status}`,
		ms: Number.isFinite(stopped - started) ? stopped - started : 0,
	};
}
