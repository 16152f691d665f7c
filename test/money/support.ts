import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import type { NodeSettings } from '../support/workflow';
import { oneNode } from '../support/workflow';

/**
 * What the money tests use of the package, in one place: where the spending client lives, and the
 * VisionStory node set to a resource and operation.
 */
export { SpendingClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spendingClient';
export { SpendLedger } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
export { AccountReservations } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/balance';
export { runTasks } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/taskRun';

export type Resource = 'talkingVideo' | 'aiVideo' | 'image' | 'textToSpeech' | 'align' | 'voice';

/** A manual trigger feeding one VisionStory node of `resource` running `operation`. */
export function moneyNode(
	resource: Resource,
	operation: string,
	parameters: INode['parameters'],
	settings: NodeSettings = {},
): WorkflowJson {
	return oneNode(resource, { operation, ...parameters }, settings);
}
