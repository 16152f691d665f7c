/** Runs the Node-RED package's nodes in Node-RED's runtime (node-red-node-test-helper) against the emulator. */
import helper from 'node-red-node-test-helper';

import { nodes } from '../../packages/node-red-visionstory/src';
import { startEmulator, type Emulator } from '../emulator';

helper.init(require.resolve('node-red'));

export { helper };

/** Every node type of the package, as the helper loads them. */
export const ALL_NODES = Object.values(nodes);

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

type HelperNode = { on(event: 'input', cb: (msg: Record<string, unknown>) => void): void };

/** The next message a helper node receives. */
export function next(id: string): Promise<Record<string, unknown>> {
	const node = helper.getNode(id) as unknown as HelperNode;
	return new Promise((resolve) => node.on('input', resolve));
}

export type Output = 'out1' | 'failed' | 'out3' | 'caught';

/** Sends a message into node n1 and waits for the first of: output 1, 2 (failed) or 3, or the Catch node. */
export async function run(
	msg: Record<string, unknown>,
): Promise<{ output: Output; msg: Record<string, unknown> }> {
	const outputs = (['out1', 'failed', 'out3', 'caught'] as const).map((id) =>
		next(id).then((m) => ({ output: id, msg: m })),
	);
	(helper.getNode('n1') as unknown as { receive(m: unknown): void }).receive(msg);
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
