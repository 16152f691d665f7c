/**
 * The flow library's scorecard (`node-red-dev validate`, pinned) on a package folder, offline: the
 * tool is installed once into the test cache beside Node-RED, and its look-ups of the catalogue and
 * of Node-RED on the registry are answered by scorecardStub.cjs from the pinned lines.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { npmEnv, runStep, withInstallLock } from '../n8n/installSteps';
import { nodeRedCacheRoot } from './install';
import { NODE_RED_LINES } from './versions';

export const NODE_RED_DEV = '0.1.6';

/** One check of the scorecard: P.. package, N.. nodes, D.. dependencies. */
export type Scorecard = Record<string, { test?: boolean; [key: string]: unknown }>;

export async function ensureNodeRedDev(log: (line: string) => void = console.log): Promise<string> {
	const dir = join(nodeRedCacheRoot(), `node-red-dev-${NODE_RED_DEV}`);
	const bin = join(dir, 'node_modules', 'node-red-dev', 'bin', 'run');
	const marker = join(dir, '.complete');
	if (existsSync(marker)) return bin;
	await withInstallLock(dir, async () => {
		if (existsSync(marker)) return;
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify({
				name: 'node-red-dev-host',
				private: true,
				dependencies: { 'node-red-dev': NODE_RED_DEV },
			}),
		);
		await runStep(
			log,
			`node-red-dev ${NODE_RED_DEV}: npm install`,
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund'],
			{ cwd: dir, env: npmEnv(process.execPath) },
		);
		writeFileSync(marker, NODE_RED_DEV);
	});
	return bin;
}

/** What the registry would say of Node-RED: the pinned lines as its supported tags, the newest's engines. */
function nodeRedOnTheRegistry(): unknown {
	const { nr4, nr5 } = NODE_RED_LINES;
	const installed = join(
		nodeRedCacheRoot(),
		`node-red-${nr5.nodeRed}`,
		'node_modules',
		'node-red',
		'package.json',
	);
	const engines = existsSync(installed)
		? (JSON.parse(readFileSync(installed, 'utf8')) as { engines: unknown }).engines
		: { node: `>=${nr5.node}` };
	return {
		'dist-tags': { latest: nr5.nodeRed, 'maintenance-4.x': nr4.nodeRed },
		versions: { [nr5.nodeRed]: { engines } },
	};
}

/** Runs the scorecard on an unpacked package; returns its checks (and the tool's output, for a failure). */
export async function scorecard(
	packageDir: string,
): Promise<{ checks: Scorecard; output: string }> {
	const bin = await ensureNodeRedDev(() => undefined);
	const out = join(packageDir, '..', 'scorecard.json');
	const { stdout, stderr } = await promisify(execFile)(
		process.execPath,
		['-r', join(__dirname, 'scorecardStub.cjs'), bin, 'validate', '-p', packageDir, '-o', out],
		{ env: { ...process.env, VS_SCORECARD_NODE_RED: JSON.stringify(nodeRedOnTheRegistry()) } },
	);
	const checks = JSON.parse(readFileSync(out, 'utf8')) as Scorecard;
	delete checks.package;
	return { checks, output: `${stdout}${stderr}` };
}
