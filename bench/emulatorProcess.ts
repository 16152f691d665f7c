import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { EmulatorConfig, LedgerEntry, RequestLogEntry, TaskRecord } from '../test/emulator';

/**
 * The emulator in its own process, so the bench's memory and CPU figures are the n8n side's alone.
 * Controlled over its /__emulator endpoints.
 */
export interface EmulatorProcess {
	baseUrl: string;
	mediaBaseUrl: string;
	apiKey: string;
	setConfig(config: Partial<EmulatorConfig>): Promise<void>;
	/** Adds an account (or sets its balance); its id as the ledger and request log name it. */
	addAccount(apiKey: string, credits: number): Promise<string>;
	reset(): Promise<void>;
	requests(): Promise<RequestLogEntry[]>;
	tasks(): Promise<TaskRecord[]>;
	ledger(): Promise<LedgerEntry[]>;
	stop(): Promise<void>;
}

export async function startEmulatorProcess(
	env: Record<string, string> = {},
): Promise<EmulatorProcess> {
	const root = join(__dirname, '..');
	const child: ChildProcess = spawn(
		process.execPath,
		[join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'test/emulator/cli.ts')],
		{
			env: { ...process.env, EMULATOR_PORT: '0', EMULATOR_MEDIA_PORT: '0', ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const banner = await new Promise<string>((resolve, reject) => {
		let text = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			if (text.includes('Press Ctrl+C')) resolve(text);
		});
		child.once('exit', (code) => reject(new Error(`the emulator exited with code ${code}`)));
	});
	const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(banner)![1];
	const baseUrl = field('API');
	const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
		const response = await fetch(`${baseUrl}/__emulator/${path}`, {
			method,
			headers: body === undefined ? undefined : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`emulator ${method} ${path}: ${response.status} ${await response.text()}`);
		return await response.json();
	};
	return {
		baseUrl,
		mediaBaseUrl: field('media'),
		apiKey: field('key'),
		setConfig: async (config) => void (await admin('POST', 'config', config)),
		addAccount: async (apiKey, credits) =>
			((await admin('POST', 'accounts', { apiKey, credits })) as { account: string }).account,
		reset: async () => void (await admin('POST', 'reset', {})),
		requests: async () =>
			((await admin('GET', 'requests')) as { entries: RequestLogEntry[] }).entries,
		tasks: async () => ((await admin('GET', 'tasks')) as { tasks: TaskRecord[] }).tasks,
		ledger: async () => ((await admin('GET', 'ledger')) as { entries: LedgerEntry[] }).entries,
		stop: async () => {
			child.kill('SIGTERM');
			await new Promise((resolve) => child.once('exit', resolve));
		},
	};
}
