/**
 * The Node-RED package as users get it: `npm pack` of packages/node-red-visionstory (its `files`),
 * installed into a Node-RED user directory the way the palette manager does (`npm install <tarball>`
 * there, with its flags).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { npmEnv } from '../n8n/installSteps';
import { NODE_RED_PACKAGE_DIR } from './paths';

const run = promisify(execFile);

/** What Node-RED's palette manager passes to npm (Node-RED 4.1 and 5.0). */
const PALETTE_NPM_ARGS = [
	'--no-audit',
	'--no-update-notifier',
	'--no-fund',
	'--save',
	'--save-prefix=~',
	'--omit=dev',
	'--engine-strict',
	'--ignore-scripts',
];

export interface PackedNodeRedPackage {
	name: string;
	version: string;
	tarball: string;
	files: string[];
}

/** Needs `npm run build` first (dist/ holds the bundle and the editor files). */
export async function packNodeRedPackage(destination: string): Promise<PackedNodeRedPackage> {
	if (!existsSync(join(NODE_RED_PACKAGE_DIR, 'dist', 'visionstory.js')))
		throw new Error('packages/node-red-visionstory/dist is missing: run `npm run build` first');
	mkdirSync(destination, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: NODE_RED_PACKAGE_DIR,
		env: npmEnv(),
		maxBuffer: 16 << 20,
	});
	const [info] = JSON.parse(stdout) as Array<{
		name: string;
		version: string;
		filename: string;
		files: Array<{ path: string }>;
	}>;
	return {
		name: info.name,
		version: info.version,
		tarball: join(destination, info.filename),
		files: info.files.map((f) => f.path),
	};
}

/** Installs the tarball into the user directory with the palette manager's npm flags, on the Node it runs on. */
export async function installIntoUserDir(
	pkg: PackedNodeRedPackage,
	userDir: string,
	nodeBin: string,
): Promise<void> {
	mkdirSync(userDir, { recursive: true });
	const manifest = join(userDir, 'package.json');
	if (!existsSync(manifest))
		writeFileSync(
			manifest,
			JSON.stringify(
				{
					name: 'node-red-project',
					description: 'A Node-RED Project',
					version: '0.0.1',
					private: true,
				},
				null,
				2,
			),
		);
	await run('npm', ['install', ...PALETTE_NPM_ARGS, pkg.tarball], {
		cwd: userDir,
		env: npmEnv(nodeBin),
	});
}
