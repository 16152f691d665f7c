/**
 * A throwaway Postgres and Redis on free loopback ports, data in a temporary folder that is deleted
 * when they stop. Postgres refuses to run as root: as root, its folder belongs to the `postgres`
 * user and the server runs as that user.
 */
import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../ports';
import { Daemon } from './daemon';
import { ensureServerBinaries, type ServerBinaries } from './debian';

const run = promisify(execFile);

export interface PostgresServer {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
	/** One SQL statement through psql; rows as lines, columns separated by |. */
	query(sql: string): Promise<string>;
	stop(): Promise<void>;
}

export interface RedisServer {
	host: string;
	port: number;
	stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

async function postgresAccount(): Promise<{ uid: number; gid: number }> {
	const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
		run('id', ['-u', 'postgres']),
		run('id', ['-g', 'postgres']),
	]);
	return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** As root, the command runs as `postgres`; otherwise as the current user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return isRoot()
		? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args]]
		: [command, args];
}

export async function startPostgres(
	binaries: ServerBinaries,
	logDir: string,
): Promise<PostgresServer> {
	const root = mkdtempSync(join(tmpdir(), 'visionstory-pg-'));
	const data = join(root, 'data');
	mkdirSync(data, { mode: 0o700 });
	if (isRoot()) {
		const { uid, gid } = await postgresAccount();
		chownSync(root, uid, gid);
		chownSync(data, uid, gid);
	}
	const user = 'n8n';
	const [initdb, initArgs] = asPostgres(binaries.initdb, [
		'-D',
		data,
		'-U',
		user,
		'--auth=trust',
		'--no-sync',
		'-E',
		'UTF8',
		'--locale=C',
	]);
	await run(initdb, initArgs, { cwd: root, maxBuffer: 16 << 20 });
	const port = await freePort();
	// No unix socket (-k ''), loopback only, no fsync: a test database that is thrown away.
	const [command, args] = asPostgres(binaries.postgres, [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		'',
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const daemon = await Daemon.start({
		name: 'postgres',
		command,
		args,
		cwd: root,
		logFile: join(logDir, 'postgres.log'),
		ready: /database system is ready to accept connections/,
		// SIGINT is Postgres's fast shutdown: it ends sessions and stops without waiting for clients.
		stopSignal: 'SIGINT',
	}).catch((error: unknown) => {
		rmSync(root, { recursive: true, force: true });
		throw error;
	});
	const psql = join(binaries.initdb, '..', 'psql');
	return {
		host: '127.0.0.1',
		port,
		database: 'postgres',
		user,
		password: 'n8n',
		query: async (sql) =>
			(
				await run(
					psql,
					['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres', '-At', '-c', sql],
					{ maxBuffer: 64 << 20 },
				)
			).stdout,
		stop: async () => {
			await daemon.stop();
			rmSync(root, { recursive: true, force: true });
		},
	};
}

export async function startRedis(binaries: ServerBinaries, logDir: string): Promise<RedisServer> {
	const root = mkdtempSync(join(tmpdir(), 'visionstory-redis-'));
	const port = await freePort();
	const daemon = await Daemon.start({
		name: 'redis',
		command: binaries.redisServer,
		args: [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			root,
			'--daemonize',
			'no',
		],
		logFile: join(logDir, 'redis.log'),
		ready: /Ready to accept connections/,
	}).catch((error: unknown) => {
		rmSync(root, { recursive: true, force: true });
		throw error;
	});
	return {
		host: '127.0.0.1',
		port,
		stop: async () => {
			await daemon.stop();
			rmSync(root, { recursive: true, force: true });
		},
	};
}

export interface QueueBackends {
	postgres: PostgresServer;
	redis: RedisServer;
	stop(): Promise<void>;
}

/** Both servers queue mode needs, installed from Debian's packages first when missing. */
export async function startQueueBackends(
	logDir: string,
	log: (line: string) => void = () => undefined,
): Promise<QueueBackends> {
	mkdirSync(logDir, { recursive: true });
	const binaries = await ensureServerBinaries(log);
	const postgres = await startPostgres(binaries, logDir);
	const redis = await startRedis(binaries, logDir).catch(async (error: unknown) => {
		await postgres.stop();
		throw error;
	});
	log(`postgres on 127.0.0.1:${postgres.port}, redis on 127.0.0.1:${redis.port}`);
	return {
		postgres,
		redis,
		stop: async () => {
			await Promise.all([postgres.stop(), redis.stop()]);
		},
	};
}
