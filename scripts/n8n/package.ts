/**
 * Puts the built package into an n8n user folder the way the Community Nodes panel does: the packed
 * tarball extracted to ~/.n8n/nodes/node_modules/<name>, its package.json stripped of dev and peer
 * dependencies, then `npm install` there with the panel's flags. With no dependencies of our own,
 * `n8n-workflow` and `zod` can then only come from n8n itself (n8n puts its own module paths on NODE_PATH).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { N8N_PACKAGE_DIR } from '../paths';
import { npmEnv } from './installSteps';

const run = promisify(execFile);

// The flags n8n 1.123 and 2.40 pass to npm when the panel installs a package.
const PANEL_NPM_INSTALL_ARGS = [
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

export interface PackedPackage {
	name: string;
	version: string;
	tarball: string;
}

/** `npm pack` of the n8n package: exactly the files a user downloads (package.json `files`). Needs `npm run build` first. */
export async function packPackage(destination: string): Promise<PackedPackage> {
	const root = N8N_PACKAGE_DIR;
	if (!existsSync(join(root, 'dist', 'credentials')))
		throw new Error('dist/ is missing: run `npm run build` first');
	mkdirSync(destination, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: root,
		env: npmEnv(),
		maxBuffer: 16 << 20,
	});
	const [info] = JSON.parse(stdout) as Array<{ name: string; version: string; filename: string }>;
	return { name: info.name, version: info.version, tarball: join(destination, info.filename) };
}

/** Returns the package folder inside the user folder. */
export async function installIntoUserFolder(
	pkg: PackedPackage,
	userFolder: string,
): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', pkg.name);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', pkg.tarball, '-C', packageDir, '--strip-components=1']);
	const manifestPath = join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	await run('npm', ['install', ...PANEL_NPM_INSTALL_ARGS], { cwd: packageDir, env: npmEnv() });
	const nodesManifest = join(nodesDir, 'package.json');
	const hostManifest = existsSync(nodesManifest)
		? (JSON.parse(readFileSync(nodesManifest, 'utf8')) as { dependencies?: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} as Record<string, string> };
	hostManifest.dependencies = { ...hostManifest.dependencies, [pkg.name]: pkg.version };
	writeFileSync(nodesManifest, JSON.stringify(hostManifest, null, 2));
	return packageDir;
}
