/** How n8n loaded the package: the community-package way, with n8n's own zod and n8n-workflow. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { N8N_PACKAGE_DIR } from '../../scripts/paths';
import type { SuiteContext } from './realN8n';

function walk(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
	);
}

export function describePackageLoading(ctx: SuiteContext): void {
	describe('the package as n8n loads it', () => {
		test('installed like the Community Nodes panel does: nothing of its own to resolve zod or n8n-workflow from', () => {
			const packageDir = ctx.session.packageDir;
			const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<
				string,
				unknown
			>;
			expect(manifest.dependencies ?? {}).toEqual({});
			expect(manifest.peerDependencies).toBeUndefined();
			expect(existsSync(join(packageDir, 'node_modules'))).toBe(false);
			expect(readdirSync(join(packageDir, '..'))).toEqual(['n8n-nodes-visionstory']);
			// The check above only means something if the built nodes do import both.
			const code = walk(join(packageDir, 'dist'))
				.filter((f) => f.endsWith('.js'))
				.map((f) => readFileSync(f, 'utf8'))
				.join('\n');
			// zod 3.25+ and 4 both ship the v3 API at zod/v3, so the nodes load whichever line n8n hoists.
			expect(code).toContain('require("zod/v3")');
			expect(code).toContain('require("n8n-workflow")');
			// n8n puts its own module folders on NODE_PATH, where both are found.
			const n8nDir = join(ctx.session.instance.options.install.dir, 'node_modules', 'n8n');
			expect(require.resolve('zod/v3', { paths: [n8nDir] })).toContain(
				ctx.session.instance.options.install.dir,
			);
			expect(require.resolve('n8n-workflow', { paths: [n8nDir] })).toContain(
				ctx.session.instance.options.install.dir,
			);
		});

		test("the editor offers the node and the trigger of package.json, the node's tool variant, and the credential", async () => {
			const pkg = JSON.parse(readFileSync(join(N8N_PACKAGE_DIR, 'package.json'), 'utf8')) as {
				name: string;
				n8n: { nodes: string[] };
			};
			const expected = pkg.n8n.nodes.map((file) => {
				const className = basename(file).split('.')[0];
				return `${pkg.name}.${className[0].toLowerCase()}${className.slice(1)}`;
			});
			const nodeTypes = (await ctx.rest.types('nodes')).map((t) => t.name);
			expect(nodeTypes).toEqual(expect.arrayContaining(expected));
			// Action nodes are usable as AI-agent tools: n8n derives a `…Tool` type for each.
			const actions = expected.filter((name) => !name.endsWith('Trigger'));
			expect(nodeTypes).toEqual(expect.arrayContaining(actions.map((name) => `${name}Tool`)));
			// One regular node, its tool variant, and the trigger: nothing else of the package.
			expect(nodeTypes.filter((name) => name.startsWith(`${pkg.name}.`)).sort()).toEqual([
				`${pkg.name}.visionStory`,
				`${pkg.name}.visionStoryTool`,
				`${pkg.name}.visionStoryTrigger`,
			]);
			const credentialTypes = (await ctx.rest.types('credentials')).map((t) => t.name);
			expect(credentialTypes).toContain('visionStoryApi');
		});
	});
}
