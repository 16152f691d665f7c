/**
 * The trigger on n8n 2.x's durable poll scheduler in queue mode: main (where polls run), a worker
 * (where their executions run), a webhook processor, Postgres and Redis, the four scheduler settings
 * on in every process (durableN8n.ts).
 */
import { join } from 'node:path';

import { startCallbackServer } from '../../../scripts/n8n/callbackServer';
import { repoRoot } from '../../../scripts/n8n/installSteps';
import { prepareQueueSession, type QueueSession } from '../../../scripts/n8n/queue/session';
import { N8N_LINES } from '../../../scripts/n8n/versions';
import { startEmulator } from '../../emulator';
import { describeDurableTrigger, mainRestarts, type DurableContext } from './durableChecks';
import { DURABLE_ENV, durableTriggerWorkflow } from './durableN8n';

const line = N8N_LINES.n8n2;

describe(`real n8n ${line.n8n}, durable poll scheduler, queue mode`, () => {
	const ctx = { line } as DurableContext;
	let session: QueueSession | undefined;
	const started = Date.now();

	beforeAll(async () => {
		ctx.log = (text) =>
			process.stderr.write(
				`[durable queue ${line.id} +${Math.round((Date.now() - started) / 1000)} s] ${text}\n`,
			);
		ctx.emulator = await startEmulator({ renderMs: 2000 });
		ctx.callback = await startCallbackServer();
		ctx.workflow = durableTriggerWorkflow(ctx.callback.url);
		session = await prepareQueueSession({
			line,
			root: join(repoRoot(), '.e2e', `durable-queue-${line.id}`),
			service: { apiKey: ctx.emulator.apiKey, baseUrl: ctx.emulator.baseUrl },
			workers: { a: { concurrency: 2 } },
			callbackUrl: ctx.callback.url,
			extraWorkflows: { durable: ctx.workflow },
			env: DURABLE_ENV,
			log: ctx.log,
		});
		const { cluster } = session;
		ctx.rest = session.rest;
		Object.assign(
			ctx,
			mainRestarts(cluster.main, async (whileDown) => await cluster.restartMain(whileDown)),
		);
		ctx.log('cluster started');
	}, 15 * 60_000);

	afterAll(async () => {
		await session?.cluster.stop();
		await ctx.callback?.stop();
		await ctx.emulator?.stop();
	}, 3 * 60_000);

	describeDurableTrigger(ctx);

	test('main polled and queued each execution of the trigger; the worker ran it', async () => {
		const executions = await ctx.rest.executions(ctx.workflow.id);
		const runs = session!.cluster.workerRuns();
		expect(executions.length).toBeGreaterThan(0);
		for (const execution of executions) expect(runs.get(String(execution.id))).toEqual(['a']);
	});
});
