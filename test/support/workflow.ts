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

/** The node type of the one VisionStory node. */
export const VISIONSTORY = 'n8n-nodes-visionstory.visionStory';

/**
 * A manual trigger feeding the VisionStory node set to `resource` (`talkingVideo`), as the editor would
 * save it; the other parameters (the operation among them) are stored as given, expressions included.
 */
export function oneNode(
	resource: string,
	parameters: INode['parameters'],
	settings: NodeSettings = {},
): WorkflowJson {
	return {
		name: `${resource} under test`,
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
				type: VISIONSTORY,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource, ...parameters },
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
