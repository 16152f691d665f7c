/**
 * A long-running server process (Postgres, Redis, an n8n role) in its own process group, its output in
 * a log file, ready once a line of that log matches. Stopping signals the group, waits, then SIGKILLs
 * whatever is left, so nothing outlives the suite.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, statSync, type WriteStream } from 'node:fs';

import { killGroup, tail, trackGroup } from '../instance';

export interface DaemonSpec {
	name: string;
	command: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	logFile: string;
	/** The log line that says the server is ready. */
	ready: RegExp;
	readyTimeoutMs?: number;
	/** What makes the server shut down cleanly (Postgres: SIGINT, fast shutdown). */
	stopSignal?: NodeJS.Signals;
	/** How long a clean shutdown may take before the group is SIGKILLed. */
	stopTimeoutMs?: number;
}

export class Daemon {
	private readonly child: ChildProcess;
	private readonly log: WriteStream;
	private readonly exit: Promise<number | null>;
	private exited = false;
	/** Where this run's output starts in the log, which earlier runs of the same server may have filled. */
	readonly logOffset: number;

	private constructor(readonly spec: DaemonSpec) {
		this.logOffset = existsSync(spec.logFile) ? statSync(spec.logFile).size : 0;
		this.log = createWriteStream(spec.logFile, { flags: 'a' });
		const options: SpawnOptions = {
			cwd: spec.cwd,
			env: spec.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		};
		this.child = spawn(spec.command, spec.args, options);
		trackGroup(this.child);
		this.child.stdout!.pipe(this.log, { end: false });
		this.child.stderr!.pipe(this.log, { end: false });
		this.exit = new Promise((resolve) =>
			this.child.on('close', (code) => {
				this.exited = true;
				resolve(code);
			}),
		);
		this.child.on('error', (error) => this.log.write(`\n[daemon] ${error.message}\n`));
	}

	static async start(spec: DaemonSpec): Promise<Daemon> {
		const daemon = new Daemon(spec);
		try {
			await daemon.waitForLog(spec.ready, spec.readyTimeoutMs ?? 120_000);
		} catch (error) {
			await daemon.stop();
			throw error;
		}
		return daemon;
	}

	get pid(): number {
		return this.child.pid ?? -1;
	}

	get running(): boolean {
		return !this.exited;
	}

	logText(): string {
		return existsSync(this.spec.logFile) ? readFileSync(this.spec.logFile, 'utf8') : '';
	}

	/** Output of this run only. */
	ownLog(): string {
		return this.logText().slice(this.logOffset);
	}

	/** Resolves when this run's log (from `fromOffset` within it on) matches; rejects if the process exits first. */
	async waitForLog(pattern: RegExp, timeoutMs: number, fromOffset = 0): Promise<RegExpMatchArray> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const match = this.ownLog().slice(fromOffset).match(pattern);
			if (match) return match;
			if (this.exited)
				throw new Error(
					`${this.spec.name} exited before its log showed ${pattern}\n${tail(this.logText(), 40)}`,
				);
			if (Date.now() > deadline)
				throw new Error(
					`${this.spec.name}: no ${pattern} in its log within ${timeoutMs / 1000} s\n${tail(this.logText(), 40)}`,
				);
			await new Promise((r) => setTimeout(r, 200));
		}
	}

	/** A crash as the operating system would cause it: the whole group dies at once, no shutdown code runs. */
	async kill(): Promise<void> {
		killGroup(this.child, 'SIGKILL');
		await this.exit;
		await this.closeLog();
	}

	private async closeLog(): Promise<void> {
		if (!this.log.writableEnded) await new Promise<void>((resolve) => this.log.end(resolve));
	}

	async stop(): Promise<void> {
		if (!this.exited) {
			killGroup(this.child, this.spec.stopSignal ?? 'SIGTERM');
			let timer: NodeJS.Timeout | undefined;
			const clean = await Promise.race([
				this.exit.then(() => true),
				new Promise<boolean>(
					(r) => (timer = setTimeout(() => r(false), this.spec.stopTimeoutMs ?? 30_000)),
				),
			]);
			clearTimeout(timer);
			if (!clean)
				this.log.write(
					`\n[daemon] ${this.spec.name} did not stop within ${(this.spec.stopTimeoutMs ?? 30_000) / 1000} s: SIGKILL\n`,
				);
		}
		// Children it left behind (n8n's task runners) share the group.
		killGroup(this.child, 'SIGKILL');
		await this.exit;
		await this.closeLog();
	}
}
