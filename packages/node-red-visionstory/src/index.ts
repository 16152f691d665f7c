/**
 * The bundle's entry: each node type's registration function, by type. Node-RED loads one small file
 * per node set (dist/<name>.js) that picks its function from here, so the API client is bundled once.
 */
import { registerConfig } from './config';
import { ACTION_NODES } from './nodes';
import type { RED } from './red';
import { registerAction } from './runtime';
import { registerWatch } from './watch';

export const nodes: Record<string, (RED: RED) => void> = {
	'visionstory-config': registerConfig,
	...Object.fromEntries(
		ACTION_NODES.map((spec) => [spec.type, (RED: RED) => registerAction(RED, spec)]),
	),
	'visionstory-watch': registerWatch,
};
