/**
 * Runs the Node-RED package's nodes in Node-RED's runtime (node-red-node-test-helper) against the
 * emulator, with their texts from the built catalogues (dist/locales) through Node-RED's own i18n.
 */
import { i18n } from '@node-red/util';
import type { NodeAPI } from 'node-red';
import helper from 'node-red-node-test-helper';
import { join } from 'node:path';
import type { SinonSpy } from 'sinon';

import { nodes } from '../../packages/node-red-visionstory/src';
import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { fileOf } from '../../scripts/node-red/build';
import { startEmulator, type Emulator } from '../emulator';

helper.init(require.resolve('node-red'));

export { helper };

/** Node-RED's namespace of a node set's catalogue: the set's id, as the runtime registers it. */
const namespaceOf = (type: string) => `@visionstory/node-red-visionstory/${type}`;

let catalogues: Promise<unknown> | undefined;
/** The built catalogues, registered with Node-RED's i18n as the runtime registers a package's. */
export async function registerCatalogues(): Promise<void> {
	// Node-RED's runtime initialises it at start; the helper runs no runtime start.
	(i18n as typeof i18n & { init(settings: object): void }).init({ lang: 'en-US' });
	catalogues ??= Promise.all(
		Object.keys(nodes).map((type) =>
			i18n.registerMessageCatalog(
				namespaceOf(type),
				join(NODE_RED_PACKAGE_DIR, 'dist', 'locales'),
				`${fileOf(type)}.json`,
			),
		),
	);
	await catalogues;
}

/** RED._ of a node set in `language`, as Node-RED gives each set its own. */
export function translator(type: string, language?: string): NodeAPI['_'] {
	return (key, substitutions) =>
		i18n._(`${namespaceOf(type)}:${key}`, {
			...substitutions,
			...(language ? { lng: language } : {}),
		});
}

/** Each node type's registration, with RED._ speaking the set's catalogue (the helper's returns the key). */
export function nodesIn(language?: string) {
	return Object.entries(nodes).map(([type, register]) => async (RED: NodeAPI) => {
		await registerCatalogues();
		// As Node-RED loads the language of settings.lang when it starts.
		if (language)
			await (
				i18n as unknown as { i: { loadLanguages(l: string): Promise<unknown> } }
			).i.loadLanguages(language);
		const own = Object.create(RED) as NodeAPI;
		own._ = translator(type, language);
		register(own);
	});
}

/** Every node type of the package, as the helper loads them. */
export const ALL_NODES = nodesIn();

/** A node of the loaded flow as the tests drive it: its input, the helper's `call:<method>` events, sinon's spies. */
export interface TestNode {
	id: string;
	receive(msg: object): void;
	on(event: string, listener: (arg: any) => void): void;
	warn: SinonSpy;
	error: SinonSpy;
	status: SinonSpy;
}

export function nodeOf(id: string): TestNode {
	return helper.getNode(id) as unknown as TestNode;
}

export interface FlowNode {
	id: string;
	type: string;
	[key: string]: unknown;
}

/** A config node pointing at the emulator, and its credentials. */
export function configNode(baseUrl: string, extra: Record<string, unknown> = {}): FlowNode {
	return { id: 'cfg', type: 'visionstory-config', name: 'emulator', baseUrl, ...extra };
}

export function credentials(apiKey: string) {
	return { cfg: { apiKey } };
}

/**
 * A node under test wired to helper nodes: `out1` (results), `failed` (output 2, failures) and `out3`
 * (Check Status: still rendering), plus a Catch node that must stay silent for the node's own failures.
 */
export function flowWith(
	node: { type: string; [key: string]: unknown },
	baseUrl: string,
	config: Record<string, unknown> = {},
): FlowNode[] {
	return [
		{ id: 'f1', type: 'tab', label: 'test' },
		configNode(baseUrl, config),
		{
			id: 'n1',
			z: 'f1',
			x: 100,
			y: 100,
			config: 'cfg',
			wires: [['out1'], ['failed'], ['out3']],
			...node,
		},
		{ id: 'out1', z: 'f1', x: 300, y: 100, type: 'helper' },
		{ id: 'failed', z: 'f1', x: 300, y: 200, type: 'helper' },
		{ id: 'out3', z: 'f1', x: 300, y: 250, type: 'helper' },
		...catchNodes(),
	];
}

/** A Catch node for the whole tab, wired to the helper node `caught`. */
export function catchNodes(): FlowNode[] {
	return [
		{
			id: 'catch',
			z: 'f1',
			x: 100,
			y: 300,
			type: 'catch',
			scope: null,
			uncaught: false,
			wires: [['caught']],
		},
		{ id: 'caught', z: 'f1', x: 300, y: 300, type: 'helper' },
	];
}

/** The next message a helper node receives. */
export function next(id: string): Promise<Record<string, unknown>> {
	return new Promise((resolve) => nodeOf(id).on('input', resolve));
}

export type Output = 'out1' | 'failed' | 'out3' | 'caught';

/** Sends a message into node n1 and waits for the first of: output 1, 2 (failed) or 3, or the Catch node. */
export async function run(
	msg: Record<string, unknown>,
): Promise<{ output: Output; msg: Record<string, unknown> }> {
	const outputs = (['out1', 'failed', 'out3', 'caught'] as const).map((id) =>
		next(id).then((m) => ({ output: id, msg: m })),
	);
	nodeOf('n1').receive(msg);
	return await Promise.race(outputs);
}

/** An emulator for one test file, reset before each test; the flow is unloaded after each. */
export function useEmulator(): { readonly emulator: Emulator } {
	const env = {} as { emulator: Emulator };
	beforeAll(async () => {
		env.emulator = await startEmulator({ renderMs: 300 });
	});
	afterAll(async () => await env.emulator?.stop());
	beforeEach(() => env.emulator.reset());
	afterEach(async () => await helper.unload());
	return env;
}
