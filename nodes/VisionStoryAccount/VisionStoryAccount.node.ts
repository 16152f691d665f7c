import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';

export const accountOperations: OperationDef[] = [
	callOperation({
		value: 'getCredits',
		name: 'Get Credits',
		action: 'Get the credit balance',
		description: 'Get how many credits your VisionStory account has left (free)',
		toolDescription:
			'Tell how many VisionStory credits the account has left. Free.',
		call: 'getCredits',
		request: () => ({}),
		properties: [],
	}),
];

export class VisionStoryAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Account',
		name: 'visionStoryAccount',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(accountOperations),
		description: 'Read your VisionStory account, e.g. the credits left',
		defaults: { name: 'VisionStory Account' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(accountOperations, 'getCredits'), ...operationProperties(accountOperations)],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, accountOperations);
	}
}
