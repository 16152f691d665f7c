/**
 * Postgres and Redis for queue mode come from Debian's packages. CI starts on a clean Debian machine
 * as root with Debian's mirror reachable, so the tooling installs what is missing itself.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { withInstallLock } from '../installSteps';

const run = promisify(execFile);

export interface ServerBinaries {
	initdb: string;
	postgres: string;
	redisServer: string;
}

/** The newest installed Postgres major's bin folder (Debian keeps them under /usr/lib/postgresql/<major>/bin). */
function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? join(root, majors[0], 'bin') : undefined;
}

function redisServerBin(): string | undefined {
	return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
}

function findBinaries(): ServerBinaries | undefined {
	const bin = postgresBinDir();
	const redisServer = redisServerBin();
	if (!bin || !redisServer) return undefined;
	return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres'), redisServer };
}

// Debian's postinst scripts would start a system-wide Postgres and Redis on their default ports;
// policy-rc.d answering 101 forbids that, so nothing is left running outside the suite.
const POLICY_RC = '/usr/sbin/policy-rc.d';

async function aptInstall(
	packages: string[],
	log: (line: string) => void,
	purpose = 'queue mode',
): Promise<void> {
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${purpose} needs ${packages.join(' and ')} from Debian's packages; install them as root: apt-get install -y ${packages.join(' ')}`,
		);
	}
	const ownPolicy = !existsSync(POLICY_RC);
	if (ownPolicy) writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const install = () =>
		run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
			env,
			maxBuffer: 64 << 20,
		});
	try {
		log(`apt-get install ${packages.join(' ')}`);
		await install().catch(async () => {
			// A clean machine has no package lists yet.
			log('apt-get update');
			await run('apt-get', ['update'], { env, maxBuffer: 64 << 20 });
			await install();
		});
	} finally {
		if (ownPolicy) rmSync(POLICY_RC, { force: true });
	}
}

/** Postgres (server) and Redis binaries, installed from Debian's packages when missing. */
export async function ensureServerBinaries(
	log: (line: string) => void = console.log,
): Promise<ServerBinaries> {
	const found = findBinaries();
	if (found) return found;
	// Both queue suites may start at once on a fresh machine: one installs, the other waits for it
	// (dpkg allows one install at a time, and policy-rc.d must stay until both are done).
	await withInstallLock(join(tmpdir(), 'visionstory-apt'), async () => {
		if (findBinaries()) return;
		const missing = [
			...(postgresBinDir() ? [] : ['postgresql']),
			...(redisServerBin() ? [] : ['redis-server']),
		];
		await aptInstall(missing, log);
	});
	const installed = findBinaries();
	if (!installed)
		throw new Error('apt-get finished but the postgres or redis-server binary is still missing');
	return installed;
}

/**
 * A program from Debian's packages (the first of `paths` that exists), installing `packages` when
 * none does; `purpose` names who needs it in the error a non-root user gets.
 */
export async function ensureDebianProgram(
	paths: string[],
	packages: string[],
	purpose: string,
	log: (line: string) => void = console.log,
): Promise<string> {
	const find = () => paths.find((p) => existsSync(p));
	const found = find();
	if (found) return found;
	await aptInstall(packages, log, purpose);
	const installed = find();
	if (!installed)
		throw new Error(
			`apt-get installed ${packages.join(' ')} but none of ${paths.join(', ')} exists`,
		);
	return installed;
}
