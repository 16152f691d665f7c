import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { ScheduledTaskManager } from 'n8n-core';
import { LoggerProxy } from 'n8n-workflow';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { installBinaryDataRouting } from './binary-data';
import { createQuietLogger } from './logger';

/**
 * Process-wide engine state that every live harness shares: the DI container (n8n-core resolves
 * its services from one global container) and N8N_USER_FOLDER (read once, when the container first
 * builds InstanceSettings). It is reference-counted: the first harness sets it up, the last one to
 * shut down resets the container, restores the environment and deletes the folder, so a later
 * harness in the same test file starts from a clean engine again.
 */
export interface EngineEnvironment {
	/** Temporary root folder; harnesses create their own sub-folders in it. */
	root: string;
	logger: ReturnType<typeof createQuietLogger>;
}

interface EngineState {
	env: EngineEnvironment;
	refs: number;
	previousUserFolder: string | undefined;
	scheduler: ScheduledTaskManager;
}

let current: EngineState | undefined;
let pending: Promise<EngineEnvironment> | undefined;

export async function acquireEngineEnvironment(): Promise<EngineEnvironment> {
	if (current) {
		current.refs++;
		return current.env;
	}
	// Two harnesses created concurrently must not both set the environment up.
	pending ??= setUp().finally(() => (pending = undefined));
	const env = await pending;
	current!.refs++;
	return env;
}

async function setUp(): Promise<EngineEnvironment> {
	const root = await mkdtemp(path.join(tmpdir(), 'n8n-harness-'));
	const previousUserFolder = process.env.N8N_USER_FOLDER;
	// n8n writes its settings file (with a generated encryption key) into the user folder; without
	// this it would use ~/.n8n of whoever runs the tests.
	process.env.N8N_USER_FOLDER = path.join(root, 'user');

	// Drop whatever an earlier harness (or other test code) left, so services are rebuilt from the
	// environment above.
	Container.reset();
	const logger = createQuietLogger();
	Container.set(Logger, logger);
	LoggerProxy.init(logger);
	installBinaryDataRouting();

	const env: EngineEnvironment = { root, logger };
	// The cron scheduler (behind PollContext's registerCron) starts a log interval when it is built
	// and runs real cron jobs; building it now lets shutdown stop exactly that instance.
	current = { env, refs: 0, previousUserFolder, scheduler: Container.get(ScheduledTaskManager) };
	return env;
}

export async function releaseEngineEnvironment(): Promise<void> {
	if (!current) return;
	current.refs--;
	if (current.refs > 0) return;
	const { env, previousUserFolder, scheduler } = current;
	current = undefined;
	stopTimers(scheduler);
	// Forget every service instance, so the next harness builds them afresh from its own settings.
	Container.reset();
	if (previousUserFolder === undefined) delete process.env.N8N_USER_FOLDER;
	else process.env.N8N_USER_FOLDER = previousUserFolder;
	await rm(env.root, { recursive: true, force: true });
}

/**
 * n8n-core 2.x unrefs its scheduler's log interval, but 1.x did not, and cron jobs a trigger
 * registered are real timers: stop both so nothing outlives the harness.
 */
function stopTimers(scheduler: ScheduledTaskManager): void {
	scheduler.deregisterGroups('workflow');
	clearInterval((scheduler as unknown as { logInterval?: NodeJS.Timeout }).logInterval);
}
