/**
 * The package in n8n's queue mode, as users who outgrow one process run it: main (editor, API,
 * triggers, wait tracker), two workers, a webhook processor, Postgres and Redis, the package installed
 * as a community package in every process's user folder. The emulator stands in for VisionStory; its
 * ledger and task list judge every charge.
 */
import { join } from 'node:path';

import { startCallbackServer } from '../../../scripts/n8n/callbackServer';
import { repoRoot } from '../../../scripts/n8n/installSteps';
import { prepareQueueSession } from '../../../scripts/n8n/queue/session';
import type { N8nLine } from '../../../scripts/n8n/versions';
import { firstPublicAvatarId } from '../../support/avatars';
import { startEmulator } from '../../emulator';
import { describeBatchesOverWorkers } from './batchChecks';
import { BATCH_PATH, batchVariant, fixture, WORKERS, type QueueContext } from './context';
import { describeExamplesOnWorkers } from './exampleChecks';
import { describeRetries } from './retryChecks';
import { describeTriggerInQueueMode } from './triggerChecks';
import { describeWorkerFreeWaiting, WAIT_LOOP_EXAMPLE, WAIT_SECONDS } from './waitLoopChecks';

// 1.123 accepts a seconds field in a custom Poll Times cron; 2.x refuses anything under a minute.
const FAST_POLL_CRON: Partial<Record<N8nLine['id'], string>> = { n8n1: '0/10 * * * * *' };

export function describeQueueMode(line: N8nLine): void {
	describe(`queue mode, n8n ${line.n8n}: main, workers a and b, a webhook processor, Postgres, Redis`, () => {
		// The line is known while jest collects the tests (some checks differ per line); the rest comes in beforeAll.
		const ctx = { line } as QueueContext;
		const started = Date.now();

		beforeAll(async () => {
			// Progress goes to stderr at once: jest holds console output of a test file until it ends.
			ctx.log = (text) =>
				process.stderr.write(
					`[queue ${line.id} +${Math.round((Date.now() - started) / 1000)} s] ${text}\n`,
				);
			ctx.emulator = await startEmulator({ renderMs: 2000 });
			ctx.callback = await startCallbackServer();
			ctx.avatarId = await firstPublicAvatarId(ctx.emulator);
			const root = join(repoRoot(), '.e2e', `queue-${line.id}`);
			ctx.scratch = join(root, 'fetched');
			ctx.session = await prepareQueueSession({
				line,
				root,
				service: { apiKey: ctx.emulator.apiKey, baseUrl: ctx.emulator.baseUrl },
				workers: WORKERS,
				callbackUrl: ctx.callback.url,
				pollCron: FAST_POLL_CRON[line.id],
				extraWorkflows: {
					batch: fixture('webhook-batch'),
					'batch-timeout': batchVariant('vsQueueTimeout', `${BATCH_PATH}-timeout`, {
						timeoutMinutes: 1,
					}),
					// The recovery the README gives for executions n8n 2.x gives up on: a key from the order.
					'batch-keyed': batchVariant('vsQueueKeyed', `${BATCH_PATH}-keyed`, {
						options: {
							idempotencyKey: "={{ $('Webhook').item.json.body.order_id }}-{{ $itemIndex }}",
						},
					}),
					'static-subworkflow': fixture('static-data-subworkflow'),
					'trigger-static-subworkflow': fixture('trigger-static-subworkflow'),
				},
				adjust: (key, workflow) => {
					// Over 65 s, so the execution still waits in the database and leaves its worker.
					if (key !== WAIT_LOOP_EXAMPLE) return;
					for (const node of workflow.nodes)
						if (node.type === 'n8n-nodes-base.wait')
							node.parameters = { amount: WAIT_SECONDS, unit: 'seconds' };
				},
				log: ctx.log,
			});
		}, 15 * 60_000);

		afterAll(async () => {
			await ctx.session?.cluster.stop();
			await ctx.callback?.stop();
			await ctx.emulator?.stop();
			ctx.log?.('stopped');
		}, 3 * 60_000);

		describeExamplesOnWorkers(ctx);
		describeBatchesOverWorkers(ctx);
		describeTriggerInQueueMode(ctx);
		describeRetries(ctx);
		describeWorkerFreeWaiting(ctx);
	});
}
