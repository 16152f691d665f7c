import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { HttpRequest } from './http-request';
import { ManualTrigger } from './manual-trigger';
import { NoOp } from './no-op';
import { EditFields } from './set';

/**
 * Small stand-ins for the n8n core nodes test workflows use, under their real type names, so a
 * workflow exported from n8n runs unchanged. n8n-nodes-base itself is not installed: it is large,
 * and the package must not depend on it.
 */
export function standInNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	return {
		'n8n-nodes-base.manualTrigger': new ManualTrigger(),
		'n8n-nodes-base.set': new EditFields(),
		'n8n-nodes-base.noOp': new NoOp(),
		'n8n-nodes-base.httpRequest': new HttpRequest(),
	};
}
