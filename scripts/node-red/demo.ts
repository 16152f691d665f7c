/**
 * The demo in Node-RED: a real Node-RED (4.1 on Node 20 by default, `-- nr5` for 5.x on Node 24) with
 * the package installed from its tarball, every example flow deployed and run against the emulator
 * (or, with VISIONSTORY_API_KEY set, the real service: that costs credits). Videos land in
 * ./out/node-red; a summary per example is printed. `-- --keep` leaves the editor running.
 *
 *   npm run demo:node-red [-- nr5] [-- --keep]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type Emulator } from '../../test/emulator';
import { REPO_ROOT } from '../paths';
import { emulatorConfig, preparedExamples, resultsEndpoint } from './examples';
import { ensureNodeRed } from './install';
import { NodeRedInstance } from './instance';
import { installIntoUserDir, packNodeRedPackage } from './package';
import { nodeRedLineFromArg } from './versions';

const TIMEOUT_MS = 5 * 60_000;

function describe(value: unknown): string {
	const text = JSON.stringify(value) ?? 'null';
	return text.length > 110 ? `${text.slice(0, 107)}…` : text;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const keep = args.includes('--keep');
	const line = nodeRedLineFromArg(args.find((a) => !a.startsWith('--')) ?? 'nr4');
	const realKey = process.env.VISIONSTORY_API_KEY;
	const work = join(REPO_ROOT, '.e2e', 'node-red-demo');
	const outDir = join(REPO_ROOT, 'out', 'node-red');
	rmSync(work, { recursive: true, force: true });
	mkdirSync(outDir, { recursive: true });

	let emulator: Emulator | undefined;
	if (!realKey) emulator = await startEmulator({ renderMs: 2000 });
	const baseUrl = emulator?.baseUrl ?? 'https://openapi.visionstory.ai';
	const apiKey = realKey ?? emulator!.apiKey;
	console.log(
		realKey
			? 'VisionStory: the real service (this costs credits)'
			: `VisionStory: the emulator at ${baseUrl}`,
	);

	const install = await ensureNodeRed(line);
	const pkg = await packNodeRedPackage(join(work, 'pack'));
	const userDir = join(work, 'user');
	await installIntoUserDir(pkg, userDir, install.nodeBin);
	const red = await NodeRedInstance.create({ install, userDir, contextStore: 'localfilesystem' });
	const started = await red.start();
	console.log(
		`Node-RED ${line.nodeRed} with ${pkg.name}@${pkg.version} from its tarball, up in ${started} ms: ${red.baseUrl}`,
	);
	const examples = preparedExamples({ pollIntervalSeconds: 5, outputDir: outDir });
	await red.deploy([
		{ id: 'demo-tab', type: 'tab', label: 'demo', disabled: false, info: '' },
		...resultsEndpoint('demo-tab'),
		...examples.flows,
		emulatorConfig(baseUrl, apiKey),
	]);
	const t0 = Date.now();
	for (const id of examples.injects) await red.inject(id);
	let results: Record<string, unknown[]> = {};
	while (Date.now() - t0 < TIMEOUT_MS) {
		results = await red.json<Record<string, unknown[]>>('GET', '/vs/results');
		if (examples.outputs.every((id) => results[id]?.length || examples.optional.includes(id)))
			break;
		await new Promise((r) => setTimeout(r, 1000));
	}
	console.log(`\nEvery example, run in ${Math.round((Date.now() - t0) / 1000)} s:`);
	let failed = 0;
	for (const id of [...examples.outputs, ...examples.errors]) {
		const got = results[id] ?? [];
		const isError = examples.errors.includes(id);
		if ((isError || examples.optional.includes(id)) && got.length === 0) continue;
		if (isError || got.length === 0) failed++;
		console.log(
			`  ${isError ? '✗' : got.length ? '✓' : '…'} ${examples.exampleOf[id].replace(/\.json$/, '')} → ${id}: ${got.length ? describe(got[0]) : 'nothing yet'}`,
		);
	}
	if (emulator) {
		const charged = emulator
			.ledger()
			.reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);
		console.log(`\nCredits charged (emulator ledger): ${charged}; videos in ${outDir}`);
	}
	if (keep) {
		console.log(`\nThe editor stays open at ${red.baseUrl} (Ctrl-C to stop).`);
		await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
	}
	await red.stop();
	await emulator?.stop();
	if (failed) process.exit(1);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
