import { startEmulator } from './index';

function intFromEnv(name: string, fallback: number | undefined): number | undefined {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0) {
		console.error(`${name} must be a non-negative integer, got "${raw}"`);
		process.exit(2);
	}
	return value;
}

async function main(): Promise<void> {
	const emulator = await startEmulator({
		port: intFromEnv('EMULATOR_PORT', 4010),
		mediaPort: intFromEnv('EMULATOR_MEDIA_PORT', 4011),
		renderMs: intFromEnv('RENDER_MS', undefined),
		aiConcurrencyCap: intFromEnv('AI_CAP', undefined),
	});
	// DRIFT=1: drift mode; DRIFT=errors: drift mode with its error bodies too.
	const drift = process.env.DRIFT ?? '';
	if (drift !== '' && drift !== '0')
		emulator.setConfig({ drift: true, driftErrors: drift === 'errors' });
	const config = emulator.config();
	console.log(`VisionStory emulator
  API:    ${emulator.baseUrl}   (set VISIONSTORY_API_BASE to this)
  media:  ${emulator.mediaBaseUrl}
  key:    ${emulator.apiKey}   (a test key for the emulator only; set VISIONSTORY_API_KEY to it)
  render: ${config.renderMs} ms (queued ${config.queueMs} ms), AI video cap ${config.aiConcurrencyCap} per key${emulator.config().drift ? `\n  drift:  on${emulator.config().driftErrors ? ', with error bodies' : ''}` : ''}
  controls: ${emulator.baseUrl}/__emulator
Press Ctrl+C to stop.`);

	const shutdown = (signal: string): void => {
		console.log(`\n${signal}: stopping the emulator`);
		emulator.stop().then(
			() => process.exit(0),
			(err: unknown) => {
				console.error(err);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', () => shutdown('SIGINT'));
	process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
	console.error('The emulator could not start:', (err as Error).message);
	process.exit(1);
});
