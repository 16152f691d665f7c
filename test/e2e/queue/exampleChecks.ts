/**
 * The manual examples in queue mode: started from the editor's API, run by the workers (main offloads
 * manual executions), checked with the same assertions as in regular mode, binary files read back
 * from where queue mode keeps them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { executionResult, waitForExecution } from '../../../scripts/n8n/queue/executions';
import { describeExampleChecks } from '../exampleChecks';
import type { SuiteContext } from '../realN8n';
import { markService, sinceMark, type QueueContext } from './context';

const PACKAGE = 'n8n-nodes-visionstory';

export function describeExamplesOnWorkers(ctx: QueueContext): void {
	describe('the manual examples on the workers', () => {
		const suite = {} as SuiteContext;
		const executions = new Map<string, string>();

		beforeAll(() => {
			const { cluster, rest, workflows } = ctx.session;
			Object.assign(suite, {
				line: ctx.line,
				emulator: ctx.emulator,
				callback: ctx.callback,
				rest,
				session: { instance: cluster.main, examples: workflows, packageDir: '' },
				runExample: async (key: string) => {
					const workflow = workflows[key];
					const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
					if (!trigger) throw new Error(`example ${key} has no manual trigger`);
					const mark = markService(ctx);
					const lastRequest = ctx.emulator.requests().at(-1)?.seq ?? 0;
					const id = await rest.runManually(workflow.id, trigger.name);
					executions.set(key, id);
					const execution = await waitForExecution(rest, id, 5 * 60_000);
					const result = await executionResult(rest, execution, join(ctx.scratch, id));
					if (result.status !== 'success')
						throw new Error(
							`n8n ${ctx.line.n8n} queue mode: ${key} ended "${result.status}": ${result.error ?? ''}`,
						);
					return {
						result,
						charges: ctx.emulator.ledger().slice(mark.ledger),
						newTasks: sinceMark(ctx, mark).tasks,
						requests: ctx.emulator.requests({ origin: 'api' }).filter((r) => r.seq > lastRequest),
					};
				},
			});
		});

		test('every process has the package in its own user folder, installed as the Community Nodes panel does', async () => {
			const { cluster, rest } = ctx.session;
			const folders = [
				cluster.main.userFolder,
				cluster.webhookInstance.userFolder,
				...[...cluster.workers.values()].map((w) => w.instance.userFolder),
			];
			expect(folders).toHaveLength(4);
			for (const folder of folders) {
				const manifest = join(folder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json');
				expect(existsSync(manifest)).toBe(true);
				expect((JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name).toBe(PACKAGE);
			}
			const nodeTypes = (await rest.types('nodes')).map((t) => t.name);
			expect(nodeTypes).toEqual(
				expect.arrayContaining([`${PACKAGE}.visionStory`, `${PACKAGE}.visionStoryTrigger`]),
			);
		});

		describeExampleChecks(suite, 'started from the editor API, run by a worker');

		test("each example execution ran on exactly one worker (from the workers' own logs)", () => {
			const runs = ctx.session.cluster.workerRuns();
			expect(executions.size).toBeGreaterThanOrEqual(5);
			for (const [key, id] of executions) {
				const workers = runs.get(id) ?? [];
				ctx.log(`example ${key}: execution ${id} on worker ${workers.join(', ') || 'none'}`);
				expect(workers).toHaveLength(1);
			}
		});
	});
}
