/**
 * Whether a newer n8n 2.x than the pinned line resolves in full from the registry this project
 * builds against (the newest releases often pin first-party packages it does not serve yet). Each
 * release newer than the line is tried, newest first, with `npm install --package-lock-only` and the
 * line's overrides, until one resolves. Verdicts are kept for a day in the test cache, so the suite
 * asks again only about releases it has not tried.
 *
 *   tsx scripts/n8n/newer.ts               report (`npm run n8n:newer`); exits 0 whatever it finds
 *   tsx scripts/n8n/newer.ts --lock 2.x.y  also writes scripts/n8n/locks/n8n-2.x.y.package-lock.json
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { ensureNodeRuntime } from './install';
import { cacheRoot, hostPackageJson, npmEnv, repoRoot, runStep } from './installSteps';
import { N8N_LINES, type N8nLine } from './versions';

/** A resolve still running after this long is npm spinning on a missing peer. */
const RESOLVE_TIMEOUT_MS = 5 * 60_000;
const VERDICT_TTL_MS = 24 * 3600_000;

export type Verdict =
	| { version: string; resolves: true; packages: number }
	| { version: string; resolves: false; reason: string };

export interface NewerReport {
	line: string;
	/** The newest 2.x on the registry. */
	newest: string;
	/** The newest release newer than the line that resolves, if any. */
	resolving?: Verdict & { resolves: true };
	tried: Verdict[];
}

type Log = (line: string) => void;

function parts(version: string): number[] {
	return version.split('.').map(Number);
}

export function compareVersions(a: string, b: string): number {
	const [x, y] = [parts(a), parts(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
	return 0;
}

/** Stable releases of the line's major newer than it, newest first. */
export function newerReleases(current: string, published: string[]): string[] {
	const major = current.split('.')[0];
	return published
		.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && v.split('.')[0] === major)
		.filter((v) => compareVersions(v, current) > 0)
		.sort((a, b) => compareVersions(b, a));
}

/** What npm's failure says in one line: the package it could not find, or its last error line. */
export function resolveFailure(message: string): string {
	const missing = /No matching version found for (\S+?)\.?$/m.exec(message);
	if (missing) return `the registry has no ${missing[1]}`;
	if (/killed after/.test(message))
		return `npm was still resolving after ${RESOLVE_TIMEOUT_MS / 60_000} minutes (a peer is probably missing)`;
	const errors = message.split('\n').filter((l) => /npm error/.test(l));
	return (errors.at(-1) ?? message.split('\n')[0]).replace(/^.*npm error\s*/, '').slice(0, 200);
}

async function publishedVersions(): Promise<string[]> {
	const { stdout } = await promisify(execFile)('npm', ['view', 'n8n', 'versions', '--json'], {
		env: npmEnv(),
		maxBuffer: 16 * 1024 * 1024,
	});
	return JSON.parse(stdout) as string[];
}

function scratchDir(version: string): string {
	return join(cacheRoot(), 'newer', `n8n-${version}`);
}

/** Resolves one release with the line's overrides, lockfile only (nothing downloaded but metadata). */
export async function tryResolve(line: N8nLine, version: string, log: Log): Promise<Verdict> {
	const dir = scratchDir(version);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify(hostPackageJson({ ...line, n8n: version }), null, 2),
	);
	// npm prefers releases whose `engines` admit the Node it runs on: resolve on the line's own Node.
	const env = npmEnv(await ensureNodeRuntime(line, log));
	try {
		await runStep(
			log,
			`n8n ${version}: npm install --package-lock-only`,
			'npm',
			['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
			{ cwd: dir, env, timeoutMs: RESOLVE_TIMEOUT_MS },
		);
	} catch (error) {
		return {
			version,
			resolves: false,
			reason: resolveFailure(error instanceof Error ? error.message : String(error)),
		};
	}
	const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
		packages: Record<string, unknown>;
	};
	return { version, resolves: true, packages: Object.keys(lock.packages).length - 1 };
}

interface Cached {
	key: string;
	at: number;
	verdict: Verdict;
}

function cacheFile(): string {
	return join(cacheRoot(), 'newer', 'verdicts.json');
}

function readCache(): Cached[] {
	try {
		return JSON.parse(readFileSync(cacheFile(), 'utf8')) as Cached[];
	} catch {
		return [];
	}
}

export async function checkNewer(
	line: N8nLine = N8N_LINES.n8n2,
	log: Log = () => undefined,
): Promise<NewerReport> {
	const candidates = newerReleases(line.n8n, await publishedVersions());
	// A verdict holds for the overrides it was reached with, and for a day (the registry fills gaps).
	const keyOf = (version: string) => `${version} ${JSON.stringify(line.overrides)}`;
	const cache = readCache().filter((c) => Date.now() - c.at < VERDICT_TTL_MS);
	const tried: Verdict[] = [];
	let resolving: NewerReport['resolving'];
	for (const version of candidates) {
		let verdict = cache.find((c) => c.key === keyOf(version))?.verdict;
		if (!verdict) {
			verdict = await tryResolve(line, version, log);
			cache.push({ key: keyOf(version), at: Date.now(), verdict });
			mkdirSync(join(cacheFile(), '..'), { recursive: true });
			writeFileSync(cacheFile(), JSON.stringify(cache, null, 2));
		}
		tried.push(verdict);
		if (verdict.resolves) {
			resolving = verdict;
			break;
		}
	}
	return { line: line.n8n, newest: candidates[0] ?? line.n8n, resolving, tried };
}

/** The one line the suite and `npm run n8n:newer` print. */
export function describeReport(report: NewerReport): string {
	if (report.tried.length === 0)
		return `n8n ${report.line} is the newest 2.x on the registry: the 2.x line is current`;
	if (report.resolving)
		return `n8n ${report.resolving.version} resolves in full (${report.resolving.packages} packages), newer than the 2.x line's ${report.line}: move the line (scripts/n8n/versions.ts, \`npm run n8n:newer -- --lock ${report.resolving.version}\`)`;
	const why = report.tried.map((v) => `${v.version}: ${v.resolves ? 'resolves' : v.reason}`);
	return `n8n ${report.line} stays the 2.x line: no newer 2.x resolves from the registry (${why.join('; ')})`;
}

async function writeLock(line: N8nLine, version: string): Promise<void> {
	const verdict = await tryResolve(line, version, console.log);
	if (!verdict.resolves) throw new Error(`n8n ${version} does not resolve: ${verdict.reason}`);
	const target = join(repoRoot(), 'scripts', 'n8n', 'locks', `n8n-${version}.package-lock.json`);
	copyFileSync(join(scratchDir(version), 'package-lock.json'), target);
	console.log(`${target} written (${verdict.packages} packages)`);
}

/** The suite's line: never a failure, whatever the registry says or fails to say. */
export async function newerLine(log?: Log): Promise<string> {
	try {
		return describeReport(await checkNewer(N8N_LINES.n8n2, log));
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return `could not check for a newer n8n 2.x: ${message.split('\n')[0]}`;
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const lockAt = args.indexOf('--lock');
	if (lockAt < 0) {
		console.log(await newerLine(console.log));
		return;
	}
	const version = args[lockAt + 1];
	if (!version) throw new Error('--lock needs a version');
	await writeLock(N8N_LINES.n8n2, version);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
