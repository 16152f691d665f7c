/**
 * Installs each pinned Node-RED line into its own host folder under the test cache (~/.cache/visionstory-test/node-red/), with the Node.js
 * runtime it needs (the n8n suites' recipe: scripts/n8n/install.ts), scripts off. A marker written
 * after the last step makes re-runs no-ops.
 *
 *   tsx scripts/node-red/install.ts [nr4|nr5|all]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ensureNodeRuntime } from '../n8n/install';
import { npmEnv, runStep, testCacheRoot, withInstallLock } from '../n8n/installSteps';
import type { NodeRedLine } from './versions';
import { NODE_RED_LINES, nodeRedLineFromArg } from './versions';

export interface NodeRedInstall {
	line: NodeRedLine;
	dir: string;
	nodeBin: string;
	/** Node-RED's entry, run as `nodeBin redJs ...`. */
	redJs: string;
}

type Log = (line: string) => void;

/** Beside the n8n installs, outside the clone (VISIONSTORY_TEST_CACHE moves both). */
export function nodeRedCacheRoot(): string {
	return join(testCacheRoot(), 'node-red');
}

export async function ensureNodeRed(
	line: NodeRedLine,
	log: Log = console.log,
): Promise<NodeRedInstall> {
	const nodeBin = await ensureNodeRuntime(
		{ n8n: `(Node-RED ${line.nodeRed})`, node: line.node, systemNodeMajors: line.systemNodeMajors },
		log,
	);
	const dir = join(nodeRedCacheRoot(), `node-red-${line.nodeRed}`);
	const redJs = join(dir, 'node_modules', 'node-red', 'red.js');
	const manifest = JSON.stringify(
		{
			name: `node-red-host-${line.nodeRed.replace(/\./g, '-')}`,
			private: true,
			description:
				'Private host folder for the Node-RED end-to-end tests; written by scripts/node-red/install.ts',
			dependencies: { 'node-red': line.nodeRed },
		},
		null,
		2,
	);
	const marker = join(dir, '.complete');
	const done = () => existsSync(marker) && readFileSync(marker, 'utf8') === manifest;
	if (done()) return { line, dir, nodeBin, redJs };
	await withInstallLock(dir, async () => {
		if (done()) return;
		const started = Date.now();
		mkdirSync(dir, { recursive: true });
		rmSync(marker, { force: true });
		writeFileSync(join(dir, 'package.json'), manifest);
		await runStep(
			log,
			`Node-RED ${line.nodeRed}: npm install (about a minute)`,
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund'],
			{ cwd: dir, env: npmEnv(nodeBin) },
		);
		await runStep(
			log,
			`Node-RED ${line.nodeRed}: load it`,
			nodeBin,
			['-e', "require('node-red')"],
			{
				cwd: dir,
				env: npmEnv(nodeBin),
			},
		);
		writeFileSync(marker, manifest);
		log(
			`Node-RED ${line.nodeRed}: installed in ${Math.round((Date.now() - started) / 1000)} s at ${dir}`,
		);
	});
	return { line, dir, nodeBin, redJs };
}

async function main(): Promise<void> {
	const arg = process.argv[2] ?? 'all';
	const lines = arg === 'all' ? Object.values(NODE_RED_LINES) : [nodeRedLineFromArg(arg)];
	for (const line of lines) {
		const started = Date.now();
		const install = await ensureNodeRed(line);
		console.log(
			`Node-RED ${line.nodeRed} ready (${Math.round((Date.now() - started) / 1000)} s): ${install.dir}`,
		);
	}
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(
			`\nNode-RED install FAILED: ${error instanceof Error ? error.message : String(error)}`,
		);
		process.exit(1);
	});
}
