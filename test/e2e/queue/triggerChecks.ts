/**
 * The webhook pair in queue mode: the webhook processor takes the request and a worker answers it
 * while the render runs; the trigger polls on main and its executions run on the workers. Beside the
 * callback example runs the README's workaround for n8n 2.x's static data overwrite: the trigger's
 * workflow hands work that writes workflow static data to a sub-workflow. Then main restarts while
 * videos finish: each trigger must emit each of them exactly once, also when 500 finish together.
 */
import { waitFor } from '../../../scripts/n8n/queue/executions';
import { callWebhook } from '../../../scripts/n8n/rest';
import type { QueueContext } from './context';

const RENDER_MS = 8000;
const WEBHOOK_EXAMPLE = 'vsExampleWebhook';
const WEBHOOK_PATH = 'visionstory-talking-video';
const CALLBACK_EXAMPLE = 'vsExampleTrigger';
const STATIC_CALLER = 'vsQueueCaller';
const STATIC_SUB = 'vsQueueSub';
const CALLBACK_PATH = '/visionstory-callback';
const STATIC_PATH = '/visionstory-callback/static-sub';
const RESTART_VIDEOS = 3;
/** Made straight at the service (the triggers only watch it): half talking videos, half AI videos. */
const SCALE_VIDEOS = 500;
const SCALE_RENDER_MS = 30_000;
/** What one poll hands over at most (LIMITS.emitPerPoll). */
const EMIT_PER_POLL = 200;

// 1.x polls every 10 s in these tests; 2.x once a minute at the earliest.
const POLL_MS: Record<string, number> = { n8n1: 10_000, n8n2: 60_000 };

export function describeTriggerInQueueMode(ctx: QueueContext): void {
	describe('the webhook pair and the trigger on main', () => {
		const videos: string[] = [];
		const delivered = (path: string): string[] =>
			ctx.callback.received
				.filter((r) => r.path === path)
				.map((r) => (r.body as { video_id: string }).video_id);
		const listRequests = (path: string) => ctx.emulator.requests({ method: 'GET', path }).length;
		// Each poll of the callback example lists both kinds; the sub-workflow caller lists talking videos only.
		const polls = () => ({
			callback: listRequests('/api/v1/ai_videos'),
			talking: listRequests('/api/v1/videos'),
		});
		const afterPolls = async (count: number) => {
			const start = polls();
			await waitFor(
				() => {
					const now = polls();
					return now.callback >= start.callback + count && now.talking >= start.talking + 2 * count
						? true
						: undefined;
				},
				(count + 1) * POLL_MS[ctx.line.id] + 60_000,
				`${count} more poll(s) of both triggers`,
			);
			// Let the executions of that poll, if any, reach the callback endpoint.
			await new Promise((r) => setTimeout(r, 5000));
		};
		const staticDataOf = async (workflowId: string): Promise<Record<string, any> | null> => {
			const row = await ctx.session.cluster.backends.postgres.query(
				`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId}'`,
			);
			return row.trim() ? (JSON.parse(row) as Record<string, any>) : null;
		};
		const deliveries = () =>
			JSON.stringify({
				callback: delivered(CALLBACK_PATH),
				subWorkflow: delivered(STATIC_PATH),
				expected: videos,
			});
		const expectEachOnce = (ids: string[]) => {
			for (const path of [CALLBACK_PATH, STATIC_PATH])
				expect([...delivered(path)].sort()).toEqual([...ids].sort());
		};

		// 2.x publishes a caller only once its sub-workflows are published; 1.x refuses to activate a
		// workflow without a trigger and calls sub-workflows as saved.
		const toActivate =
			ctx.line.id === 'n8n2'
				? [STATIC_SUB, STATIC_CALLER, CALLBACK_EXAMPLE, WEBHOOK_EXAMPLE]
				: [STATIC_CALLER, CALLBACK_EXAMPLE, WEBHOOK_EXAMPLE];

		test('activated through the public API', async () => {
			const { rest } = ctx.session;
			ctx.emulator.setConfig({ renderMs: RENDER_MS });
			const before = polls();
			for (const id of toActivate) expect(await rest.activate(id)).toMatchObject({ active: true });
			// Each trigger polls once at activation, on main, to record where it starts.
			await waitFor(
				() =>
					polls().callback > before.callback && polls().talking >= before.talking + 2
						? true
						: undefined,
				60_000,
				'the activation polls',
			);
		}, 120_000);

		test('the webhook processor answers 202 with the video id while the video still renders; a worker ran it', async () => {
			const { rest, cluster } = ctx.session;
			const tasksBefore = ctx.emulator.tasks().length;
			const ledgerBefore = ctx.emulator.ledger().length;
			const answer = await callWebhook(cluster.webhookBaseUrl, WEBHOOK_PATH, {
				script: 'Our summer sale starts today: everything half price until Sunday.',
			});
			const task = ctx.emulator.tasks().find((t) => t.video_id === answer.body?.video_id);
			expect(answer).toMatchObject({
				status: 202,
				body: { video_id: expect.stringMatching(/^vid_/), status: 'rendering' },
			});
			expect(task?.status).toMatch(/^(queued|creating)$/);
			expect(ctx.emulator.tasks()).toHaveLength(tasksBefore + 1);
			expect(
				ctx.emulator
					.ledger()
					.slice(ledgerBefore)
					.map((e) => [e.operation, e.kind, e.refId]),
			).toEqual([['talking_video', 'charge', answer.body.video_id]]);
			videos.push(answer.body.video_id);
			const [execution] = await rest.executions(WEBHOOK_EXAMPLE);
			expect(execution).toMatchObject({ mode: 'webhook' });
			expect(cluster.workerRuns().get(String(execution.id))).toHaveLength(1);
		});

		test(
			'each trigger delivers the finished video exactly once; its executions ran on the workers',
			async () => {
				const { rest, cluster } = ctx.session;
				expect(videos).toHaveLength(1);
				await waitFor(
					() =>
						delivered(CALLBACK_PATH).length && delivered(STATIC_PATH).length ? true : undefined,
					2 * POLL_MS[ctx.line.id] + RENDER_MS + 60_000,
					'both callbacks',
					{ seen: deliveries },
				);
				const [callback] = ctx.callback.received.filter((r) => r.path === CALLBACK_PATH);
				expect(callback.body).toEqual({
					event: 'visionstory.video.created',
					kind: 'talkingVideo',
					video_id: videos[0],
					status: 'created',
					video_url: expect.stringContaining(videos[0]),
					cost_credit: 10,
				});
				// The poll after the one that emitted it must not emit it again.
				await afterPolls(1);
				expectEachOnce(videos);

				const runs = cluster.workerRuns();
				for (const workflow of [CALLBACK_EXAMPLE, STATIC_CALLER]) {
					const executions = await rest.executions(workflow);
					expect(executions.map((e) => [e.mode, e.status])).toEqual([['trigger', 'success']]);
					// Main polled and queued it; a worker ran it.
					expect(cluster.main.serverLogText()).toContain(`Enqueued execution ${executions[0].id} `);
					expect(runs.get(String(executions[0].id))).toHaveLength(1);
				}
				// The workaround's point: the cursor the trigger saved is still in the database after the
				// worker ran the execution (with the static data writer inline, 2.x overwrites it).
				expect(
					(await staticDataOf(STATIC_CALLER))?.['node:VisionStory Trigger']?.cursor?.talkingVideo
						?.emitted,
				).toContain(videos[0]);
				expect((await staticDataOf(STATIC_SUB))?.global?.runs).toBe(1);
			},
			10 * 60_000,
		);

		test(
			'main restarted while three videos finish: each trigger emits each of them exactly once, none missed',
			async () => {
				const { cluster } = ctx.session;
				const fresh: string[] = [];
				for (let i = 0; i < RESTART_VIDEOS; i++) {
					const answer = await callWebhook(cluster.webhookBaseUrl, WEBHOOK_PATH, {
						script: `Restart check ${i + 1}: the parcel is on its way.`,
					});
					expect(answer.status).toBe(202);
					fresh.push(answer.body.video_id);
				}
				await cluster.restartMain(async () => {
					// Main is down (stopped as an orchestrator stops it) for the whole time the videos finish.
					await waitFor(
						() =>
							fresh.every(
								(id) => ctx.emulator.tasks().find((t) => t.video_id === id)?.status === 'created',
							)
								? true
								: undefined,
						RENDER_MS + 60_000,
						'the renders to finish while main is down',
					);
				});
				ctx.log('main restarted');
				videos.push(...fresh);
				await waitFor(
					() =>
						videos.every(
							(id) => delivered(CALLBACK_PATH).includes(id) && delivered(STATIC_PATH).includes(id),
						)
							? true
							: undefined,
					3 * POLL_MS[ctx.line.id] + 60_000,
					'the videos finished during the restart at both callbacks',
					{ seen: deliveries },
				);
				await afterPolls(1);
				expectEachOnce(videos);
			},
			10 * 60_000,
		);

		test(
			`${SCALE_VIDEOS} videos finishing while main restarts: each trigger emits each of them exactly once, by id`,
			async () => {
				const { cluster } = ctx.session;
				const { emulator } = ctx;
				// Enough credits and AI concurrency for all of them at once; renders long enough that the
				// submissions and one poll of either line (2.x polls every minute) end before the first finishes.
				emulator.addAccount(emulator.apiKey, 100_000);
				const renderMs = 2 * POLL_MS[ctx.line.id] + SCALE_RENDER_MS;
				emulator.setConfig({ renderMs, aiConcurrencyCap: SCALE_VIDEOS });
				const api = async (method: string, path: string, body?: unknown) => {
					const response = await fetch(`${emulator.baseUrl}${path}`, {
						method,
						headers: { 'X-API-Key': emulator.apiKey, 'Content-Type': 'application/json' },
						body: body === undefined ? undefined : JSON.stringify(body),
					});
					if (!response.ok)
						throw new Error(
							`${method} ${path} answered ${response.status}: ${await response.text()}`,
						);
					return ((await response.json()) as { data: Record<string, any> }).data;
				};
				const model = (await api('GET', '/api/v1/ai_video/models')).models[0].model_id as string;
				const talking: string[] = [];
				const ai: string[] = [];
				for (let i = 0; i < SCALE_VIDEOS / 2; i++) {
					talking.push(
						(
							await api('POST', '/api/v1/video', {
								avatar_id: ctx.avatarId,
								text_script: {
									text: `Scale check ${i + 1}: your order shipped.`,
									voice_id: 'Alice',
								},
							})
						).video_id,
					);
					ai.push(
						(
							await api('POST', '/api/v1/ai_video', {
								model_id: model,
								prompt: `Scale check ${i + 1}: a parcel on a doorstep`,
							})
						).video_id,
					);
				}
				const scale = [...talking, ...ai];
				const finished = () =>
					scale.filter(
						(id) => emulator.tasks().find((t) => t.video_id === id)?.status === 'created',
					).length;
				ctx.log(`${scale.length} videos submitted, ${finished()} finished`);
				// The triggers see them rendering before main goes down (2.x saves that poll's static data, 1.x does not).
				await afterPolls(1);
				expect(finished()).toBeLessThan(scale.length);
				await cluster.restartMain(async () => {
					await waitFor(
						() => (finished() === scale.length ? true : undefined),
						renderMs + 120_000,
						`the ${scale.length} renders to finish while main is down`,
					);
				});
				const restarted = Date.now();
				ctx.log('main restarted; all rendered');
				const scaleAt = (path: string) => delivered(path).filter((id) => scale.includes(id));
				const progress = () =>
					JSON.stringify({
						callback: scaleAt(CALLBACK_PATH).length,
						subWorkflow: scaleAt(STATIC_PATH).length,
					});
				// Each poll hands over at most EMIT_PER_POLL; a poll of room for the activation and one to spare.
				await waitFor(
					() =>
						scaleAt(CALLBACK_PATH).length >= scale.length &&
						scaleAt(STATIC_PATH).length >= talking.length
							? true
							: undefined,
					(Math.ceil(scale.length / EMIT_PER_POLL) + 3) * POLL_MS[ctx.line.id] + 120_000,
					`the ${scale.length} videos at the callbacks`,
					{ seen: progress },
				);
				ctx.log(
					`delivered ${progress()} ${Math.round((Date.now() - restarted) / 1000)} s after main was back`,
				);
				await afterPolls(1);
				expect([...scaleAt(CALLBACK_PATH)].sort()).toEqual([...scale].sort());
				expect([...scaleAt(STATIC_PATH)].sort()).toEqual([...talking].sort());
				// Nothing from before is emitted again either.
				for (const path of [CALLBACK_PATH, STATIC_PATH])
					expect(
						delivered(path)
							.filter((id) => !scale.includes(id))
							.sort(),
					).toEqual([...videos].sort());
			},
			20 * 60_000,
		);

		afterAll(async () => {
			// Also after a failure: a trigger left active would post to the callback URL the later checks read.
			for (const id of [...toActivate].reverse())
				await ctx.session.rest.deactivate(id).catch(() => undefined);
		});
	});
}
