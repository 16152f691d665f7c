/** The layering of docs/architecture.md holds: checked by dependency-cruiser with the repository's rules. */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_PACKAGE_DIR, REPO_ROOT } from '../../scripts/paths';

const root = REPO_ROOT;

test('nodes/shared holds only its layer folders', () => {
	const entries = readdirSync(join(N8N_PACKAGE_DIR, 'nodes/shared'), { withFileTypes: true });
	expect(entries.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual([]);
	expect(entries.map((e) => e.name).sort()).toEqual([
		'api',
		'descriptions',
		'framework',
		'methods',
		'n8n',
	]);
});

test('no layer imports a higher one, the API layer imports nothing of n8n, and there are no import cycles', () => {
	const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
	const report = execFileSync(
		process.execPath,
		[
			cli,
			'packages/n8n-nodes-visionstory/nodes',
			'packages/n8n-nodes-visionstory/credentials',
			'--config',
			'.dependency-cruiser.cjs',
			'--output-type',
			'json',
		],
		{
			cwd: root,
			encoding: 'utf8',
			maxBuffer: 64 << 20,
		},
	);
	const { summary } = JSON.parse(report) as {
		summary: { violations: unknown[]; totalCruised: number };
	};
	expect(summary.totalCruised).toBeGreaterThan(50);
	expect(summary.violations).toEqual([]);
});
