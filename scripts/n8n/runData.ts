/**
 * Reading what a real n8n run produced: the run data `n8n execute --rawOutput` prints, and the files
 * behind binary properties (1.x keeps them in the run data as base64, 2.x in its on-disk store).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BinaryRef {
	mimeType: string;
	fileName?: string;
	fileExtension?: string;
	fileType?: string;
	fileSize?: string;
	bytes?: number;
	/** base64 bytes in memory mode; the storage mode's name when stored elsewhere. */
	data: string;
	/** `<mode>:<path>` when stored outside the run data. */
	id?: string;
}

export interface RunItem {
	json: Record<string, any>;
	binary?: Record<string, BinaryRef>;
	pairedItem?: unknown;
}

export interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: {
		main?: Array<RunItem[] | null>;
		ai_tool?: Array<RunItem[] | null>;
		ai_languageModel?: Array<RunItem[] | null>;
	};
}

export interface ExecutionResult {
	status: string;
	/** n8n's error message when the run failed. */
	error?: string;
	runData: Record<string, NodeRun[]>;
	/** Where this run's binary files live. */
	userFolder: string;
	/** The CLI output, for failure messages. */
	log: string;
	ms: number;
}

/**
 * `--rawOutput` prints the execution as pretty JSON between log lines: from the first line that is
 * exactly `{` to the last line that is exactly `}`.
 */
export function parseExecuteOutput(
	result: { code: number | null; stdout: string; stderr: string; ms: number },
	userFolder: string,
): ExecutionResult {
	const lines = result.stdout.split('\n');
	const start = lines.indexOf('{');
	const end = lines.lastIndexOf('}');
	const log = `${result.stdout}\n${result.stderr}`;
	if (start < 0 || end < start) {
		return {
			status: 'error',
			error: `no run data in the output (exit ${result.code})`,
			runData: {},
			userFolder,
			log,
			ms: result.ms,
		};
	}
	const parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as {
		status?: string;
		finished?: boolean;
		data?: {
			resultData?: {
				runData?: Record<string, NodeRun[]>;
				error?: { message?: string; description?: string };
			};
		};
	};
	const resultData = parsed.data?.resultData ?? {};
	const runError = resultData.error;
	const status = parsed.status ?? (parsed.finished ? 'success' : 'error');
	return {
		status: result.code === 0 ? status : 'error',
		error: runError
			? [runError.message, runError.description].filter(Boolean).join(': ')
			: result.code === 0
				? undefined
				: `exit code ${result.code}`,
		runData: resultData.runData ?? {},
		userFolder,
		log,
		ms: result.ms,
	};
}

/** Items of one node's output (first run, first output unless told otherwise). */
export function nodeOutput(
	result: ExecutionResult,
	nodeName: string,
	outputIndex = 0,
	runIndex = 0,
): RunItem[] {
	const runs = result.runData[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(result.runData).join(', ') || 'nothing'}${result.error ? `; error: ${result.error}` : ''}`,
		);
	const run = runs[runIndex];
	if (run?.error)
		throw new Error(
			`node "${nodeName}" failed: ${run.error.message ?? ''} ${run.error.description ?? ''}`,
		);
	return run?.data?.main?.[outputIndex] ?? [];
}

/** The bytes behind a binary property, wherever this n8n version keeps them. */
export function readBinary(userFolder: string, ref: BinaryRef): Buffer {
	if (!ref.id) return Buffer.from(ref.data, 'base64');
	const separator = ref.id.indexOf(':');
	const mode = ref.id.slice(0, separator);
	const path = ref.id.slice(separator + 1);
	const roots: Record<string, string[]> = {
		'filesystem-v2': [join(userFolder, '.n8n', 'storage'), join(userFolder, '.n8n', 'binaryData')],
		filesystem: [join(userFolder, '.n8n', 'binaryData'), join(userFolder, '.n8n', 'storage')],
		// Queue mode on 2.x keeps files in Postgres; the queue suite fetches them here through main's REST API.
		database: [join(userFolder, '.n8n', 'database')],
	};
	for (const root of roots[mode] ?? []) {
		const file = join(root, path);
		if (existsSync(file)) return readFileSync(file);
	}
	throw new Error(`binary ${ref.id} not found in ${userFolder}/.n8n (mode ${mode})`);
}
