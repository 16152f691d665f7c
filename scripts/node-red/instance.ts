/**
 * One real Node-RED on loopback with a user directory of its own: started with a settings file the
 * suite writes, driven through the admin API (deploy flows, read the loaded node sets, press inject
 * buttons), stopped with SIGINT so it closes its nodes and flushes the context store, as a user's
 * Ctrl-C does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	writeFileSync,
	type WriteStream,
} from 'node:fs';
import { join } from 'node:path';

import type { Response } from 'undici';

import { npmEnv } from '../n8n/installSteps';
import { killGroup, trackGroup } from '../n8n/instance';
import { freePort } from '../n8n/ports';
import { suiteFetch } from '../suiteHttp';
import type { NodeRedInstall } from './install';

export interface NodeRedOptions {
	install: NodeRedInstall;
	userDir: string;
	/** Context kept in files (survives restarts) or in memory (Node-RED's default). */
	contextStore: 'localfilesystem' | 'memory';
	port?: number;
	/** NODE_OPTIONS for Node-RED's process (the suites run it with --enable-source-maps, as the README advises). */
	nodeOptions?: string;
}

const READY_TIMEOUT_MS = 60_000;

function settingsFile(options: NodeRedOptions, port: number): string {
	return `module.exports = ${JSON.stringify(
		{
			uiHost: '127.0.0.1',
			uiPort: port,
			userDir: options.userDir,
			flowFile: 'flows.json',
			credentialSecret: 'node-red-visionstory-tests',
			contextStorage: { default: { module: options.contextStore } },
			logging: { console: { level: 'info', metrics: false, audit: false } },
			editorTheme: { tours: false, palette: { catalogues: [] } },
			diagnostics: { enabled: false },
			telemetry: { enabled: false },
			runtimeState: { enabled: false },
			externalModules: { autoInstall: false },
		},
		null,
		2,
	)};\n`;
}

export class NodeRedInstance {
	readonly baseUrl: string;
	private server?: ChildProcess;
	private log?: WriteStream;
	private exited?: Promise<void>;
	private starts = 0;

	private constructor(
		readonly options: NodeRedOptions,
		readonly port: number,
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
	}

	static async create(options: NodeRedOptions): Promise<NodeRedInstance> {
		mkdirSync(options.userDir, { recursive: true });
		const port = options.port ?? (await freePort());
		writeFileSync(join(options.userDir, 'settings.js'), settingsFile(options, port));
		return new NodeRedInstance(options, port);
	}

	get logFile(): string {
		return join(this.options.userDir, `node-red-${this.starts}.log`);
	}

	async start(): Promise<number> {
		const started = Date.now();
		this.starts++;
		const { install, userDir } = this.options;
		this.log = createWriteStream(this.logFile);
		const child = spawn(
			install.nodeBin,
			[install.redJs, '--userDir', userDir, '--settings', join(userDir, 'settings.js')],
			{
				cwd: userDir,
				env: {
					...npmEnv(install.nodeBin),
					...(this.options.nodeOptions ? { NODE_OPTIONS: this.options.nodeOptions } : {}),
				},
				stdio: ['ignore', 'pipe', 'pipe'],
				detached: true,
			},
		);
		trackGroup(child);
		child.stdout!.pipe(this.log, { end: false });
		child.stderr!.pipe(this.log, { end: false });
		this.server = child;
		this.exited = new Promise((resolve) => child.once('close', () => resolve()));
		let gone = false;
		void this.exited.then(() => (gone = true));
		for (;;) {
			if (gone) throw new Error(`Node-RED exited while starting; see ${this.logFile}`);
			if (Date.now() - started > READY_TIMEOUT_MS)
				throw new Error(
					`Node-RED did not answer within ${READY_TIMEOUT_MS / 1000} s; see ${this.logFile}`,
				);
			// The admin API answers before the flows run (their HTTP endpoints, their nodes): wait for both.
			if (this.flowsStarted()) {
				try {
					const response = await suiteFetch(`${this.baseUrl}/settings`);
					if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) break;
				} catch {
					// not listening yet
				}
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		return Date.now() - started;
	}

	private flowsStarted(): boolean {
		return this.startedFlows() > 0;
	}

	/** What this start has logged so far. */
	logText(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
	}

	/** How often this start has logged "Started flows" (once at start, once per deploy). */
	private startedFlows(): number {
		return this.logText().split('[info] Started flows').length - 1;
	}

	/** Stops it as Ctrl-C does: nodes are closed and the context store written before it exits. */
	async stop(): Promise<void> {
		const child = this.server;
		if (!child) return;
		this.server = undefined;
		killGroup(child, 'SIGINT');
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
		await this.exited;
		clearTimeout(timer);
		await new Promise<void>((resolve) => this.log!.end(resolve));
	}

	async request(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<Response> {
		return await suiteFetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				accept: 'application/json',
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	async json<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.request(method, path, body);
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}

	/**
	 * Replaces every flow (a full deploy, as the editor's Deploy button does; credentials travel inside
	 * the nodes) and returns once the deployed flows have started: the admin API answers the deploy
	 * before its nodes exist, and an inject pressed then answers 404.
	 */
	async deploy(flows: unknown[]): Promise<void> {
		const before = this.startedFlows();
		const response = await this.request('POST', '/flows', flows, {
			'Node-RED-Deployment-Type': 'full',
		});
		if (response.status !== 204 && response.status !== 200)
			throw new Error(`deploy failed: ${response.status} ${(await response.text()).slice(0, 500)}`);
		const started = Date.now();
		while (this.startedFlows() <= before) {
			if (Date.now() - started > READY_TIMEOUT_MS)
				throw new Error(
					`the deployed flows did not start within ${READY_TIMEOUT_MS / 1000} s; see ${this.logFile}`,
				);
			await new Promise((r) => setTimeout(r, 100));
		}
	}

	/** Presses an inject node's button. */
	async inject(id: string): Promise<void> {
		const response = await this.request('POST', `/inject/${id}`);
		if (!response.ok) throw new Error(`inject ${id}: ${response.status} ${await response.text()}`);
	}

	/** The node sets Node-RED loaded, with their types and any load error. */
	async nodeSets(): Promise<
		Array<{ id: string; module: string; types: string[]; enabled: boolean; err?: string }>
	> {
		return await this.json('GET', '/nodes');
	}
}
