/**
 * The demo: runs workflows through n8n's engine against the VisionStory emulator (or the real
 * service when VISIONSTORY_API_KEY is set) and writes what they produced to ./out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator } from '../test/emulator';
import { createHarness } from '../test/harness';

async function main(): Promise<void> {
	const realKey = process.env.VISIONSTORY_API_KEY;
	const emulator = realKey ? undefined : await startEmulator({ renderMs: 2000 });
	const credentials = {
		visionStoryApi: realKey
			? { apiKey: realKey, baseUrl: process.env.VISIONSTORY_API_BASE ?? 'https://openapi.visionstory.ai' }
			: { apiKey: emulator!.apiKey, baseUrl: emulator!.baseUrl },
	};
	const harness = await createHarness({ binaryMode: 'filesystem' });
	const out = join(process.cwd(), 'out');
	mkdirSync(out, { recursive: true });
	try {
		console.log(`VisionStory demo against ${realKey ? 'the real service' : `the emulator at ${emulator!.baseUrl}`}`);
		const result = await harness.run('test/workflows/account.json', { credentials });
		if (result.error) throw result.error;
		const credits = result.output('Get Credits')[0].json;
		writeFileSync(join(out, 'credits.json'), JSON.stringify(credits, null, 2));
		console.log(`Credits: ${JSON.stringify(credits)} → out/credits.json`);
	} finally {
		await harness.shutdown();
		await emulator?.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
