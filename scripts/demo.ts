/**
 * The demo: the example workflows in the real n8n app (1.123.81 unless `npm run demo -- n8n2`), against
 * the VisionStory emulator, or the real service when VISIONSTORY_API_KEY is set. Every file the
 * workflows produce lands in ./out, with a summary of each step and its cost in out/SUMMARY.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type Emulator } from '../test/emulator';
import { AGENT_EXAMPLE, agentRun, OPENAI_CREDENTIAL } from '../test/support/agentScript';
import { startScriptedOpenAi, type ScriptedOpenAi } from '../test/support/scriptedOpenAi';
import { reportRun } from './demo/steps';
import { renderSummary, type DemoSummary, type ExampleReport } from './demo/summary';
import { runWebhookPair } from './demo/webhookPair';
import { startCallbackServer } from './n8n/callbackServer';
import { repoRoot } from './n8n/installSteps';
import { N8nRest } from './n8n/rest';
import { prepareSession, type N8nSession } from './n8n/session';
import { lineFromArg } from './n8n/versions';

const STORY_ORDER = [
	'script-to-talking-video',
	'csv-to-personalized-talking-videos',
	'image-to-avatar-to-talking-video',
	'product-photo-to-ai-video',
	'text-to-speech-subtitles',
	'long-script-to-voice-over-and-captions',
	'media-to-structured-json',
];
const DEFAULT_BASE_URL = 'https://openapi.visionstory.ai';

function log(line: string): void {
	console.log(line);
}

function manualExamples(session: N8nSession): string[] {
	const manual = Object.keys(session.examples).filter((key) =>
		session.examples[key].nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger'),
	);
	return [
		...STORY_ORDER.filter((k) => manual.includes(k)),
		...manual.filter((k) => !STORY_ORDER.includes(k)),
	];
}

async function main(): Promise<void> {
	const line = lineFromArg(process.argv[2] ?? 'n8n1');
	const realKey = process.env.VISIONSTORY_API_KEY?.trim();
	const emulator: Emulator | undefined = realKey
		? undefined
		: await startEmulator({ renderMs: 3000 });
	const service = realKey
		? { apiKey: realKey, baseUrl: process.env.VISIONSTORY_API_BASE?.trim() || DEFAULT_BASE_URL }
		: { apiKey: emulator!.apiKey, baseUrl: emulator!.baseUrl };
	const serviceName = realKey
		? `the VisionStory service at ${service.baseUrl}`
		: `the VisionStory emulator at ${service.baseUrl}`;
	// DEMO_OUT_DIR: where the test of this demo collects what it made.
	const outDir = process.env.DEMO_OUT_DIR?.trim() || join(repoRoot(), 'out');
	rmSync(outDir, { recursive: true, force: true });
	mkdirSync(outDir, { recursive: true });
	const callback = await startCallbackServer();
	let session: N8nSession | undefined;
	let model: ScriptedOpenAi | undefined;
	try {
		log(
			`VisionStory demo: real n8n ${line.n8n} against ${serviceName}${realKey ? ' (this spends credits on your account)' : ''}`,
		);
		session = await prepareSession({
			line,
			userFolder: join(repoRoot(), '.e2e', `demo-${line.id}`),
			service,
			callbackUrl: callback.url,
			// 1.x accepts a 10-second custom poll, so the callback comes quickly; 2.x polls every minute.
			pollCron: line.id === 'n8n1' ? '0/10 * * * * *' : undefined,
			log,
		});
		if (session.examples[AGENT_EXAMPLE]) {
			// The agent example needs a chat model: a scripted OpenAI-compatible server on loopback plays it, so no OpenAI key is needed.
			model = await startScriptedOpenAi(agentRun());
			await session.instance.importCredentials([
				{
					...OPENAI_CREDENTIAL,
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted-demo', url: model.baseUrl },
				},
			]);
			log(
				`the AI Agent's model is played by a scripted OpenAI-compatible server at ${model.baseUrl} (no OpenAI key needed)`,
			);
		}
		// One started app runs every example (warm, no cold `n8n execute` process per example, whose
		// printed run data a large 1.x output can outgrow) and then serves the webhook pair.
		const rest = new N8nRest(session.instance.baseUrl);
		await session.instance.start();
		await rest.setupOwner();
		await rest.createApiKey();
		session.instance.runThrough(rest);
		const reports: ExampleReport[] = [];
		for (const key of manualExamples(session)) {
			const workflow = session.examples[key];
			log(`\n▶ ${workflow.name}  (examples/${key}.json)`);
			const result = await session.instance.execute(
				workflow.id,
				realKey ? 45 * 60_000 : 5 * 60_000,
			);
			const steps = result.status === 'success' ? reportRun(key, workflow, result, outDir) : [];
			for (const step of steps)
				log(
					`  ${step.node}: ${step.did}${step.credits ? ` [${step.credits} credit${step.credits === 1 ? '' : 's'}]` : ''}${step.files.length ? ` → out/${step.files.join(', out/')}` : ''}`,
				);
			if (result.status !== 'success') log(`  FAILED: ${result.error}`);
			reports.push({
				example: key,
				title: workflow.name,
				status: result.status === 'success' ? 'success' : 'failed',
				seconds: result.ms / 1000,
				steps,
				error: result.status === 'success' ? undefined : result.error,
			});
		}
		log(`\n▶ Webhook start → finished-video callback (n8n start, both workflows active)`);
		try {
			reports.push(
				...(await runWebhookPair({
					session,
					rest,
					callback,
					outDir,
					renderBudgetMs: realKey ? 30 * 60_000 : 120_000,
					script: 'Thanks for your order! Your sneakers ship today.',
					log,
				})),
			);
		} catch (error) {
			log(`  FAILED: ${(error as Error).message}`);
			reports.push({
				example: 'webhook-start-talking-video',
				title: 'Webhook start → finished-video callback',
				status: 'failed',
				seconds: 0,
				steps: [],
				error: (error as Error).message,
			});
		}

		const ledger = emulator?.ledger();
		const summary: DemoSummary = {
			service: serviceName,
			n8n: line.n8n,
			examples: reports,
			ledger: ledger && {
				charged: ledger.filter((e) => e.kind === 'charge').reduce((s, e) => s + e.credits, 0),
				refunded: ledger.filter((e) => e.kind === 'refund').reduce((s, e) => s + e.credits, 0),
				balance: emulator!.balance(),
			},
		};
		const text = renderSummary(summary);
		writeFileSync(join(outDir, 'SUMMARY.md'), text);
		log(`\n${text}`);
		log(`Files and this summary are in ${outDir}`);
		if (reports.some((r) => r.status !== 'success')) process.exitCode = 1;
	} finally {
		await session?.instance.stop();
		await model?.stop();
		await callback.stop();
		await emulator?.stop();
	}
}

main().catch((error: unknown) => {
	console.error(`\nThe demo failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
});
