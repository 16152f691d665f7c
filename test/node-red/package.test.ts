/**
 * The package as published: the flow library's scorecard checks that can run offline, and what the
 * packed tarball holds (no test code, no n8n code), and that the shared client is not copied.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { packNodeRedPackage, type PackedNodeRedPackage } from '../../scripts/node-red/package';
import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { NODE_RED_LINES } from '../../scripts/node-red/versions';
import { REPO_ROOT } from '../../scripts/paths';
import { exampleFiles, readExample } from '../../scripts/node-red/examples';
import { TAG_PREFIX, releaseProblems } from '../../scripts/releaseCheck';

interface Manifest {
	name: string;
	license: string;
	keywords: string[];
	repository?: { url?: string };
	engines?: { node?: string };
	dependencies?: Record<string, string>;
	'node-red': { version: string; nodes: Record<string, string> };
}

const manifest = JSON.parse(
	readFileSync(join(NODE_RED_PACKAGE_DIR, 'package.json'), 'utf8'),
) as Manifest;
let pkg: PackedNodeRedPackage;
let unpacked: string;

beforeAll(async () => {
	const dir = mkdtempSync(join(tmpdir(), 'vs-nr-pack-'));
	pkg = await packNodeRedPackage(dir);
	unpacked = join(dir, 'unpacked');
	execFileSync('mkdir', ['-p', unpacked]);
	execFileSync('tar', ['-xzf', pkg.tarball, '-C', unpacked, '--strip-components=1']);
});

describe("the flow library's scorecard (offline checks)", () => {
	it('has an MIT licence with its file, a repository, a scoped name and the node-red keyword', () => {
		expect(manifest.license).toBe('MIT');
		expect(pkg.files).toContain('LICENSE');
		expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\//);
		expect(manifest.name).toMatch(/^@[a-z0-9-]+\/node-red-/);
		expect(manifest.keywords).toContain('node-red');
		expect(manifest.engines?.node).toBeDefined();
	});

	it('declares the Node-RED versions it is tested on, and every node set with its editor file', () => {
		const minimum = manifest['node-red'].version.replace(/^>=/, '');
		for (const line of Object.values(NODE_RED_LINES))
			expect(
				line.nodeRed.localeCompare(minimum, undefined, { numeric: true }),
			).toBeGreaterThanOrEqual(0);
		for (const file of Object.values(manifest['node-red'].nodes)) {
			expect(pkg.files).toContain(file);
			expect(pkg.files).toContain(file.replace(/\.js$/, '.html'));
		}
	});

	it('registers each node type once, under the names the node-red section gives', () => {
		const registered = Object.values(manifest['node-red'].nodes).flatMap((file) =>
			[
				...readFileSync(join(unpacked, file.replace(/\.js$/, '.html')), 'utf8').matchAll(
					/RED\.nodes\.registerType\(\s*["']([^"']+)["']/g,
				),
			].map((m) => m[1]),
		);
		expect(new Set(registered).size).toBe(registered.length);
		expect(registered.sort()).toEqual(Object.keys(manifest['node-red'].nodes).sort());
		for (const type of registered) expect(type).toMatch(/^visionstory-/);
	});

	it('uses every node in an example flow, and the examples are in the package', () => {
		const used = new Set(exampleFiles().flatMap((file) => readExample(file).map((n) => n.type)));
		for (const type of Object.keys(manifest['node-red'].nodes))
			expect({ type, used: used.has(type) }).toEqual({ type, used: true });
		for (const file of exampleFiles()) expect(pkg.files).toContain(`examples/${file}`);
	});

	it('has a README that says how to install from the palette manager and npm, and shows a flow', () => {
		expect(pkg.files).toContain('README.md');
		const readme = readFileSync(join(unpacked, 'README.md'), 'utf8');
		expect(readme).toMatch(/Manage palette/);
		expect(readme).toContain(`npm install ${manifest.name}`);
		const flow = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
		const nodes = JSON.parse(flow ?? '[]') as Array<{ type: string }>;
		expect(nodes.map((n) => n.type)).toEqual(
			expect.arrayContaining(['visionstory-talking-video', 'visionstory-config']),
		);
	});

	it('has no runtime dependencies (the client and zod are bundled)', () => {
		expect(Object.keys(manifest.dependencies ?? {})).toHaveLength(0);
	});

	it('ships icons for every node in Node-RED style (SVG, 40×60, white)', () => {
		const icons = pkg.files.filter((f) => f.startsWith('dist/icons/'));
		expect(icons).toHaveLength(Object.keys(manifest['node-red'].nodes).length - 1);
		for (const icon of icons)
			expect(readFileSync(join(unpacked, icon), 'utf8')).toMatch(
				/viewBox="0 0 40 60".*fill="#fff"/s,
			);
	});
});

describe('the tarball', () => {
	it('holds the built nodes, examples, README and licence only: no test code, no sources', () => {
		for (const file of pkg.files)
			expect(file).toMatch(
				/^(dist\/|examples\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/,
			);
		expect(pkg.files.filter((f) => /test|emulator|\.ts$/.test(f))).toEqual([]);
	});

	it('holds no n8n code', () => {
		const bundle = readFileSync(join(unpacked, 'dist', 'visionstory.js'), 'utf8');
		for (const n8n of [
			'n8n-workflow',
			'n8n-core',
			'NodeApiError',
			'NodeOperationError',
			'httpRequestWithAuthentication',
			'INodeType',
		])
			expect({ n8n, found: bundle.includes(n8n) }).toEqual({ n8n, found: false });
	});

	it('does not copy the shared client into the repository a second time', () => {
		const apiDir = 'packages/n8n-nodes-visionstory/nodes/shared/api/';
		const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
			cwd: REPO_ROOT,
			encoding: 'utf8',
		})
			.split('\n')
			.filter((f) => f.endsWith('.ts'));
		const hash = (f: string) =>
			createHash('sha256')
				.update(readFileSync(join(REPO_ROOT, f)))
				.digest('hex');
		const shared = new Set(files.filter((f) => f.startsWith(apiDir)).map(hash));
		expect(shared.size).toBeGreaterThan(10);
		const copies = files.filter((f) => !f.startsWith(apiDir) && shared.has(hash(f)));
		expect(copies).toEqual([]);
	});
});

describe('the release', () => {
	it('is 1.1.0 with its changelog entry, released by its own tag (node-red-v1.1.0)', () => {
		const version = (manifest as { version?: string }).version;
		expect(version).toBe('1.1.0');
		expect(pkg.files).toContain('CHANGELOG.md');
		expect(readFileSync(join(unpacked, 'CHANGELOG.md'), 'utf8')).toMatch(/^## 1\.1\.0\b/m);
		const repo = 'visionstory-ai/n8n-nodes-visionstory';
		expect(releaseProblems(manifest, 'node-red-v1.1.0', repo, TAG_PREFIX['node-red'])).toEqual([]);
		expect(releaseProblems(manifest, 'v1.1.0', repo, TAG_PREFIX['node-red'])).toEqual([
			'the tag "v1.1.0" does not name package.json\'s version (node-red-v1.1.0)',
		]);
	});

	it('ships a source map beside the readable bundle, pointing at the sources by path', () => {
		const bundle = readFileSync(join(unpacked, 'dist', 'visionstory.js'), 'utf8');
		expect(bundle).toMatch(/\/\/# sourceMappingURL=visionstory\.js\.map\s*$/);
		const map = JSON.parse(readFileSync(join(unpacked, 'dist', 'visionstory.js.map'), 'utf8')) as {
			sources: string[];
			sourcesContent?: unknown;
		};
		expect(map.sources).toContain('../src/runtime.ts');
		expect(map.sourcesContent).toBeUndefined();
		// Not minified: one statement a line, so even without the map a stack names a readable line.
		expect(bundle.split('\n').length).toBeGreaterThan(5000);
	});

	it("names src/… in a stack trace under Node's --enable-source-maps", () => {
		const script = `
			const { nodes } = require(${JSON.stringify(join(unpacked, 'dist', 'visionstory.js'))});
			let ctor;
			const RED = { nodes: { createNode() {}, registerType(t, c) { ctor = c; }, getNode() {} },
				settings: {}, util: { setMessageProperty() {} } };
			nodes['visionstory-account'](RED);
			const node = { id: 'n', type: 't', handlers: {}, on(e, h) { this.handlers[e] = h; },
				status() {}, warn() {}, error() {}, context() { return { get(k, s, cb) { cb(null); }, set(k, v, s, cb) { cb(null); } }; } };
			ctor.call(node, { operation: 'getCredits' });
			node.handlers.input({ _msgid: 'm' }, () => {}, (error) => { console.log(error.stack); process.exit(0); });
		`;
		const stack = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], {
			encoding: 'utf8',
		});
		expect(stack).toMatch(/\/src\/runtime\.ts:\d+:\d+/);
	});
});
