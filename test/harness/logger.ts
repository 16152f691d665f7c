import type { Logger as BackendLogger } from '@n8n/backend-common';
import type { LogMetadata, Logger as WorkflowLogger } from 'n8n-workflow';

type Level = 'error' | 'warn' | 'info' | 'debug';

// n8n logs every node start/finish and every handled node error; in a test run that is noise, so
// the harness logger is silent unless HARNESS_DEBUG=1 asks for it (then everything goes to stderr).
const enabled = (): boolean => process.env.HARNESS_DEBUG === '1';

/** Listeners a test adds to read what was logged (a node's progress lines), whether or not it is printed. */
export const logListeners = new Set<(level: Level, message: string) => void>();

function write(level: Level, message: string, metadata?: LogMetadata): void {
	for (const listener of logListeners) listener(level, message);
	if (!enabled()) return;
	const meta = metadata && Object.keys(metadata).length > 0 ? ` ${safeJson(metadata)}` : '';
	process.stderr.write(`[n8n ${level}] ${message}${meta}\n`);
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? v.message : v));
	} catch {
		return String(value);
	}
}

/**
 * One object serves both logger shapes n8n-core asks for: n8n-workflow's `LoggerProxy` and
 * @n8n/backend-common's `Logger` service (which services resolve from the DI container and
 * narrow with `scoped()`; scoping changes nothing here, so it returns the same logger).
 */
export function createQuietLogger(): WorkflowLogger & BackendLogger {
	const logger = {
		error: (message: string, metadata?: LogMetadata) => write('error', message, metadata),
		warn: (message: string, metadata?: LogMetadata) => write('warn', message, metadata),
		info: (message: string, metadata?: LogMetadata) => write('info', message, metadata),
		debug: (message: string, metadata?: LogMetadata) => write('debug', message, metadata),
		scoped: () => logger,
	};
	// The backend Logger class has private members, so no literal is assignable to it structurally.
	return logger as unknown as WorkflowLogger & BackendLogger;
}
