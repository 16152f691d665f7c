/**
 * The examples once more with the emulator in drift mode (test/emulator/drift.ts): unknown fields
 * everywhere, other shapes for what the contract leaves open, odd model entries, the unknown status
 * `moderating` before the real one, result links without an extension served as octet-stream.
 * Each must still run to success with the outputs a user relies on.
 */
import { callWebhook } from '../../scripts/n8n/rest';
import { describeAgentChecks } from './agentChecks';
import { describeExampleChecks } from './exampleChecks';
import { describeMcpChecks } from './mcpChecks';
import { fetchBytes, sniff } from './media';
import type { SuiteContext } from './realN8n';

const RENDER_MS = 8000;
// 1.x polls every 10 s in the test; 2.x polls once a minute at the earliest.
const POLL_BUDGET_MS: Record<string, number> = { n8n1: 40_000, n8n2: 150_000 };

function driftOn(ctx: SuiteContext): void {
	beforeAll(() => ctx.emulator.setConfig({ drift: true }));
	afterAll(() => ctx.emulator.setConfig({ drift: false }));
}

/** The examples run manually (the manual ones and the agent), under drift. */
export function describeDriftExamples(ctx: SuiteContext): void {
	describe('with the emulator in drift mode', () => {
		driftOn(ctx);
		describeExampleChecks(ctx, 'manual examples run from the editor API, under drift');
		describeAgentChecks(ctx);
	});
}

/** The examples served by the running app, under drift: the webhook pair and the MCP server. */
export function describeDriftServed(ctx: SuiteContext): void {
	describe('served examples, under drift', () => {
		driftOn(ctx);
		describeMcpChecks(ctx, 'drift');

		test(
			'webhook-start-talking-video answers 202 with the id; finished-video-callback posts the finished video to the callback once',
			async () => {
				const webhook = ctx.session.examples['webhook-start-talking-video'];
				const callback = ctx.session.examples['finished-video-callback'];
				// Active already when the earlier checks ran; activating again is harmless.
				for (const workflow of [callback, webhook])
					expect(await ctx.rest.activate(workflow.id)).toMatchObject({ active: true });
				ctx.emulator.setConfig({ renderMs: RENDER_MS });
				const received = ctx.callback.received.length;
				const path = webhook.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!.parameters
					.path;
				const answer = await callWebhook(ctx.session.instance.baseUrl, path, {
					script: 'Drift check: the service answers in other shapes.',
				});
				expect(answer).toMatchObject({
					status: 202,
					body: { video_id: expect.stringMatching(/^vid_/), status: 'rendering' },
				});
				const videoId = answer.body.video_id as string;

				const posted = await ctx.callback.waitForMatch(
					(r) => (r.body as { video_id?: string } | undefined)?.video_id === videoId,
					POLL_BUDGET_MS[ctx.line.id] + RENDER_MS + 5000,
				);
				expect(posted.body).toMatchObject({
					event: 'visionstory.video.created',
					kind: 'talkingVideo',
					video_id: videoId,
					status: 'created',
					cost_credit: 10,
				});
				expect(sniff(await fetchBytes((posted.body as { video_url: string }).video_url))).toBe(
					'mp4',
				);
				// Once: wait through the next poll and look again.
				const lists = () => ctx.emulator.requests({ method: 'GET', path: '/api/v1/videos' }).length;
				const before = lists();
				const deadline = Date.now() + POLL_BUDGET_MS[ctx.line.id];
				while (lists() === before && Date.now() < deadline)
					await new Promise((r) => setTimeout(r, 250));
				await new Promise((r) => setTimeout(r, 3000));
				expect(
					ctx.callback.received
						.slice(received)
						.filter((r) => (r.body as { video_id?: string } | undefined)?.video_id === videoId),
				).toHaveLength(1);
			},
			5 * 60_000,
		);

		test(
			'webhook-talking-video-wait-loop answers 202 with the id, waits, checks the status until finished and posts the video once',
			async () => {
				const loop = ctx.session.examples['webhook-talking-video-wait-loop'];
				// The trigger example posts finished videos to the same callback URL: only the loop's post counts here.
				await ctx.rest.deactivate(ctx.session.examples['finished-video-callback'].id);
				expect(await ctx.rest.activate(loop.id)).toMatchObject({ active: true });
				ctx.emulator.setConfig({ renderMs: RENDER_MS });
				const path = loop.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!.parameters.path;
				const answer = await callWebhook(ctx.session.instance.baseUrl, path, {
					script: 'Drift check of the waiting loop.',
				});
				expect(answer).toMatchObject({
					status: 202,
					body: { video_id: expect.stringMatching(/^vid_/), status: 'rendering' },
				});
				const videoId = answer.body.video_id as string;
				// The example waits 2 minutes before its first check.
				const posted = await ctx.callback.waitForMatch(
					(r) => (r.body as { video_id?: string } | undefined)?.video_id === videoId,
					4 * 60_000,
				);
				expect(posted.body).toMatchObject({ video_id: videoId, status: 'created' });
				// The callback is the last node: the execution is saved as finished a moment later.
				let statuses: string[] = [];
				for (let i = 0; i < 60 && statuses.join() !== 'success'; i++) {
					statuses = (await ctx.rest.executions(loop.id)).map((e) => e.status);
					if (statuses.join() !== 'success') await new Promise((r) => setTimeout(r, 500));
				}
				expect(statuses).toEqual(['success']);
				await ctx.rest.deactivate(loop.id);
			},
			6 * 60_000,
		);
	});
}
