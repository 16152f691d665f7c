/**
 * npm run dev: the real n8n editor on http://127.0.0.1:5678 with the built package installed as a
 * community package, a sandbox credential pointing at an emulator started here, and every example
 * imported. The user folder is fresh on every start. Ctrl-C stops everything.
 */
import { join } from 'node:path';

import { startEmulator } from '../test/emulator';
import { startCallbackServer } from './n8n/callbackServer';
import { repoRoot } from './n8n/installSteps';
import { freePort, isListening } from './n8n/ports';
import { N8nRest, TEST_OWNER } from './n8n/rest';
import { prepareSession } from './n8n/session';
import { lineFromArg } from './n8n/versions';

const EDITOR_PORT = 5678;

async function main(): Promise<void> {
	const line = lineFromArg(process.argv[2] ?? 'n8n1');
	if (await isListening(EDITOR_PORT))
		throw new Error(`port ${EDITOR_PORT} is in use; stop whatever listens there and try again`);
	const emulator = await startEmulator({
		renderMs: 5000,
		port: (await isListening(4010)) ? await freePort() : 4010,
	});
	const callback = await startCallbackServer();
	const session = await prepareSession({
		line,
		userFolder: join(repoRoot(), '.e2e', 'dev'),
		port: EDITOR_PORT,
		service: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
		callbackUrl: callback.url,
		log: (l) => console.log(l),
	});
	let stopping = false;
	const stop = async (why: string): Promise<void> => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${why}: stopping n8n, the emulator and the callback server`);
		await session.instance.stop();
		await callback.stop();
		await emulator.stop();
		process.exit(0);
	};
	// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and an
	// unhandled second SIGINT would kill it before n8n is stopped.
	process.on('SIGINT', () => void stop('Ctrl-C'));
	process.on('SIGTERM', () => void stop('SIGTERM'));

	console.log(`starting n8n ${line.n8n}…`);
	await session.instance.start();
	await new N8nRest(session.instance.baseUrl).setupOwner();
	void session.instance.serverExited().then(() => stop('n8n exited'));
	const callbackEcho = setInterval(() => {
		for (const request of callback.received.splice(0))
			console.log(`callback URL received: ${JSON.stringify(request.body)}`);
	}, 1000);
	callbackEcho.unref();

	console.log(`
n8n ${line.n8n} editor:  http://127.0.0.1:${EDITOR_PORT}
  log in as:           ${TEST_OWNER.email}
  password:            ${TEST_OWNER.password}
  credential:          "VisionStory account" → the emulator at ${emulator.baseUrl} (sandbox key, no real credits)
  workflows:           every example in examples/, ready to run (the callback example posts to ${callback.url}, echoed here)
  emulator controls:   ${emulator.baseUrl}/__emulator/ledger, /tasks, /requests
  n8n log:             ${join(session.instance.logDir, 'server.log')}
Everything here is discarded on the next start. Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
	console.error(`npm run dev failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
