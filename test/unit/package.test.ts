import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { N8N_PACKAGE_DIR } from '../../scripts/paths';
import { AUTHOR_PLACEHOLDER, releaseProblems } from '../../scripts/releaseCheck';

const root = N8N_PACKAGE_DIR;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const PUBLIC_REPOSITORY = 'https://github.com/visionstory-ai/n8n-nodes-visionstory';

function walk(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
	);
}

/** npm as a user of the workspace runs it, with the package's lifecycle scripts on or off. */
function npm(args: string[], env: NodeJS.ProcessEnv = {}): { code: number; output: string } {
	try {
		const output = execFileSync('npm', args, {
			cwd: root,
			encoding: 'utf8',
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		return { code: 0, output };
	} catch (error) {
		const failed = error as { status: number; stdout: string; stderr: string };
		return { code: failed.status, output: `${failed.stdout}${failed.stderr}` };
	}
}

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
	expect(pkg.n8n.strict).toBe(true);
	expect(pkg.n8n.credentials).toEqual(['dist/credentials/VisionStoryApi.credentials.js']);
});

test('version 1.0.0 points at the public repository: repository (with the package folder), homepage, bugs', () => {
	expect(pkg.version).toBe('1.0.0');
	expect(pkg.repository).toEqual({
		type: 'git',
		url: `git+${PUBLIC_REPOSITORY}.git`,
		directory: 'packages/n8n-nodes-visionstory',
	});
	expect(pkg.homepage).toBe(PUBLIC_REPOSITORY);
	expect(pkg.bugs).toEqual({ url: `${PUBLIC_REPOSITORY}/issues` });
	// The provenance check npm makes at publish time: repository.url must be the publishing repository.
	expect(releaseProblems(pkg, 'v1.0.0', 'visionstory-ai/n8n-nodes-visionstory')).toEqual([
		expect.stringContaining('author is the placeholder'),
	]);
});

test('the release check refuses the author placeholder, a tag of another version and another repository', () => {
	const ready = {
		...pkg,
		author: { name: 'Jane Publisher', email: 'jane@visionstory.example' },
	};
	expect(releaseProblems(ready, 'v1.0.0', 'visionstory-ai/n8n-nodes-visionstory')).toEqual([]);
	expect(JSON.stringify(pkg.author)).toContain(AUTHOR_PLACEHOLDER);
	expect(releaseProblems(ready, 'v1.0.1', 'visionstory-ai/n8n-nodes-visionstory')).toEqual([
		'the tag "v1.0.1" does not name package.json\'s version (v1.0.0)',
	]);
	expect(releaseProblems(ready, 'v1.0.0', 'someone/fork')).toEqual([
		expect.stringContaining('provenance needs git+https://github.com/someone/fork.git'),
	]);
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

test('the packed tarball holds what n8n loads and nothing else: no screenshots, emulator media, tests or sources', () => {
	const destination = mkdtempSync(join(tmpdir(), 'vs-pack-'));
	try {
		const packed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination]);
		expect(packed.code).toBe(0);
		const [{ filename }] = JSON.parse(packed.output) as Array<{ filename: string }>;
		// What a user downloads, read from the tarball itself.
		const listing = execFileSync('tar', ['-tzf', join(destination, filename)], { encoding: 'utf8' })
			.trim()
			.split('\n')
			.map((path) => path.replace(/^package\//, ''))
			.sort();

		// Each TypeScript source compiles to its module, source map and type declarations; the codex
		// files and icons are copied beside them.
		const sources = ['nodes', 'credentials'].flatMap((dir) =>
			walk(join(root, dir)).map((file) => relative(root, file)),
		);
		const expected = [
			'LICENSE.md',
			'README.md',
			'package.json',
			...sources
				.filter((file) => file.endsWith('.ts'))
				.flatMap((file) => {
					const base = `dist/${file.replace(/\.ts$/, '')}`;
					return [`${base}.js`, `${base}.js.map`, `${base}.d.ts`];
				}),
			...sources.filter((file) => file.endsWith('.node.json')).map((file) => `dist/${file}`),
			...readdirSync(join(root, 'icons')).map((icon) => `dist/icons/${icon}`),
		].sort();
		expect(listing).toEqual(expected);
		expect(sources.filter((file) => !/\.(ts|node\.json)$/.test(file))).toEqual([]);
		expect(listing.filter((path) => /\.(png|jpe?g|mp3|mp4|wav|test\.js)$/.test(path))).toEqual([]);
	} finally {
		rmSync(destination, { recursive: true, force: true });
	}
});

test('a bare `npm publish` is refused by the prepublishOnly guard once scripts run; a release (RELEASE_MODE) passes it', () => {
	// .npmrc turns scripts off, so the publish workflow turns them back on to run the guard (CONTRIBUTING.md).
	expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
	const refused = npm(['publish', '--dry-run', '--ignore-scripts=false'], { RELEASE_MODE: '' });
	expect(refused.code).not.toBe(0);
	expect(refused.output).toContain('Run `npm run release` to publish the package');
	const release = npm(['publish', '--dry-run', '--ignore-scripts=false'], {
		RELEASE_MODE: 'true',
	});
	expect({ code: release.code, tail: release.code ? release.output.slice(-1500) : '' }).toEqual({
		code: 0,
		tail: '',
	});
});
