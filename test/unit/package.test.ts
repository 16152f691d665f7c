import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_PACKAGE_DIR } from '../../scripts/paths';

const root = N8N_PACKAGE_DIR;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

test('package.json meets the verified community node rules', () => {
	expect(pkg.name).toBe('n8n-nodes-visionstory');
	expect(pkg.license).toBe('MIT');
	expect(pkg.keywords).toContain('n8n-community-node-package');
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	for (const [name, version] of Object.entries(pkg.devDependencies as Record<string, string>)) {
		expect(`${name}@${version}`).toMatch(/@\d+\.\d+\.\d+$/);
	}
	expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
	expect(pkg.n8n.credentials).toEqual(['dist/credentials/VisionStoryApi.credentials.js']);
});

test('every node and credential listed in package.json is built, with its codex and icons', () => {
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[]) {
		expect(existsSync(join(root, file))).toBe(true);
		if (file.endsWith('.node.js'))
			expect(existsSync(join(root, file.replace(/\.js$/, '.json')))).toBe(true);
	}
	for (const icon of [
		'dist/icons/visionstory.svg',
		'dist/icons/visionstory.dark.svg',
		'dist/nodes/shared/api/client.js',
	]) {
		expect(existsSync(join(root, icon))).toBe(true);
	}
});

test('npm pack holds only dist, README, LICENSE and package.json', () => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	);
	const paths: string[] = packed.files.map((f: { path: string }) => f.path);
	const outside = paths.filter(
		(p) => !p.startsWith('dist/') && !['README.md', 'LICENSE.md', 'package.json'].includes(p),
	);
	expect(outside).toEqual([]);
	expect(paths).toEqual(
		expect.arrayContaining([
			'README.md',
			'LICENSE.md',
			'package.json',
			'dist/credentials/VisionStoryApi.credentials.js',
		]),
	);
	expect(paths.some((p) => p.includes('.test.') || p.startsWith('dist/test'))).toBe(false);
});
