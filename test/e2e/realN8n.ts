/**
 * The examples in the real n8n app: the packed package installed as a community package, the
 * emulator as the VisionStory service, every example run, its outputs and the charges asserted.
 * One started app (`n8n start`) serves every check of a line: the manual runs go through it as the
 * editor's Execute Workflow does, so no run waits for a cold n8n process.
 */
import { join } from 'node:path';

import { repoRoot } from '../../scripts/n8n/installSteps';
import { startCallbackServer, type CallbackServer } from '../../scripts/n8n/callbackServer';
import type { ExecutionResult } from '../../scripts/n8n/runData';
import { N8nRest } from '../../scripts/n8n/rest';
import { prepareSession, type N8nSession } from '../../scripts/n8n/session';
import type { N8nLine } from '../../scripts/n8n/versions';
import {
	startEmulator,
	type Emulator,
	type LedgerEntry,
	type RequestLogEntry,
	type TaskRecord,
} from '../emulator';
import { describeAgentChecks } from './agentChecks';
import { describeDriftExamples, describeDriftServed } from './driftChecks';
import { describeErrorModeChecks } from './errorModeChecks';
import { describeMcpChecks } from './mcpChecks';
import { describeExampleChecks } from './exampleChecks';
import { describePackageLoading } from './packageChecks';
import { describeLargeCsvCheck } from './scaleChecks';
import { describeWebhookAndTrigger } from './webhookTriggerChecks';

/** What one manual example run produced, with what the service saw during it. */
export interface ExampleRun {
	result: ExecutionResult;
	charges: LedgerEntry[];
	newTasks: TaskRecord[];
	/** The API requests the service answered during the run, in the order it answered them. */
	requests: RequestLogEntry[];
}

export interface SuiteContext {
	line: N8nLine;
	emulator: Emulator;
	session: N8nSession;
	callback: CallbackServer;
	rest: N8nRest;
	runExample(key: string): Promise<ExampleRun>;
}

// 1.123 accepts a seconds field in a custom Poll Times cron; 2.x refuses anything under a minute.
const FAST_POLL_CRON: Partial<Record<N8nLine['id'], string>> = { n8n1: '0/10 * * * * *' };

const SETUP_TIMEOUT_MS = 20 * 60_000;
const MANUAL_RUNS = "manual examples, run through the started app (the editor's Execute Workflow)";

export function describeRealN8n(line: N8nLine): void {
	describe(`real n8n ${line.n8n}`, () => {
		const ctx = {} as SuiteContext;

		beforeAll(async () => {
			ctx.line = line;
			ctx.emulator = await startEmulator({ renderMs: 2000 });
			ctx.callback = await startCallbackServer();
			ctx.session = await prepareSession({
				line,
				userFolder: join(repoRoot(), '.e2e', `test-${line.id}`),
				service: { apiKey: ctx.emulator.apiKey, baseUrl: ctx.emulator.baseUrl },
				callbackUrl: ctx.callback.url,
				pollCron: FAST_POLL_CRON[line.id],
			});
			ctx.rest = new N8nRest(ctx.session.instance.baseUrl);
			await ctx.session.instance.start();
			await ctx.rest.setupOwner();
			await ctx.rest.createApiKey();
			ctx.session.instance.runThrough(ctx.rest);
			ctx.runExample = async (key) => {
				const workflow = ctx.session.examples[key];
				if (!workflow) throw new Error(`no example "${key}"`);
				const ledgerBefore = ctx.emulator.ledger().length;
				const tasksBefore = new Set(ctx.emulator.tasks().map((t) => t.video_id));
				const lastRequest = ctx.emulator.requests().at(-1)?.seq ?? 0;
				const result = await ctx.session.instance.execute(workflow.id);
				if (result.status !== 'success') {
					throw new Error(
						`n8n ${line.n8n}: ${key} ended "${result.status}": ${result.error ?? ''}\n${result.log.split('\n').slice(-30).join('\n')}`,
					);
				}
				return {
					result,
					charges: ctx.emulator.ledger().slice(ledgerBefore),
					newTasks: ctx.emulator.tasks().filter((t) => !tasksBefore.has(t.video_id)),
					requests: ctx.emulator.requests({ origin: 'api' }).filter((r) => r.seq > lastRequest),
				};
			};
		}, SETUP_TIMEOUT_MS);

		afterAll(async () => {
			await ctx.session?.instance.stop();
			await ctx.callback?.stop();
			await ctx.emulator?.stop();
		});

		describeExampleChecks(ctx, MANUAL_RUNS);
		if (line.id === 'n8n2') describeLargeCsvCheck(ctx);
		describeErrorModeChecks(ctx);
		describeAgentChecks(ctx);
		describeDriftExamples(ctx);

		describe('served by `n8n start`', () => {
			describePackageLoading(ctx);
			describeWebhookAndTrigger(ctx);
			describeMcpChecks(ctx);
			describeDriftServed(ctx);
		});
	});
}
