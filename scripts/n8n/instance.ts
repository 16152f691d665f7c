/**
 * One real n8n app on loopback with a user folder of its own: CLI commands (import, execute) and the
 * server (`n8n start`), each in its own process group so stopping it also stops n8n's task runners.
 * Once the server runs and `runThrough` has given it a logged-in API, manual runs go through it (the
 * editor's Execute Workflow) instead of a cold `n8n execute` process each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
	type WriteStream,
} from 'node:fs';
import { join } from 'node:path';

import type { N8nInstall } from './install';
import { suiteFetch } from '../suiteHttp';
import { npmEnv } from './installSteps';
import { freePort } from './ports';
import { executionResult, waitForExecution } from './queue/executions';
import type { N8nRest } from './rest';
import { parseExecuteOutput, type ExecutionResult } from './runData';

export interface N8nInstanceOptions {
	install: N8nInstall;
	/** Wiped and recreated: every run starts from an empty database. */
	userFolder: string;
	/** Fixed HTTP port (the dev command uses 5678); a free one otherwise. */
	port?: number;
	env?: Record<string, string>;
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
}

const READY_TIMEOUT_MS = 120_000;

// Servers run in their own process groups, so an interrupted test run or demo would leave them behind.
const runningGroups = new Set<ChildProcess>();
process.on('exit', () => runningGroups.forEach((child) => killGroup(child, 'SIGKILL')));

/** Kills the child's process group when this process exits, until the child has closed. */
export function trackGroup(child: ChildProcess): void {
	runningGroups.add(child);
	child.once('close', () => runningGroups.delete(child));
}

export class N8nInstance {
	readonly baseUrl: string;
	readonly logDir: string;
	private server?: ChildProcess;
	private serverLog?: WriteStream;
	private serverExit?: Promise<void>;
	/** The owner's API of the running server, when manual runs go through it. */
	private runner?: N8nRest;
	private cliCount = 0;

	private constructor(
		readonly options: N8nInstanceOptions,
		readonly port: number,
		private readonly encryptionKey: string,
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.logDir = join(options.userFolder, 'logs');
	}

	static async create(options: N8nInstanceOptions): Promise<N8nInstance> {
		rmSync(options.userFolder, { recursive: true, force: true });
		mkdirSync(join(options.userFolder, 'logs'), { recursive: true });
		return new N8nInstance(
			options,
			options.port ?? (await freePort()),
			randomBytes(24).toString('hex'),
		);
	}

	get userFolder(): string {
		return this.options.userFolder;
	}

	get version(): string {
		return this.options.install.line.n8n;
	}

	/** The environment every n8n process of this instance gets (CLI commands and servers). */
	async env(): Promise<NodeJS.ProcessEnv> {
		const base = npmEnv(this.options.install.nodeBin);
		// Settings of the caller's own n8n must not leak into a test instance.
		for (const key of Object.keys(base))
			if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$)/.test(key)) delete base[key];
		// jest sets NODE_ENV=test, which makes n8n exit silently ("not available in tests").
		for (const key of Object.keys(base)) if (/^(NODE_ENV$|JEST_)/.test(key)) delete base[key];
		return {
			...base,
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
			DB_TYPE: 'sqlite',
			// Every n8n process runs a task broker; the default port is shared and would collide.
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_LEVEL: 'info',
			...this.options.install.line.env,
			...this.options.env,
		};
	}

	private spawnN8n(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
		return spawn(this.options.install.nodeBin, [this.options.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
	}

	/** Runs one n8n CLI command to the end; its output also goes to logs/NN-<command>.log. */
	async cli(args: string[], timeoutMs = 300_000): Promise<CliResult> {
		const started = Date.now();
		const child = this.spawnN8n(args, await this.env());
		runningGroups.add(child);
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
		child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
		const code = await new Promise<number | null>((resolve) =>
			child.on('close', (c) => resolve(c)),
		);
		clearTimeout(timer);
		runningGroups.delete(child);
		const result = {
			code,
			stdout: Buffer.concat(stdout).toString('utf8'),
			stderr: Buffer.concat(stderr).toString('utf8'),
			ms: Date.now() - started,
		};
		const name = `${String(++this.cliCount).padStart(2, '0')}-${args
			.join('-')
			.replace(/[^a-zA-Z0-9:=.-]+/g, '_')
			.slice(0, 60)}.log`;
		writeFileSync(
			join(this.logDir, name),
			`$ n8n ${args.join(' ')}\nexit ${code} after ${result.ms} ms\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
		);
		return result;
	}

	private async cliOrThrow(args: string[]): Promise<CliResult> {
		const result = await this.cli(args);
		if (result.code !== 0) {
			throw new Error(
				`n8n ${this.version}: \`n8n ${args.join(' ')}\` exited ${result.code}\n${tail(result.stdout + result.stderr, 30)}`,
			);
		}
		return result;
	}

	/** Credentials with plain `data`: n8n encrypts them with this instance's key on import. */
	async importCredentials(credentials: unknown[]): Promise<void> {
		const file = join(this.userFolder, 'import-credentials.json');
		// It holds the API key in clear, the real one in the demo: readable by us only, and gone after the import.
		writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
		try {
			await this.cliOrThrow(['import:credentials', `--input=${file}`]);
		} finally {
			rmSync(file, { force: true });
		}
	}

	async importWorkflows(workflows: unknown[]): Promise<void> {
		const dir = join(this.userFolder, 'import-workflows');
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir);
		workflows.forEach((workflow, i) =>
			writeFileSync(join(dir, `${i}.json`), JSON.stringify(workflow, null, 2)),
		);
		await this.cliOrThrow(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/**
	 * A manual run, the whole run data back: through the running server when `runThrough` gave it an
	 * API (warm, tens of milliseconds to start), else `n8n execute --id X --rawOutput` (a cold process).
	 */
	async execute(workflowId: string, timeoutMs = 300_000): Promise<ExecutionResult> {
		if (this.server && this.runner) {
			const id = await this.runner.runManually(workflowId);
			const execution = await waitForExecution(this.runner, id, timeoutMs, {
				everyMs: 250,
				withRunData: true,
			});
			const result = await executionResult(this.runner, execution, this.userFolder, {
				filesAreLocal: true,
			});
			// What a failure message shows: the server's last lines, as the CLI's output would be.
			return result.status === 'success'
				? result
				: { ...result, log: `${result.log}\n${tail(this.serverLogText(), 40)}` };
		}
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
		return parseExecuteOutput(result, this.userFolder);
	}

	/** From now on, while the server runs, `execute` starts runs through this logged-in owner's API. */
	runThrough(rest: N8nRest): void {
		this.runner = rest;
	}

	async start(): Promise<void> {
		if (this.server) throw new Error('n8n is already running');
		const logFile = join(this.logDir, 'server.log');
		this.serverLog = createWriteStream(logFile);
		const child = this.spawnN8n(['start'], await this.env());
		this.server = child;
		runningGroups.add(child);
		child.stdout!.pipe(this.serverLog, { end: false });
		child.stderr!.pipe(this.serverLog, { end: false });
		let exited = false;
		this.serverExit = new Promise((resolve) =>
			child.on('close', () => {
				exited = true;
				runningGroups.delete(child);
				resolve();
			}),
		);
		const deadline = Date.now() + READY_TIMEOUT_MS;
		// The health endpoint answers before the REST API is mounted; /rest/settings answers only once it is.
		while (Date.now() < deadline) {
			if (exited)
				throw new Error(
					`n8n ${this.version} exited while starting\n${tail(this.serverLogText(), 40)}`,
				);
			const abort = new AbortController();
			const timer = setTimeout(() => abort.abort(), 2000);
			try {
				const response = await suiteFetch(`${this.baseUrl}/rest/settings`, {
					signal: abort.signal,
				});
				if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) return;
			} catch {
				// not listening yet
			} finally {
				clearTimeout(timer);
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		await this.stop();
		throw new Error(
			`n8n ${this.version} did not become ready within ${READY_TIMEOUT_MS / 1000} s\n${tail(this.serverLogText(), 40)}`,
		);
	}

	/** Resolves when the server process has ended, for whatever reason. */
	serverExited(): Promise<void> {
		return this.serverExit ?? Promise.resolve();
	}

	serverLogText(): string {
		const file = join(this.logDir, 'server.log');
		return existsSync(file) ? readFileSync(file, 'utf8') : '';
	}

	async stop(): Promise<void> {
		const child = this.server;
		if (!child) return;
		this.server = undefined;
		killGroup(child, 'SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const killed = await Promise.race([
			this.serverExit!.then(() => true),
			new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 15_000))),
		]);
		clearTimeout(timer);
		// The task runners live in the same group; SIGKILL them too if n8n left them behind.
		killGroup(child, 'SIGKILL');
		if (!killed) await this.serverExit;
		await new Promise<void>((resolve) => this.serverLog!.end(resolve));
	}
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// the group is already gone
	}
}

export function tail(text: string, lines: number): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}
