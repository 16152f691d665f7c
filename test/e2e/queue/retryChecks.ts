/**
 * Executions that fail while the node waits on renders, and what n8n then does with them.
 * - A create that gives up waiting (its Timeout): n8n keeps the execution's data, and its Retry runs
 *   the node again from there; the node keys the retry by the execution it retries, so the videos
 *   already made come back instead of new, charged ones.
 * - A worker killed mid-wait: 1.x runs the execution again on another worker under the same id (the
 *   keys dedupe); 2.x gives up on it and keeps only an error, so its Retry has nothing to run. The
 *   recovery the README gives is an Idempotency Key from the order: sending the order again returns
 *   the videos already made.
 */
import {
	waitFor,
	waitForExecution,
	waitForExecutions,
} from '../../../scripts/n8n/queue/executions';
import {
	BATCH_PATH,
	BATCH_WORKFLOW,
	executionIds,
	markService,
	newExecution,
	newWorkerRuns,
	outputOf,
	postBatch,
	scriptsFor,
	sinceMark,
	WORKERS,
	type QueueContext,
} from './context';

const NODE = 'Create Talking Videos';
const TIMEOUT_WORKFLOW = 'vsQueueTimeout';
const KEYED_WORKFLOW = 'vsQueueKeyed';
const CRASH_VIDEOS = 10;

function createdIds(execution: Parameters<typeof outputOf>[0]): string[] {
	const items = outputOf(execution, NODE);
	for (const item of items) expect(item.json.status).toBe('created');
	return items.map((i) => i.json.video_id as string);
}

export function describeRetries(ctx: QueueContext): void {
	describe('executions that fail while waiting on renders', () => {
		test(
			"n8n's Retry of an execution whose create timed out gets back the videos it made, charged once",
			async () => {
				const { rest } = ctx.session;
				// Longer than the node's one-minute Timeout, shorter than a retry started right after it.
				ctx.emulator.setConfig({ renderMs: 80_000 });
				await rest.activate(TIMEOUT_WORKFLOW);
				const mark = markService(ctx);
				await postBatch(ctx, `${BATCH_PATH}-timeout`, scriptsFor('timeout', 3));
				const [failed] = await waitForExecutions(rest, TIMEOUT_WORKFLOW, 1, 4 * 60_000);
				expect(failed.status).toBe('error');
				expect(failed.data?.resultData?.error?.message).toMatch(/still rendering after 1 minute/);
				const made = sinceMark(ctx, mark);
				expect(made.tasks).toHaveLength(3);
				expect(made.charges).toHaveLength(3);

				const retryId = await rest.retryExecution(String(failed.id));
				const retried = await waitForExecution(rest, retryId, 4 * 60_000);
				expect(retried).toMatchObject({
					status: 'success',
					mode: 'retry',
					retryOf: String(failed.id),
				});
				expect(createdIds(retried).sort()).toEqual(made.tasks.map((t) => t.video_id).sort());
				const after = sinceMark(ctx, mark);
				expect(after.tasks).toHaveLength(3);
				expect(after.charges).toHaveLength(3);
				expect((await rest.execution(String(failed.id))).retrySuccessId).toBe(retryId);
				await rest.deactivate(TIMEOUT_WORKFLOW);
			},
			8 * 60_000,
		);

		if (ctx.line.id === 'n8n1') {
			test(
				'a worker killed while its node waits: n8n 1.x runs the execution again on the other worker; every item one task, one charge',
				async () => {
					const { rest, cluster } = ctx.session;
					ctx.emulator.setConfig({ renderMs: 30_000 });
					await rest.activate(BATCH_WORKFLOW);
					const known = new Set(cluster.workerRuns().keys());
					const mark = markService(ctx);
					await postBatch(ctx, BATCH_PATH, scriptsFor('crash', CRASH_VIDEOS));
					const [executionId] = await newWorkerRuns(ctx, known, 1, 60_000);
					await waitFor(
						() => (sinceMark(ctx, mark).tasks.length === CRASH_VIDEOS ? true : undefined),
						60_000,
						'all creates',
					);
					const [victim] = cluster.workerRuns().get(executionId)!;
					await cluster.killWorker(victim);
					ctx.log(
						`killed worker ${victim} while execution ${executionId} waited on ${CRASH_VIDEOS} renders`,
					);

					const execution = await waitForExecution(rest, executionId, 5 * 60_000);
					expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
					// Started by the victim, then once more by the other worker (the logs carry no times: compared as a set).
					const survivor = [...cluster.workers.keys()].find((name) => name !== victim);
					expect([...cluster.workerRuns().get(executionId)!].sort()).toEqual(
						[victim, survivor].sort(),
					);
					const { tasks, charges } = sinceMark(ctx, mark);
					expect(tasks).toHaveLength(CRASH_VIDEOS);
					expect(createdIds(execution).sort()).toEqual(tasks.map((t) => t.video_id).sort());
					expect(charges.map((c) => c.refId).sort()).toEqual(tasks.map((t) => t.video_id).sort());
					await rest.deactivate(BATCH_WORKFLOW);
					await cluster.startWorker(victim, WORKERS[victim].concurrency);
				},
				8 * 60_000,
			);
		} else {
			test(
				'a worker killed while its node waits: n8n 2.x fails the execution and its Retry runs nothing; sending the order again returns the videos made, a new order makes new ones',
				async () => {
					const { rest, cluster } = ctx.session;
					ctx.emulator.setConfig({ renderMs: 30_000 });
					await rest.activate(KEYED_WORKFLOW);
					const known = new Set(cluster.workerRuns().keys());
					const mark = markService(ctx);
					const order = { order_id: 'order-1001' };
					await postBatch(ctx, `${BATCH_PATH}-keyed`, scriptsFor('crash', CRASH_VIDEOS), order);
					const [executionId] = await newWorkerRuns(ctx, known, 1, 60_000);
					await waitFor(
						() => (sinceMark(ctx, mark).tasks.length === CRASH_VIDEOS ? true : undefined),
						60_000,
						'all creates',
					);
					const [victim] = cluster.workerRuns().get(executionId)!;
					await cluster.killWorker(victim);
					ctx.log(
						`killed worker ${victim} while execution ${executionId} waited on ${CRASH_VIDEOS} renders`,
					);

					const lost = await waitForExecution(rest, executionId, 5 * 60_000);
					expect(lost.status).toBe('error');
					expect(lost.data?.resultData?.error?.message).toMatch(
						/failed to be processed too many times/,
					);
					// n8n replaced the execution's data with the error: nothing of the node's run is left.
					expect(lost.data?.resultData?.runData ?? {}).toEqual({});
					expect(lost.data?.executionData?.nodeExecutionStack ?? []).toEqual([]);
					expect(cluster.workerRuns().get(executionId)).toEqual([victim]);
					const made = sinceMark(ctx, mark);
					expect(made.tasks).toHaveLength(CRASH_VIDEOS);
					expect(made.charges).toHaveLength(CRASH_VIDEOS);

					// The user's first move: Retry. It starts, runs no node, and asks nothing of VisionStory.
					const requestsBefore = ctx.emulator.requests({
						method: 'POST',
						path: '/api/v1/video',
					}).length;
					const retried = await waitForExecution(
						rest,
						await rest.retryExecution(executionId),
						2 * 60_000,
					);
					expect(retried).toMatchObject({ mode: 'retry', retryOf: executionId });
					expect(retried.data?.resultData?.runData ?? {}).toEqual({});
					expect(ctx.emulator.requests({ method: 'POST', path: '/api/v1/video' })).toHaveLength(
						requestsBefore,
					);

					// The recovery: the same order again. Its keys are the lost execution's, so the videos come back.
					let seen = await executionIds(ctx, KEYED_WORKFLOW);
					await postBatch(ctx, `${BATCH_PATH}-keyed`, scriptsFor('crash', CRASH_VIDEOS), order);
					const recovered = await newExecution(ctx, KEYED_WORKFLOW, seen, 4 * 60_000);
					expect(recovered).toMatchObject({ status: 'success', mode: 'webhook' });
					expect(createdIds(recovered).sort()).toEqual(made.tasks.map((t) => t.video_id).sort());
					expect(sinceMark(ctx, mark).tasks).toHaveLength(CRASH_VIDEOS);
					expect(sinceMark(ctx, mark).charges).toHaveLength(CRASH_VIDEOS);

					// A deliberate new order makes new videos.
					ctx.emulator.setConfig({ renderMs: 5000 });
					seen = await executionIds(ctx, KEYED_WORKFLOW);
					await postBatch(ctx, `${BATCH_PATH}-keyed`, scriptsFor('crash', CRASH_VIDEOS), {
						order_id: 'order-1002',
					});
					const fresh = await newExecution(ctx, KEYED_WORKFLOW, seen, 4 * 60_000);
					expect(fresh.status).toBe('success');
					const after = sinceMark(ctx, mark);
					expect(after.tasks).toHaveLength(2 * CRASH_VIDEOS);
					expect(after.charges).toHaveLength(2 * CRASH_VIDEOS);
					expect(
						createdIds(fresh).filter((id) => made.tasks.some((t) => t.video_id === id)),
					).toEqual([]);
					await rest.deactivate(KEYED_WORKFLOW);
					await cluster.startWorker(victim, WORKERS[victim].concurrency);
				},
				10 * 60_000,
			);
		}
	});
}
