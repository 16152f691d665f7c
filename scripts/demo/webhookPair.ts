/**
 * The webhook pair in the demo: `n8n start`, both workflows activated, the webhook called once, and
 * the finished video awaited at the callback URL (a local server standing in for the user's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CallbackServer } from '../n8n/callbackServer';
import { type N8nRest, callWebhook } from '../n8n/rest';
import type { N8nSession } from '../n8n/session';
import type { ExampleReport } from './summary';

export interface WebhookPairOptions {
	session: N8nSession;
	/** The started app's owner, logged in with an API key. */
	rest: N8nRest;
	callback: CallbackServer;
	outDir: string;
	/** How long a render may take before the demo stops waiting for the callback. */
	renderBudgetMs: number;
	script: string;
	log: (line: string) => void;
}

const WEBHOOK = 'webhook-start-talking-video';
const CALLBACK = 'finished-video-callback';

export async function runWebhookPair(options: WebhookPairOptions): Promise<ExampleReport[]> {
	const { session, rest, callback, outDir, log } = options;
	const webhookFlow = session.examples[WEBHOOK];
	const callbackFlow = session.examples[CALLBACK];
	await rest.activate(callbackFlow.id);
	// The trigger's first poll only records where the list stands; let it happen before anything renders.
	await new Promise((r) => setTimeout(r, 3000));
	await rest.activate(webhookFlow.id);
	log(`  activated "${callbackFlow.name}" and "${webhookFlow.name}"`);

	const path = webhookFlow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')?.parameters
		.path as string;
	const started = Date.now();
	const answer = await callWebhook(session.instance.baseUrl, path, { script: options.script });
	if (answer.status !== 202 || typeof answer.body?.video_id !== 'string')
		throw new Error(`the webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	const videoId = answer.body.video_id as string;
	log(
		`  POST /webhook/${path} answered ${answer.status} in ${answer.ms} ms: ${JSON.stringify(answer.body)}`,
	);
	mkdirSync(join(outDir, WEBHOOK), { recursive: true });
	writeFileSync(join(outDir, WEBHOOK, 'answer.json'), JSON.stringify(answer.body, null, 2));
	const webhookReport: ExampleReport = {
		example: WEBHOOK,
		title: webhookFlow.name,
		status: 'success',
		seconds: answer.ms / 1000,
		steps: [
			{
				node: 'Webhook',
				did: `received the script; answered HTTP ${answer.status} after ${answer.ms} ms`,
				credits: 0,
				files: [`${WEBHOOK}/answer.json`],
			},
			// Its cost is known once the video is done: the callback carries it.
			{
				node: 'Start Talking Video',
				did: `started talking video ${videoId} and went on without waiting for it`,
				credits: 0,
				files: [],
			},
		],
	};

	log(`  waiting for the trigger to report ${videoId} at the callback URL…`);
	const request = await callback.waitForMatch(
		(r) => (r.body as { video_id?: string } | undefined)?.video_id === videoId,
		options.renderBudgetMs,
	);
	const seconds = (request.at - started) / 1000;
	mkdirSync(join(outDir, CALLBACK), { recursive: true });
	writeFileSync(join(outDir, CALLBACK, 'callback.json'), JSON.stringify(request.body, null, 2));
	log(
		`  the callback URL received ${JSON.stringify(request.body)} ${seconds.toFixed(1)} s after the webhook call`,
	);
	webhookReport.steps[1].credits = Number(
		(request.body as { cost_credit?: number }).cost_credit ?? 0,
	);
	await session.instance.stop();
	return [
		webhookReport,
		{
			example: CALLBACK,
			title: callbackFlow.name,
			status: 'success',
			seconds,
			steps: [
				{
					node: 'VisionStory Trigger',
					did: `saw ${videoId} finish (${(request.body as { status?: string }).status})`,
					credits: 0,
					files: [],
				},
				{
					node: 'POST To Callback URL',
					did: `POSTed the finished video to the callback URL`,
					credits: 0,
					files: [`${CALLBACK}/callback.json`],
				},
			],
		},
	];
}
