import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

import { createBinaryStore, releaseBinaryStore } from './binary-data';
import { testCredential } from './credential-test';
import { loadOptions, searchList } from './editor';
import type { EngineContext } from './engine-context';
import { acquireEngineEnvironment, releaseEngineEnvironment } from './environment';
import { HarnessNodeTypes } from './node-types';
import { loadPackageCredentialTypes, loadPackageNodeTypes } from './package';
import { pollOnce } from './poll';
import { runWorkflow } from './run';
import { standInNodeTypes } from './standins';
import type { Harness, HarnessOptions } from './types';

/**
 * An in-process n8n engine with this package's nodes and credential loaded. Create one per test
 * file (`beforeAll`) and shut it down in `afterAll`; several may be alive at once.
 */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	const env = await acquireEngineEnvironment();
	const binaryFolder = await mkdtemp(path.join(env.root, 'binary-'));
	const engine: EngineContext = {
		// Later entries win: a test may replace a stand-in or a package node with a fixture.
		nodeTypes: new HarnessNodeTypes({
			...standInNodeTypes(),
			...loadPackageNodeTypes(),
			...options.extraNodeTypes,
		}),
		credentialTypes: loadPackageCredentialTypes(),
		binaryStore: await createBinaryStore(options.binaryMode ?? 'default', binaryFolder, env.logger),
	};

	let alive = true;
	const live = (): EngineContext => {
		if (!alive) throw new Error('This harness has been shut down');
		return engine;
	};

	return {
		run: async (workflow, runOptions) => await runWorkflow(live(), workflow, runOptions),
		testCredential: async (type, data, options) =>
			await testCredential(live(), type, { ...data }, options),
		poll: async (node, pollOptions) => await pollOnce(live(), node, pollOptions),
		searchList: async (nodeType, parameter, call) =>
			await searchList(live(), nodeType, parameter, call),
		loadOptions: async (nodeType, parameter, call) =>
			await loadOptions(live(), nodeType, parameter, call),
		shutdown: async () => {
			if (!alive) return;
			alive = false;
			releaseBinaryStore(engine.binaryStore);
			await rm(binaryFolder, { recursive: true, force: true });
			await releaseEngineEnvironment();
		},
	};
}
