/**
 * The webhook pair in a running n8n: the webhook starts a render and answers at once; the activated
 * trigger sees the render finish and POSTs it to the callback URL (a local server here), once.
 */
import type { CallbackRequest } from '../../scripts/n8n/callbackServer';
import { callWebhook } from '../../scripts/n8n/rest';
import { fetchBytes, sniff } from './media';
import type { SuiteContext } from './realN8n';

const RENDER_MS = 8000;

// 1.x polls every 10 s in the test; 2.x polls once a minute at the earliest.
const POLL_BUDGET_MS: Record<string, number> = { n8n1: 40_000, n8n2: 150_000 };

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

export function describeWebhookAndTrigger(ctx: SuiteContext): void {
	describe('webhook-start-talking-video and finished-video-callback, activated', () => {
		let videoId = '';
		const lists = (): number =>
			ctx.emulator.requests({ method: 'GET', path: '/api/v1/videos' }).length;

		test("both workflows activate through the public API; the trigger's first poll runs at activation", async () => {
			const listsBefore = lists();
			expect(
				await ctx.rest.activate(ctx.session.examples['finished-video-callback'].id),
			).toMatchObject({ active: true });
			// 2.x answers before it has added the triggers; 1.x after.
			await waitUntil(() => lists() > listsBefore, 30_000, "the trigger's activation poll");
			expect(
				await ctx.rest.activate(ctx.session.examples['webhook-start-talking-video'].id),
			).toMatchObject({ active: true });
		});

		// "At once" is shown by the task still rendering when the answer arrives, not by a time limit that a loaded machine can miss.
		test('the webhook answers 202 with the video id while the video still renders', async () => {
			const webhookNode = ctx.session.examples['webhook-start-talking-video'].nodes.find(
				(n) => n.type === 'n8n-nodes-base.webhook',
			)!;
			ctx.emulator.setConfig({ renderMs: RENDER_MS });
			const tasksBefore = ctx.emulator.tasks().length;
			const ledgerBefore = ctx.emulator.ledger().length;
			const answer = await callWebhook(ctx.session.instance.baseUrl, webhookNode.parameters.path, {
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
			videoId = answer.body.video_id;
		});

		test(
			'the trigger POSTs the finished video to the callback URL exactly once',
			async () => {
				expect(videoId).not.toBe('');
				const budget = POLL_BUDGET_MS[ctx.line.id] + RENDER_MS;
				// The trigger announces every video that finishes after activation: a video an earlier
				// test left rendering comes too, so the checks are about this one, by id.
				const videoIdOf = (r: CallbackRequest) => (r.body as { video_id?: unknown }).video_id;
				const callback = await ctx.callback.waitForMatch((r) => videoIdOf(r) === videoId, budget);
				expect(callback.method).toBe('POST');
				expect(callback.contentType).toContain('application/json');
				expect(callback.body).toEqual({
					event: 'visionstory.video.created',
					kind: 'talkingVideo',
					video_id: videoId,
					status: 'created',
					video_url: expect.stringContaining(videoId),
					cost_credit: 10,
				});
				expect(sniff(await fetchBytes((callback.body as { video_url: string }).video_url))).toBe(
					'mp4',
				);
				expect(ctx.emulator.tasks().find((t) => t.video_id === videoId)?.status).toBe('created');

				// Exactly once: let the next poll run to its end; this video may not come again.
				const listsAtCallback = lists();
				await waitUntil(
					() => lists() > listsAtCallback,
					POLL_BUDGET_MS[ctx.line.id],
					'the next poll',
				);
				await new Promise((r) => setTimeout(r, 3000));
				const announced = ctx.callback.received.map(videoIdOf);
				expect(announced.filter((id) => id === videoId)).toHaveLength(1);
				expect(new Set(announced).size).toBe(announced.length);

				const triggerRuns = await ctx.rest.executions(
					ctx.session.examples['finished-video-callback'].id,
				);
				// One poll's videos come in one execution: as many executions as polls that found some.
				expect(triggerRuns.length).toBeGreaterThanOrEqual(1);
				expect(triggerRuns.length).toBeLessThanOrEqual(announced.length);
				expect(triggerRuns.filter((e) => e.status !== 'success')).toEqual([]);
				const webhookRuns = await ctx.rest.executions(
					ctx.session.examples['webhook-start-talking-video'].id,
				);
				expect(webhookRuns.map((e) => e.status)).toEqual(['success']);
			},
			5 * 60_000,
		);
	});
}
