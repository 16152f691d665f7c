import { spawn } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import type { N8nLine } from './versions';

const STEP_TIMEOUT_MS = 20 * 60_000;

export function repoRoot(): string {
	return resolve(__dirname, '..', '..');
}

/**
 * Where installs are kept between runs: outside the clone, so a fresh clone (CI's, a second checkout)
 * finds the n8n installs and Node runtimes an earlier run made. VISIONSTORY_TEST_CACHE overrides it.
 */
export function testCacheRoot(): string {
	const override = process.env.VISIONSTORY_TEST_CACHE?.trim();
	if (override) return resolve(override);
	const xdg = process.env.XDG_CACHE_HOME?.trim();
	return join(xdg ? resolve(xdg) : join(homedir(), '.cache'), 'visionstory-test');
}

/** The real n8n installs, the Node runtimes they run on, the compiled sqlite3 and the install logs. */
export function cacheRoot(): string {
	return join(testCacheRoot(), 'n8n');
}

export function nodeRuntimeDir(version: string): string {
	return join(cacheRoot(), `node-${version}`);
}

export function hostPackageJson(line: N8nLine): Record<string, unknown> {
	return {
		name: `n8n-host-${line.n8n.replace(/\./g, '-')}`,
		private: true,
		description: 'Private host folder for the end-to-end tests; written by scripts/n8n/install.ts',
		dependencies: { n8n: line.n8n },
		overrides: line.overrides,
	};
}

/**
 * npm run passes the repo's own config (ignore-scripts, legacy-peer-deps, its prefix) down as
 * npm_config_* variables; they would change how n8n resolves and turn `npm rebuild` into a no-op.
 */
export function npmEnv(nodeBin?: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_(package|lifecycle)_/.test(key)) continue;
		if (
			[
				'npm_config_ignore_scripts',
				'npm_config_legacy_peer_deps',
				// `npm run -s` silences the child's errors too, and a failed step would log nothing.
				'npm_config_loglevel',
				'npm_config_local_prefix',
				'INIT_CWD',
			].includes(key)
		)
			continue;
		env[key] = value;
	}
	if (nodeBin && nodeBin !== process.execPath) {
		env.PATH = `${dirname(nodeBin)}:${env.PATH ?? ''}`;
		// node-gyp would otherwise build against the machine's Node headers (the user config points there).
		env.npm_config_nodedir = resolve(dirname(nodeBin), '..');
	}
	return env;
}

function slug(title: string): string {
	return title
		.toLowerCase()
		.replace(/[^a-z0-9.]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 80);
}

function tail(file: string, lines: number): string {
	if (!existsSync(file)) return '';
	return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Runs one install step with its output in its own log file; a failure names the step and shows the log's end. */
export async function runStep(
	log: (line: string) => void,
	title: string,
	command: string,
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<void> {
	const timeoutMs = options.timeoutMs ?? STEP_TIMEOUT_MS;
	const logDir = join(cacheRoot(), 'logs');
	mkdirSync(logDir, { recursive: true });
	const logFile = join(logDir, `${slug(title)}.log`);
	const out = createWriteStream(logFile);
	const started = Date.now();
	log(`→ ${title}  (log: ${logFile})`);
	const code = await new Promise<number | string>((done) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		child.stdout.pipe(out, { end: false });
		child.stderr.pipe(out, { end: false });
		const timer = setTimeout(() => {
			out.write(`\n[install] killed after ${timeoutMs / 60_000} minutes\n`);
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// already gone
			}
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			done(err.message);
		});
		child.on('close', (exit, signal) => {
			clearTimeout(timer);
			done(exit ?? `signal ${signal}`);
		});
	});
	await new Promise<void>((done) => out.end(done));
	if (code !== 0) {
		throw new Error(
			`step "${title}" failed (${typeof code === 'number' ? `exit code ${code}` : code}) in ${options.cwd}\n--- last lines of ${logFile} ---\n${tail(logFile, 40)}`,
		);
	}
	log(`  done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Whether a process holding a lock or a reservation still runs. */
export function alive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, as someone else.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Serialises installs of one folder across processes (the demo and the tests may start together). */
export async function withInstallLock(dir: string, fn: () => Promise<void>): Promise<void> {
	const lock = `${dir}.lock`;
	mkdirSync(dirname(lock), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(join(lock, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const pid = Number(
				existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN,
			);
			if (Number.isInteger(pid) && !alive(pid)) {
				rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (!announced) console.log(`waiting for another install of ${dir} (process ${pid})`);
			announced = true;
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
	try {
		await fn();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}
