/**
 * n8n in queue mode on one machine, the way users deploy it on several: a main instance (editor, API,
 * triggers, wait tracker), workers that run executions from the Redis queue, and a webhook processor
 * that takes production webhooks, all on one Postgres and one Redis with one encryption key. Every
 * process has its own user folder with the package installed as a community package, as every
 * container of a real deployment would.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ensureN8n, type N8nInstall } from '../install';
import { N8nInstance } from '../instance';
import { installIntoUserFolder, packPackage, type PackedPackage } from '../package';
import { freePort } from '../ports';
import type { N8nLine } from '../versions';
import { Daemon } from './daemon';
import { startQueueBackends, type QueueBackends } from './services';

export interface QueueClusterOptions {
	line: N8nLine;
	/** Wiped: holds every process's user folder and logs. */
	root: string;
	/** Workers started with the cluster, by name. */
	workers?: Record<string, { concurrency: number }>;
	/** Added to every process's environment (after the queue settings, so they can be overridden). */
	env?: Record<string, string>;
	log?: (line: string) => void;
}

export interface QueueWorker {
	name: string;
	concurrency: number;
	instance: N8nInstance;
	daemon: Daemon;
}

// Bull's defaults (30 s lock, 30 s stall checks) make a dead worker's job wait about a minute before
// n8n notices; these settings from the runtime notes make it notice in seconds.
const FAST_STALL_DETECTION = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

const WORKER_READY = /n8n worker is now ready/;
const WEBHOOK_READY = /Webhook listener waiting for requests/;

export class QueueCluster {
	readonly workers = new Map<string, QueueWorker>();
	/** Every worker instance ever started, also the killed ones: their logs say what they ran. */
	private readonly workerInstances = new Map<string, N8nInstance>();
	private webhookDaemon?: Daemon;

	private constructor(
		readonly options: QueueClusterOptions,
		readonly install: N8nInstall,
		readonly backends: QueueBackends,
		readonly pkg: PackedPackage,
		readonly main: N8nInstance,
		readonly webhookInstance: N8nInstance,
		private readonly sharedEnv: Record<string, string>,
	) {}

	/** Installs (cached) and starts everything; the caller imports workflows before `startProcesses`. */
	static async create(options: QueueClusterOptions): Promise<QueueCluster> {
		const log = options.log ?? (() => undefined);
		const install = await ensureN8n(options.line, log);
		const backends = await startQueueBackends(join(options.root, 'backends'), log);
		try {
			const webhookPort = await freePort();
			const sharedEnv: Record<string, string> = {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: backends.redis.host,
				QUEUE_BULL_REDIS_PORT: String(backends.redis.port),
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: backends.postgres.host,
				DB_POSTGRESDB_PORT: String(backends.postgres.port),
				DB_POSTGRESDB_DATABASE: backends.postgres.database,
				DB_POSTGRESDB_USER: backends.postgres.user,
				DB_POSTGRESDB_PASSWORD: backends.postgres.password,
				N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
				// Production webhook URLs (and Wait-node resume URLs) point at the webhook processor.
				WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				// Main only takes editor and API traffic; production webhooks go to the webhook processor.
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
				// The editor's "Execute workflow" runs on a worker too, like in a deployment that offloads it.
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				// A short one makes main exit 1 while workers still run executions, and the next start wait.
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '30',
				...FAST_STALL_DETECTION,
				...options.env,
			};
			const roleFolder = (role: string) => join(options.root, role);
			const main = await N8nInstance.create({
				install,
				userFolder: roleFolder('main'),
				env: sharedEnv,
			});
			const webhookInstance = await N8nInstance.create({
				install,
				userFolder: roleFolder('webhook'),
				port: webhookPort,
				env: sharedEnv,
			});
			const pkg = await packPackage(join(options.root, 'pack'));
			for (const instance of [main, webhookInstance])
				await installIntoUserFolder(pkg, instance.userFolder);
			log(
				`n8n ${options.line.n8n} queue mode: ${pkg.name}@${pkg.version} installed in main's and the webhook processor's user folders`,
			);
			return new QueueCluster(options, install, backends, pkg, main, webhookInstance, sharedEnv);
		} catch (error) {
			await backends.stop();
			throw error;
		}
	}

	get webhookBaseUrl(): string {
		return this.webhookInstance.baseUrl;
	}

	private log(line: string): void {
		this.options.log?.(line);
	}

	/** Main first (it runs the migrations), then the workers and the webhook processor. */
	async startProcesses(): Promise<void> {
		let started = Date.now();
		await this.main.start();
		this.log(
			`main ready on ${this.main.baseUrl} in ${Math.round((Date.now() - started) / 1000)} s`,
		);
		started = Date.now();
		await Promise.all([
			...Object.entries(this.options.workers ?? {}).map(([name, { concurrency }]) =>
				this.startWorker(name, concurrency),
			),
			this.startWebhookProcessor(),
		]);
		this.log(
			`workers ${[...this.workers.keys()].join(', ')} and the webhook processor ready in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}

	private async startWebhookProcessor(): Promise<void> {
		const instance = this.webhookInstance;
		this.webhookDaemon = await Daemon.start({
			name: `n8n ${this.install.line.n8n} webhook processor`,
			command: this.install.nodeBin,
			args: [this.install.n8nBin, 'webhook'],
			cwd: instance.userFolder,
			env: await instance.env(),
			logFile: join(instance.logDir, 'webhook.log'),
			ready: WEBHOOK_READY,
			stopTimeoutMs: 40_000,
		});
	}

	/** A worker with its own user folder (the package installed there on first start). */
	async startWorker(name: string, concurrency: number): Promise<QueueWorker> {
		if (this.workers.has(name)) throw new Error(`worker ${name} is already running`);
		let instance = this.workerInstances.get(name);
		if (!instance) {
			instance = await N8nInstance.create({
				install: this.install,
				userFolder: join(this.options.root, `worker-${name}`),
				env: this.sharedEnv,
			});
			await installIntoUserFolder(this.pkg, instance.userFolder);
			this.workerInstances.set(name, instance);
		}
		const daemon = await Daemon.start({
			name: `n8n ${this.install.line.n8n} worker ${name}`,
			command: this.install.nodeBin,
			args: [this.install.n8nBin, 'worker', `--concurrency=${concurrency}`],
			cwd: instance.userFolder,
			env: await instance.env(),
			logFile: join(instance.logDir, 'worker.log'),
			ready: WORKER_READY,
			stopTimeoutMs: 40_000,
		});
		const worker = { name, concurrency, instance, daemon };
		this.workers.set(name, worker);
		return worker;
	}

	async stopWorker(name: string): Promise<void> {
		const worker = this.workers.get(name);
		this.workers.delete(name);
		await worker?.daemon.stop();
	}

	/** SIGKILL to the worker's whole process group: a crash, no shutdown code runs. */
	async killWorker(name: string): Promise<void> {
		const worker = this.workers.get(name);
		if (!worker) throw new Error(`no running worker ${name}`);
		this.workers.delete(name);
		await worker.daemon.kill();
	}

	/**
	 * Which worker started which execution, from each worker's own log (every worker reports the same
	 * host id here, so n8n's own records cannot tell them apart). An execution n8n re-ran lists both.
	 */
	workerRuns(): Map<string, string[]> {
		const runs = new Map<string, string[]>();
		for (const [name, instance] of this.workerInstances) {
			const text = readLog(join(instance.logDir, 'worker.log'));
			for (const match of text.matchAll(/Worker started execution (\S+) \(job/g)) {
				runs.set(match[1], [...(runs.get(match[1]) ?? []), name]);
			}
		}
		return runs;
	}

	workerLog(name: string): string {
		const instance = this.workerInstances.get(name);
		return instance ? readLog(join(instance.logDir, 'worker.log')) : '';
	}

	/** Main stopped the way an orchestrator stops it (SIGTERM, graceful) and started again. */
	async restartMain(whileDown: () => Promise<void> = async () => undefined): Promise<void> {
		await this.main.stop();
		await whileDown();
		await this.main.start();
	}

	async stop(): Promise<void> {
		const results = await Promise.allSettled([
			this.webhookDaemon?.stop(),
			...[...this.workers.values()].map((w) => w.daemon.stop()),
		]);
		this.workers.clear();
		results.push(...(await Promise.allSettled([this.main.stop()])));
		results.push(...(await Promise.allSettled([this.backends.stop()])));
		const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
		if (failed) throw failed.reason;
	}
}

function readLog(file: string): string {
	return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
