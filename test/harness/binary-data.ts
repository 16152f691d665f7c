import { ExecutionsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	BinaryDataConfig,
	BinaryDataService,
	ErrorReporter,
	InstanceSettings,
	StorageConfig,
} from 'n8n-core';
import { AsyncLocalStorage } from 'node:async_hooks';

import type { HarnessOptions } from './types';
import type { createQuietLogger } from './logger';

export type BinaryMode = NonNullable<HarnessOptions['binaryMode']>;

/** One harness's binary data store: n8n-core's own service, configured for one mode and folder. */
export interface BinaryStore {
	mode: BinaryMode;
	config: BinaryDataConfig;
	service: BinaryDataService;
	/** Set by shutdown: the store's folder is deleted and it must not be used any more. */
	released: boolean;
}

/**
 * n8n-core looks both services up in the DI container at the moment it needs them
 * (`Container.get(BinaryDataService)` inside prepareBinaryData, getBinaryDataBuffer, …), and the
 * container is one per process. Several harnesses with different modes may be alive in one test
 * file, so the container holds a router instead, which forwards each call to the store of the
 * harness whose run/poll is on the current async call chain (AsyncLocalStorage follows awaits,
 * timers and streams). Outside any harness call it falls back to the only live store, if one.
 */
const activeStore = new AsyncLocalStorage<BinaryStore>();
const liveStores = new Set<BinaryStore>();

export function withBinaryStore<T>(store: BinaryStore, fn: () => T): T {
	return activeStore.run(store, fn);
}

function currentStore(): BinaryStore {
	const store = activeStore.getStore();
	if (store) return store;
	if (liveStores.size === 1) return [...liveStores][0];
	throw new Error(
		`n8n-core asked for binary data outside a harness call while ${liveStores.size} harnesses are alive; ` +
			'use RunResult.binary() or run it inside harness.run()/poll()',
	);
}

/** A stand-in whose every property read is forwarded to the object `target()` returns right now. */
function forwardTo<T extends object>(target: () => T): T {
	return new Proxy({} as T, {
		get(_unused, property) {
			const real = target();
			const value: unknown = Reflect.get(real, property, real);
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(real)
				: value;
		},
		set(_unused, property, value) {
			return Reflect.set(target(), property, value);
		},
	});
}

/** Registers the routers in the DI container; call once after each container reset. */
export function installBinaryDataRouting(): void {
	Container.set(
		BinaryDataService,
		forwardTo(() => currentStore().service),
	);
	Container.set(
		BinaryDataConfig,
		forwardTo(() => currentStore().config),
	);
}

/**
 * Builds the store the way n8n's CLI does at start-up (BinaryDataConfig from the container's
 * instance settings, then `BinaryDataService.init()`), with the mode and folder overridden.
 * In `default` mode n8n-core registers no manager for the mode, which is exactly what makes it keep
 * the bytes in memory; `filesystem` is served by its `filesystem-v2` blob manager under `storagePath`.
 */
export async function createBinaryStore(
	mode: BinaryMode,
	storagePath: string,
	logger: ReturnType<typeof createQuietLogger>,
): Promise<BinaryStore> {
	const config = new BinaryDataConfig(
		Container.get(InstanceSettings),
		Container.get(ExecutionsConfig),
		Container.get(StorageConfig),
	);
	config.mode = mode;
	config.availableModes = ['default', 'filesystem'];
	config.localStoragePath = storagePath;
	const service = new BinaryDataService(config, Container.get(ErrorReporter), logger);
	await service.init();
	const store: BinaryStore = { mode, config, service, released: false };
	liveStores.add(store);
	return store;
}

export function releaseBinaryStore(store: BinaryStore): void {
	store.released = true;
	liveStores.delete(store);
}
