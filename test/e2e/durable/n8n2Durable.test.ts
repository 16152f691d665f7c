/**
 * The trigger on n8n 2.x's durable poll scheduler in regular mode: one n8n process on SQLite, the
 * four scheduler settings on (durableN8n.ts), the callback workflow with Download Result on.
 */
import { join } from 'node:path';

import { startCallbackServer } from '../../../scripts/n8n/callbackServer';
import { repoRoot } from '../../../scripts/n8n/installSteps';
import { N8nRest } from '../../../scripts/n8n/rest';
import { prepareSession } from '../../../scripts/n8n/session';
import { N8N_LINES } from '../../../scripts/n8n/versions';
import { startEmulator } from '../../emulator';
import { describeDurableTrigger, mainRestarts, type DurableContext } from './durableChecks';
import { DURABLE_ENV, durableTriggerWorkflow } from './durableN8n';

const line = N8N_LINES.n8n2;

describe(`real n8n ${line.n8n}, durable poll scheduler, regular mode`, () => {
	const ctx = { line } as DurableContext;
	let session: Awaited<ReturnType<typeof prepareSession>> | undefined;
	const started = Date.now();

	beforeAll(async () => {
		ctx.log = (text) =>
			process.stderr.write(
				`[durable ${line.id} +${Math.round((Date.now() - started) / 1000)} s] ${text}\n`,
			);
		ctx.emulator = await startEmulator({ renderMs: 2000 });
		ctx.callback = await startCallbackServer();
		session = await prepareSession({
			line,
			userFolder: join(repoRoot(), '.e2e', `durable-${line.id}`),
			service: { apiKey: ctx.emulator.apiKey, baseUrl: ctx.emulator.baseUrl },
			callbackUrl: ctx.callback.url,
			env: DURABLE_ENV,
			log: ctx.log,
		});
		const { instance } = session;
		ctx.workflow = durableTriggerWorkflow(ctx.callback.url);
		await instance.importWorkflows([ctx.workflow]);
		await instance.start();
		ctx.rest = new N8nRest(instance.baseUrl);
		await ctx.rest.setupOwner();
		await ctx.rest.createApiKey();
		Object.assign(
			ctx,
			mainRestarts(instance, async (whileDown) => {
				await instance.stop();
				await whileDown();
				await instance.start();
			}),
		);
		ctx.log('n8n started');
	}, 15 * 60_000);

	afterAll(async () => {
		await session?.instance.stop();
		await ctx.callback?.stop();
		await ctx.emulator?.stop();
	});

	describeDurableTrigger(ctx);
});
