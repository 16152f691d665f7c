/**
 * `npm test`: every part of the suite, each a command of its own, started as soon as the parts it
 * needs have passed and a slot is free (TEST_JOBS, 4 unless set: the real-n8n suites spend most of
 * their time waiting on renders and polls, so they share 2 cores well). Each part's output is
 * shown as it comes, prefixed with its name, and kept in .e2e/test-logs/<part>.log; the end is a table
 * of seconds per part, the jest summaries, and one line counting every test.
 *
 *   npm test                           every part
 *   npm test -- fast e2e:n8n1          only these parts (or groups: `e2e` is every e2e:* part);
 *                                      the parts they need are taken as done
 *   npm test -- --skip=build,lint      every part but these (CI builds and lints in steps of its own)
 *
 * When the 2.x install is among the parts, the run also asks the registry whether a newer n8n 2.x
 * resolves in full (scripts/n8n/newer.ts) and says so before the closing line; it never fails a run.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { newerLine } from './n8n/newer';
import { REPO_ROOT } from './paths';

interface Part {
	name: string;
	/** Run from the repository root, with node_modules/.bin on PATH. */
	command: string[];
	/** Parts that must pass before this one starts. */
	after: string[];
	/** Parts that must have ended, passed or not, before this one starts. */
	waitsFor: string[];
}

const E2E_JEST = ['jest', '-c', 'test/e2e/jest.config.js', '--ci'];
const part = (
	name: string,
	command: string[],
	after: string[] = [],
	waitsFor: string[] = [],
): Part => ({ name, command, after, waitsFor });
const install = (line: 'n8n1' | 'n8n2'): Part =>
	part(`n8n-install:${line}`, ['tsx', 'scripts/n8n/install.ts', line]);
// After the fast tests, passed or not (one run reports every failure): some of them time what they
// measure, and the real-n8n suites' start-ups would starve them of CPU.
const e2e = (name: string, line: 'n8n1' | 'n8n2', file: string): Part =>
	part(`e2e:${name}`, [...E2E_JEST, file], ['build', `n8n-install:${line}`], ['fast']);

/** In order of priority: when slots are short, the earlier part starts first (longest suites first). */
export const PARTS: Part[] = [
	part('build', ['npm', 'run', '-s', 'build']),
	install('n8n2'),
	install('n8n1'),
	part('lint', ['npm', 'run', '-s', 'lint']),
	part('fast', ['jest', '--ci'], ['build']),
	e2e('queue-n8n2', 'n8n2', 'test/e2e/queue/n8n2Queue.test.ts'),
	e2e('n8n2', 'n8n2', 'test/e2e/n8n2.test.ts'),
	// The trigger on n8n's durable poll scheduler: named under their modes, so `e2e:n8n2` takes them too.
	e2e('queue-n8n2:durable', 'n8n2', 'test/e2e/durable/n8n2QueueDurable.test.ts'),
	e2e('n8n2:durable', 'n8n2', 'test/e2e/durable/n8n2Durable.test.ts'),
	e2e('queue-n8n1', 'n8n1', 'test/e2e/queue/n8n1Queue.test.ts'),
	e2e('n8n1', 'n8n1', 'test/e2e/n8n1.test.ts'),
	e2e('demo', 'n8n1', 'test/e2e/demo.test.ts'),
	part(
		'e2e:browser',
		['jest', '-c', 'test/browser/jest.config.js', '--ci'],
		['build', 'n8n-install:n8n1', 'n8n-install:n8n2'],
		['fast'],
	),
	// The Node-RED package: its unit and package suites with the fast ones, then real Node-RED on each line.
	part('node-red-install', ['tsx', 'scripts/node-red/install.ts', 'all']),
	part('fast:node-red', ['jest', '-c', 'test/node-red/jest.config.js', '--ci'], ['build']),
	...(['nr4', 'nr5'] as const).map((line) =>
		part(
			`e2e:node-red:${line}`,
			['jest', '-c', 'test/node-red/e2e/jest.config.js', '--ci', `test/node-red/e2e/${line}`],
			['build', 'node-red-install'],
			['fast'],
		),
	),
	// The Node-RED editor in Debian's Chromium: palette, help, validation before deploy.
	part(
		'e2e:node-red-browser',
		['jest', '-c', 'test/node-red/browser/jest.config.js', '--ci'],
		['build', 'node-red-install'],
		['fast'],
	),
];

interface Outcome {
	status: 'passed' | 'failed' | 'skipped';
	seconds: number;
	/** jest's "Tests:" line, when the part ran jest. */
	tests?: { passed: number; failed: number; skipped: number; line: string };
	log: string;
}

const LOG_DIR = join(REPO_ROOT, '.e2e', 'test-logs');

function selectParts(args: string[]): Part[] {
	const skip = new Set(
		args.filter((a) => a.startsWith('--skip=')).flatMap((a) => a.slice(7).split(',')),
	);
	const wanted = args.filter((a) => !a.startsWith('--'));
	const matches = (p: Part, name: string) => p.name === name || p.name.startsWith(`${name}:`);
	for (const name of [...wanted, ...skip])
		if (!PARTS.some((p) => matches(p, name)))
			throw new Error(`no part "${name}"; the parts: ${PARTS.map((p) => p.name).join(', ')}`);
	return PARTS.filter(
		(p) =>
			(wanted.length === 0 || wanted.some((name) => matches(p, name))) &&
			![...skip].some((name) => matches(p, name)),
	);
}

function jestTests(text: string): Outcome['tests'] {
	// jest's summary, e.g. "Tests:       1 failed, 2 skipped, 40 passed, 43 total"
	const line = [...text.matchAll(/^Tests:.*total$/gm)].at(-1)?.[0];
	if (!line) return undefined;
	const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
	return { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), line };
}

/**
 * jest's "● suite › test" sections, each cut short: CI keeps only the end of a long output, and the
 * end is where a reader looks for what failed. Without jest sections, the log's last lines.
 */
export function failureBlocks(text: string, linesPerBlock = 25, maxBlocks = 5): string[] {
	const lines = stripVTControlCharacters(text).split('\n');
	const starts = lines
		.map((line, i) => (/^\s*● (?!Console)/.test(line) ? i : -1))
		.filter((i) => i >= 0);
	if (starts.length === 0) return [lines.slice(-linesPerBlock).join('\n')];
	const blocks = starts
		.slice(0, maxBlocks)
		.map((start, k) =>
			lines.slice(start, Math.min(start + linesPerBlock, starts[k + 1] ?? lines.length)).join('\n'),
		);
	if (starts.length > maxBlocks) blocks.push(`… and ${starts.length - maxBlocks} more`);
	return blocks;
}

function runPart(p: Part, width: number): Promise<Outcome> {
	const started = Date.now();
	const logFile = join(LOG_DIR, `${p.name.replace(/[^a-z0-9-]+/gi, '-')}.log`);
	const log = createWriteStream(logFile);
	const prefix = `[${p.name}]`.padEnd(width + 2);
	console.log(`${prefix} ▶ ${p.command.join(' ')}`);
	return new Promise((resolve) => {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
			// Plain text in the logs (picocolors takes any FORCE_COLOR, even 0, as a yes).
			NO_COLOR: '1',
		};
		delete env.FORCE_COLOR;
		const child = spawn(p.command[0], p.command.slice(1), {
			cwd: REPO_ROOT,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let pending = '';
		const show = (chunk: Buffer) => {
			log.write(chunk);
			const lines = (pending + chunk.toString('utf8')).split('\n');
			pending = lines.pop() ?? '';
			// Spinners (n8n-node's) draw with escape codes; the shared console gets the text only.
			for (const line of lines) console.log(`${prefix} ${stripVTControlCharacters(line)}`);
		};
		child.stdout.on('data', show);
		child.stderr.on('data', show);
		child.on('close', (code, signal) => {
			if (pending) console.log(`${prefix} ${stripVTControlCharacters(pending)}`);
			const seconds = (Date.now() - started) / 1000;
			log.end(() => {
				const status = code === 0 ? 'passed' : 'failed';
				console.log(
					`${prefix} ${status === 'passed' ? '✓' : '✗'} ${status} in ${Math.round(seconds)} s${code === 0 ? '' : ` (${signal ?? `exit ${code}`})`}`,
				);
				resolve({
					status,
					seconds,
					tests: jestTests(readFileSync(logFile, 'utf8')),
					log: logFile,
				});
			});
		});
	});
}

/** Starts every part whose needs have passed, up to `jobs` at a time, in the order of PARTS. */
async function runAll(parts: Part[], jobs: number): Promise<Map<string, Outcome>> {
	const outcomes = new Map<string, Outcome>();
	const selected = new Set(parts.map((p) => p.name));
	const running = new Map<string, Promise<void>>();
	const width = Math.max(...parts.map((p) => p.name.length));
	// A need outside the selection counts as met: whoever chose the parts ran it, or does not want it.
	const needs = (p: Part) => p.after.filter((name) => selected.has(name));
	const waits = (p: Part) => p.waitsFor.filter((name) => selected.has(name));
	for (;;) {
		for (const p of parts) {
			if (outcomes.has(p.name) || running.has(p.name)) continue;
			const states = needs(p).map((name) => outcomes.get(name)?.status);
			if (states.some((s) => s === 'failed' || s === 'skipped')) {
				outcomes.set(p.name, { status: 'skipped', seconds: 0, log: '' });
				console.log(`[${p.name}] skipped: it needs ${needs(p).join(' and ')}`);
				continue;
			}
			if (running.size >= jobs || states.some((s) => s !== 'passed')) continue;
			if (waits(p).some((name) => !outcomes.has(name))) continue;
			running.set(
				p.name,
				runPart(p, width).then((outcome) => {
					outcomes.set(p.name, outcome);
					running.delete(p.name);
				}),
			);
		}
		if (running.size === 0) return outcomes;
		await Promise.race(running.values());
	}
}

function report(
	parts: Part[],
	outcomes: Map<string, Outcome>,
	wallSeconds: number,
	notes: string[],
): boolean {
	const rows = parts.map((p) => {
		const o = outcomes.get(p.name)!;
		const tests = o.tests
			? `${o.tests.passed} passed${o.tests.failed ? `, ${o.tests.failed} failed` : ''}${o.tests.skipped ? `, ${o.tests.skipped} skipped` : ''}`
			: '';
		return [p.name, o.status, String(Math.round(o.seconds)), tests];
	});
	const header = ['part', 'result', 'seconds', 'tests'];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		`| ${cells.map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
	console.log('\nWhere the time went:\n');
	console.log(line(header));
	console.log(line(widths.map((w) => '-'.repeat(w))));
	for (const row of rows) console.log(line(row));
	const busy = [...outcomes.values()].reduce((sum, o) => sum + o.seconds, 0);
	console.log(
		`\n${Math.round(wallSeconds)} s from start to end (${Math.round(busy)} s of parts, up to ${jobs()} at a time)`,
	);
	for (const p of parts) {
		const o = outcomes.get(p.name)!;
		if (o.tests) console.log(`${p.name}: ${o.tests.line}`);
		if (o.status === 'failed') {
			console.log(`${p.name}: FAILED, the whole output is in ${o.log}`);
			for (const block of failureBlocks(readFileSync(o.log, 'utf8')))
				console.log(block.replace(/^/gm, `  ${p.name} | `));
		}
	}
	const all = [...outcomes.values()];
	const passed = all.reduce((n, o) => n + (o.tests?.passed ?? 0), 0);
	// A part that failed without a failing test (build, lint, an install) counts as one failure.
	const failed = all.reduce((n, o) => n + (o.tests?.failed || (o.status === 'passed' ? 0 : 1)), 0);
	const ok = all.every((o) => o.status === 'passed');
	for (const note of notes) console.log(`\n${note}`);
	// The one closing line CI reads, counting the tests of every jest part.
	console.log(`\nTests: ${passed} passed, ${failed} failed`);
	return ok;
}

function jobs(): number {
	const value = Number(process.env.TEST_JOBS ?? 4);
	return Number.isInteger(value) && value > 0 ? value : 4;
}

async function main(): Promise<void> {
	const parts = selectParts(process.argv.slice(2));
	mkdirSync(LOG_DIR, { recursive: true });
	const started = Date.now();
	// Information, never a failure: whether the registry now serves a newer n8n 2.x in full.
	const newer = parts.some((p) => p.name === 'n8n-install:n8n2') ? newerLine() : undefined;
	const outcomes = await runAll(parts, jobs());
	const notes = newer ? [await newer] : [];
	const ok = report(parts, outcomes, (Date.now() - started) / 1000, notes);
	process.exitCode = ok ? 0 : 1;
}

if (require.main === module)
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
