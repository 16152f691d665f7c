/**
 * The trigger under n8n's durable poll scheduler (issue 40, item 1), one activation for every case:
 * videos made right after activation and finishing before the first scheduled poll, a talking-video
 * list read that hangs past n8n's poll timeout, a burst of more videos than one poll hands over
 * finishing while main restarts. Every video finishing after activation must reach the callback
 * exactly once, nothing from before activation, and every poll must keep within the budget n8n
 * gives it (`getPollBudgetMs`), judged by the service's request log and n8n's own log.
 */
import type { CallbackServer } from '../../../scripts/n8n/callbackServer';
import type { WorkflowJson } from '../../../scripts/n8n/examples';
import type { N8nInstance } from '../../../scripts/n8n/instance';
import { sleep, waitFor } from '../../../scripts/n8n/queue/executions';
import type { ExecutionSummary, N8nRest } from '../../../scripts/n8n/rest';
import type { N8nLine } from '../../../scripts/n8n/versions';
import type { Emulator, RequestLogEntry } from '../../emulator';
import { DURABLE_CALLBACK_PATH, pollBudgetMs, scheduledSecond, TRIGGER_NODE } from './durableN8n';

export interface DurableContext {
	line: N8nLine;
	emulator: Emulator;
	callback: CallbackServer;
	/** The owner's API of main. */
	rest: N8nRest;
	/** The trigger's workflow as imported. */
	workflow: WorkflowJson;
	/** Main stopped the way an orchestrator stops it and started again; `whileDown` runs in between. */
	restartMain(whileDown: () => Promise<void>): Promise<void>;
	/** Everything main has logged, every start of it included. */
	mainLog(): string;
	log(text: string): void;
}

/**
 * `restartMain` and `mainLog` for a main instance that `restart` stops and starts: the log of every
 * start is kept, since each start writes the server's log anew.
 */
export function mainRestarts(
	main: N8nInstance,
	restart: (whileDown: () => Promise<void>) => Promise<void>,
): Pick<DurableContext, 'restartMain' | 'mainLog'> {
	let earlier = '';
	return {
		restartMain: async (whileDown) =>
			await restart(async () => {
				earlier += main.serverLogText();
				await whileDown();
			}),
		mainLog: () => earlier + main.serverLogText(),
	};
}

const POLL_MS = 60_000;
const FAST_RENDER_MS = 2_000;
const BURST_RENDER_MS = 15_000;
/** More than one poll hands over (LIMITS.emitPerPoll, 200), with or without the talking videos a cut poll left. */
const BURST = 210;
const EMIT_PER_POLL = 200;
/** A read that hangs longer than n8n lets a poll run (N8N_SCHEDULER_POLL_TIMEOUT, 45 s). */
const HANG_MS = 60_000;
const TRIGGER_PATHS = new Set([
	'/api/v1/videos',
	'/api/v1/ai_videos',
	'/api/v1/video',
	'/api/v1/ai_video',
]);

type Kind = 'talkingVideo' | 'aiVideo';
interface Made {
	id: string;
	kind: Kind;
	fails: boolean;
}

/** One poll as the service saw it: from its first list read to the last request before the next poll. */
export interface PollSpan {
	start: number;
	end: number;
	requests: number;
}

/** The trigger's requests (list and status reads, file downloads), grouped into polls. */
export function pollSpans(requests: readonly RequestLogEntry[]): PollSpan[] {
	const mine = requests
		.filter(
			(r) =>
				r.method === 'GET' &&
				(r.origin === 'media' ? r.path.startsWith('/media/videos/') : TRIGGER_PATHS.has(r.path)),
		)
		.sort((a, b) => a.at - b.at);
	const spans: PollSpan[] = [];
	for (const request of mine) {
		// Every poll starts by reading the first page of each kind's list (its walk, or its place at
		// activation: the rendering ones, then the top); polls are a minute apart.
		const opens =
			(request.path === '/api/v1/ai_videos' || request.path === '/api/v1/videos') &&
			request.query.limit === '20' &&
			request.query.cursor === undefined;
		const last = spans.at(-1);
		if (opens && (!last || request.at - last.start > 10_000))
			spans.push({ start: request.at, end: request.at, requests: 1 });
		else if (last) {
			last.end = request.at;
			last.requests++;
		}
	}
	return spans;
}

/** Items the trigger handed to each execution. */
function handedPerExecution(executions: readonly ExecutionSummary[]): number[] {
	return executions.map(
		(e) => e.data?.resultData?.runData?.[TRIGGER_NODE]?.[0]?.data?.main?.[0]?.length ?? 0,
	);
}

function handedOver(executions: readonly ExecutionSummary[]): number {
	return handedPerExecution(executions).reduce((a, b) => a + b, 0);
}

async function untilSecond(second: number): Promise<void> {
	const now = new Date();
	const wait =
		(((second - now.getSeconds() + 60) % 60) * 1000 - now.getMilliseconds() + 60_000) % 60_000;
	await sleep(wait);
}

export function describeDurableTrigger(ctx: DurableContext): void {
	describe('the trigger under the durable poll scheduler: activation, a hanging read, a burst while main restarts', () => {
		const before: string[] = [];
		const due: Made[] = [];
		let serial = 0;
		const delivered = (): string[] =>
			ctx.callback.received
				.filter((r) => r.path === DURABLE_CALLBACK_PATH)
				.map((r) => String((r.body as { video_id?: unknown }).video_id));
		const missing = (ids: string[]) => {
			const got = new Set(delivered());
			return ids.filter((id) => !got.has(id));
		};
		const progress = () =>
			JSON.stringify({
				delivered: delivered().length,
				missing: missing(due.map((m) => m.id)).slice(0, 10),
			});
		const api = async (method: string, path: string, body?: unknown) => {
			const response = await fetch(`${ctx.emulator.baseUrl}${path}`, {
				method,
				headers: { 'X-API-Key': ctx.emulator.apiKey, 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			if (!response.ok)
				throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
			return ((await response.json()) as { data: Record<string, any> }).data;
		};
		let avatarId = '';
		let modelId = '';
		/** A video made straight at the service, as another workflow or the VisionStory app would. */
		const make = async (kind: Kind, fails = false): Promise<Made> => {
			const text = `Durable check ${++serial}${fails ? ' [fail]' : ''}`;
			const data =
				kind === 'talkingVideo'
					? await api('POST', '/api/v1/video', {
							avatar_id: avatarId,
							text_script: { text, voice_id: 'Alice' },
						})
					: await api('POST', '/api/v1/ai_video', { model_id: modelId, prompt: text });
			return { id: String(data.video_id), kind, fails };
		};
		const finished = (made: readonly Made[]) =>
			made.every((m) =>
				['created', 'failed'].includes(
					ctx.emulator.tasks().find((t) => t.video_id === m.id)?.status ?? '',
				),
			)
				? true
				: undefined;
		const pollsSince = (at: number) =>
			pollSpans(ctx.emulator.requests()).filter((span) => span.start >= at).length;

		test('activated just after its scheduled second: the activation poll records where it starts', async () => {
			ctx.emulator.addAccount(ctx.emulator.apiKey, 100_000);
			ctx.emulator.setConfig({ renderMs: FAST_RENDER_MS, aiConcurrencyCap: 1000 });
			avatarId = (await api('GET', '/api/v1/avatars?is_public=true&limit=1')).avatars[0].avatar_id;
			modelId = (await api('GET', '/api/v1/ai_video/models')).models[0].model_id;
			const old = [await make('talkingVideo'), await make('aiVideo')];
			before.push(...old.map((m) => m.id));
			await waitFor(() => finished(old), 30_000, 'the videos made before activation to finish');

			await untilSecond((scheduledSecond(ctx.workflow) + 2) % 60);
			const activatedAt = Date.now();
			expect(await ctx.rest.activate(ctx.workflow.id)).toMatchObject({ active: true });
			await waitFor(
				() => (pollsSince(activatedAt) > 0 ? true : undefined),
				30_000,
				'the activation poll',
			);
			// Its reads end well before the first scheduled poll, a minute later.
			await sleep(3000);
			ctx.log(`activated; the scheduler polls at second ${scheduledSecond(ctx.workflow)}`);
		}, 120_000);

		test(
			'videos made right after activation, finished before the first scheduled poll: each one reaches the callback, although that poll cannot read the talking videos in time',
			async () => {
				// The first scheduled poll's talking-video list read hangs past n8n's poll timeout.
				ctx.emulator.setFaults({
					failNext: [{ kind: 'slow', method: 'GET', path: '/api/v1/videos', delayMs: HANG_MS }],
				});
				const made: Made[] = [];
				for (let i = 0; i < 3; i++) {
					made.push(await make('talkingVideo'));
					made.push(await make('aiVideo', i === 2));
				}
				due.push(...made);
				await waitFor(() => finished(made), 30_000, 'the renders to finish');
				const ai = made.filter((m) => m.kind === 'aiVideo').map((m) => m.id);
				await waitFor(
					() => (missing(ai).length === 0 ? true : undefined),
					2 * POLL_MS + 30_000,
					'the AI videos made after activation at the callback',
					{ seen: progress },
				);
				// The poll that could not read the talking videos said so, and leaves them for the next.
				expect(ctx.mainLog()).toMatch(
					/VisionStory Trigger: talking videos could not be read in this poll/,
				);
			},
			4 * 60_000,
		);

		test(
			`${BURST} videos finishing while main restarts, beside the talking videos left for the next poll: each reaches the callback once, over two polls`,
			async () => {
				ctx.emulator.setConfig({ renderMs: BURST_RENDER_MS });
				const burst: Made[] = [];
				for (let i = 0; i < BURST / 2; i++) {
					burst.push(await make('talkingVideo'));
					burst.push(await make('aiVideo', i % 10 === 9));
				}
				due.push(...burst);
				ctx.log(`${burst.length} videos submitted`);
				await ctx.restartMain(async () => {
					await waitFor(
						() => finished(burst),
						BURST_RENDER_MS + 60_000,
						'the burst to finish while main is down',
					);
				});
				ctx.log('main restarted');
				await waitFor(
					() => (missing(due.map((m) => m.id)).length === 0 ? true : undefined),
					4 * POLL_MS + 60_000,
					'every video made after activation at the callback',
					{ seen: progress },
				);
				// The callbacks come while an execution runs; n8n saves its run data when it ends.
				let seen: ExecutionSummary[] = [];
				const executions = await waitFor(
					async () => {
						seen = await ctx.rest.executions(ctx.workflow.id);
						return seen.every((e) => e.status === 'success') && handedOver(seen) === due.length
							? seen
							: undefined;
					},
					60_000,
					'the executions of those polls, saved',
					{
						seen: () => JSON.stringify(seen.map((e, i) => [e.status, handedPerExecution(seen)[i]])),
					},
				);
				expect(Math.max(...handedPerExecution(executions))).toBeLessThanOrEqual(EMIT_PER_POLL);
			},
			8 * 60_000,
		);

		test(
			'exactly once: a poll later nothing came again, nothing from before activation, and each finished video came with its file',
			async () => {
				const lastDelivery = Math.max(...ctx.callback.received.map((r) => r.at));
				await waitFor(
					() => (pollsSince(lastDelivery) >= 1 ? true : undefined),
					POLL_MS + 30_000,
					'one more poll',
				);
				await sleep(10_000);
				const ids = delivered();
				expect([...ids].sort()).toEqual(due.map((m) => m.id).sort());
				for (const id of before) expect(ids).not.toContain(id);

				const items = (await ctx.rest.executions(ctx.workflow.id)).flatMap(
					(e) => e.data?.resultData?.runData?.[TRIGGER_NODE]?.[0]?.data?.main?.[0] ?? [],
				) as Array<{ json: Record<string, any>; binary?: Record<string, { mimeType?: string }> }>;
				for (const m of due) {
					const item = items.find((i) => i.json.video_id === m.id);
					expect(item?.json).toMatchObject({
						kind: m.kind,
						status: m.fails ? 'failed' : 'created',
					});
					if (m.fails) expect(item?.binary).toBeUndefined();
					else expect(item?.binary?.data?.mimeType).toBe('video/mp4');
				}
			},
			3 * 60_000,
		);

		test('every poll kept within the budget n8n gives it, and none was abandoned', () => {
			const spans = pollSpans(ctx.emulator.requests());
			ctx.log(
				`polls: ${spans.map((s) => `${Math.round((s.end - s.start) / 100) / 10} s/${s.requests}`).join(', ')}`,
			);
			expect(spans.length).toBeGreaterThanOrEqual(5);
			for (const span of spans) expect(span.end - span.start).toBeLessThanOrEqual(pollBudgetMs());
			expect(ctx.mainLog()).not.toContain('Poll exceeded its timeout');
			expect(ctx.mainLog()).not.toContain('Poll failed; backing off');
		});

		afterAll(async () => {
			await ctx.rest.deactivate(ctx.workflow.id).catch(() => undefined);
		});
	});
}
