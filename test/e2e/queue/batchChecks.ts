/**
 * Several executions at once, spread over the workers: five webhook calls, each an execution that
 * creates ten talking videos and waits for them. With a concurrency of 3 per worker, five
 * executions cannot all fit on one worker, so both must take some.
 */
import { waitForExecutions } from '../../../scripts/n8n/queue/executions';
import {
	BATCH_PATH,
	BATCH_WORKFLOW,
	markService,
	outputOf,
	postBatch,
	scriptsFor,
	sinceMark,
	type QueueContext,
} from './context';

const EXECUTIONS = 5;
const VIDEOS = 10;
const RENDER_MS = 20_000;

export function describeBatchesOverWorkers(ctx: QueueContext): void {
	describe('five webhook executions of ten talking videos each, waiting for their renders', () => {
		test(
			'every item is one task and one charge, and both workers ran some of the executions',
			async () => {
				const { rest, cluster } = ctx.session;
				ctx.emulator.setConfig({ renderMs: RENDER_MS });
				expect(await rest.activate(BATCH_WORKFLOW)).toMatchObject({ active: true });
				const mark = markService(ctx);

				const answers = await Promise.all(
					Array.from({ length: EXECUTIONS }, (_, i) =>
						postBatch(ctx, BATCH_PATH, scriptsFor(`spread-${i + 1}`, VIDEOS)),
					),
				);
				// The webhook processor answers when the execution is queued, long before the renders end.
				for (const answer of answers)
					expect(answer.body).toEqual({ message: 'Workflow was started' });

				const executions = await waitForExecutions(rest, BATCH_WORKFLOW, EXECUTIONS, 5 * 60_000);
				const videoIds: string[] = [];
				for (const execution of executions) {
					expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
					const items = outputOf(execution, 'Create Talking Videos');
					expect(items).toHaveLength(VIDEOS);
					for (const item of items)
						expect(item.json).toMatchObject({
							status: 'created',
							video_id: expect.stringMatching(/^vid_/),
						});
					videoIds.push(...items.map((i) => i.json.video_id as string));
				}
				expect(new Set(videoIds).size).toBe(EXECUTIONS * VIDEOS);

				const { tasks, charges, refunds } = sinceMark(ctx, mark);
				expect(tasks.map((t) => t.video_id).sort()).toEqual([...videoIds].sort());
				expect(tasks.every((t) => t.status === 'created')).toBe(true);
				expect(charges.map((c) => c.refId).sort()).toEqual([...videoIds].sort());
				expect(refunds).toEqual([]);

				const runs = cluster.workerRuns();
				const byWorker = new Map<string, string[]>();
				for (const execution of executions) {
					const workers = runs.get(String(execution.id)) ?? [];
					expect(workers).toHaveLength(1);
					byWorker.set(workers[0], [...(byWorker.get(workers[0]) ?? []), String(execution.id)]);
				}
				ctx.log(
					`5 × 10 videos: ${[...byWorker].map(([worker, ids]) => `worker ${worker} ran ${ids.join(', ')}`).join('; ')}`,
				);
				expect([...byWorker.keys()].sort()).toEqual(['a', 'b']);
				expect(await rest.deactivate(BATCH_WORKFLOW)).toMatchObject({ active: false });
			},
			10 * 60_000,
		);
	});
}
