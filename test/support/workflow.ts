import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { TRIGGER } from './engine';

/** The node under test in `oneNode` workflows. */
export const NODE = 'VisionStory';

/** The settings of a node a user picks in the editor's Settings tab. */
export type NodeSettings = Pick<
	INode,
	'onError' | 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'continueOnFail'
>;

/**
 * A manual trigger feeding one VisionStory node, as the editor would save it. `type` is the node's
 * short name (`visionStoryTalkingVideo`); parameters are stored as given, expressions included.
 */
export function oneNode(
	type: string,
	parameters: INode['parameters'],
	settings: NodeSettings = {},
): WorkflowJson {
	return {
		name: `${type} under test`,
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'node-under-test',
				name: NODE,
				type: `n8n-nodes-visionstory.${type}`,
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: { visionStoryApi: { id: 'vsCredential0001', name: 'VisionStory account' } },
				...settings,
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** A resource locator given by id (or by an expression), as saved workflows hold them. */
export function byId(value: string): { __rl: true; mode: 'id'; value: string } {
	return { __rl: true, mode: 'id', value };
}

/** The three On Error settings of the editor, as node settings. */
export const ON_ERROR = {
	stop: {},
	continueRegularOutput: { onError: 'continueRegularOutput' },
	continueErrorOutput: { onError: 'continueErrorOutput' },
} as const satisfies Record<string, NodeSettings>;
