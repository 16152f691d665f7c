/**
 * Waiting that does not hold a worker: the wait-loop example (create without waiting, n8n's Wait node,
 * Check Status, back to the Wait while rendering) on a single worker of concurrency 1. While the
 * render runs, the execution waits in the database and another execution runs on that worker.
 */
import { join } from 'node:path';

import { executionResult, waitFor, waitForExecution } from '../../../scripts/n8n/queue/executions';
import { nodeOutput, readBinary } from '../../../scripts/n8n/runData';
import { callWebhook } from '../../../scripts/n8n/rest';
import { sniff } from '../media';
import {
	BATCH_PATH,
	BATCH_WORKFLOW,
	executionIds,
	markService,
	newExecution,
	postBatch,
	sinceMark,
	type QueueContext,
} from './context';

export const WAIT_LOOP_EXAMPLE = 'webhook-talking-video-wait-loop';
/** The example waits 2 minutes; the test waits just over n8n's 65 s, the least that leaves the worker. */
export const WAIT_SECONDS = 66;
const WORKFLOW = 'vsExampleLoop';
const PATH = 'visionstory-talking-video-wait-loop';
// Between one and two waits: the first check finds it rendering, the second finished.
const RENDER_MS = 100_000;
const SOLO = 'solo';

export function describeWorkerFreeWaiting(ctx: QueueContext): void {
	describe('waiting on a render without holding a worker (the wait-loop example)', () => {
		test(
			'on one worker of concurrency 1, another execution runs while the render is waited on; the loop ends with the video, charged once',
			async () => {
				const { rest, cluster } = ctx.session;
				await Promise.all([...cluster.workers.keys()].map((name) => cluster.stopWorker(name)));
				await cluster.startWorker(SOLO, 1);
				ctx.emulator.setConfig({ renderMs: RENDER_MS });
				await rest.activate(WORKFLOW);
				await rest.activate(BATCH_WORKFLOW);
				const mark = markService(ctx);
				const callbacksBefore = ctx.callback.received.length;

				const answer = await callWebhook(cluster.webhookBaseUrl, PATH, {
					script: 'Thanks for your order! It ships today.',
				});
				expect(answer).toMatchObject({
					status: 202,
					body: { video_id: expect.stringMatching(/^vid_/), status: 'rendering' },
				});
				const videoId = answer.body.video_id as string;
				const [waiting] = await waitFor(
					async () => {
						const executions = await rest.executions(WORKFLOW);
						return executions.length === 1 && executions[0].status === 'waiting'
							? executions
							: undefined;
					},
					60_000,
					'the wait-loop execution to wait in the database',
				);
				const waitingId = String(waiting.id);

				// The only worker, with room for one execution, takes another one while the render goes on.
				ctx.emulator.setConfig({ renderMs: 2000 });
				const known = await executionIds(ctx, BATCH_WORKFLOW);
				await postBatch(ctx, BATCH_PATH, ['Meanwhile, a short one.']);
				const meanwhile = await newExecution(ctx, BATCH_WORKFLOW, known, 60_000);
				expect(meanwhile.status).toBe('success');
				expect(cluster.workerRuns().get(String(meanwhile.id))).toEqual([SOLO]);
				expect((await rest.execution(waitingId)).status).toBe('waiting');
				expect(ctx.emulator.tasks().find((t) => t.video_id === videoId)?.status).toMatch(
					/^(queued|creating)$/,
				);

				const done = await waitForExecution(rest, waitingId, 6 * 60_000);
				expect(done).toMatchObject({ status: 'success', mode: 'webhook' });
				const result = await executionResult(rest, done, join(ctx.scratch, waitingId));
				// First check: still rendering, out of the second output and back to the Wait; second: finished.
				expect(nodeOutput(result, 'Check Status', 0, 0)).toEqual([]);
				expect(nodeOutput(result, 'Check Status', 1, 0).map((i) => i.json.video_id)).toEqual([
					videoId,
				]);
				const [finished] = nodeOutput(result, 'Check Status', 0, 1);
				expect(finished.json).toMatchObject({ video_id: videoId, status: 'created' });
				expect(sniff(readBinary(result.userFolder, finished.binary!.data))).toBe('mp4');
				expect(result.runData['Wait 2 Minutes']).toHaveLength(2);
				// Started on the worker, resumed there after each wait: the worker was free in between.
				expect(cluster.workerRuns().get(waitingId)).toEqual([SOLO, SOLO, SOLO]);

				const callbacks = ctx.callback.received
					.slice(callbacksBefore)
					.filter((r) => (r.body as { video_id?: string }).video_id === videoId);
				expect(callbacks.map((r) => r.body)).toEqual([
					expect.objectContaining({ video_id: videoId, status: 'created' }),
				]);
				const { tasks, charges } = sinceMark(ctx, mark);
				expect(tasks.filter((t) => t.video_id === videoId)).toHaveLength(1);
				expect(charges.filter((c) => c.refId === videoId)).toHaveLength(1);
				expect(charges).toHaveLength(2);
				await rest.deactivate(WORKFLOW);
				await rest.deactivate(BATCH_WORKFLOW);
			},
			10 * 60_000,
		);
	});
}
