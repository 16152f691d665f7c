import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { credentials } from '../shared/ui/description';
import { getCredits } from './actions/getCredits';

const operations: readonly Operation[] = [getCredits];

export class VisionStoryAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Account',
		name: 'visionStoryAccount',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ {"getCredits":"Get Credits"}[$parameter["operation"]] }}',
		description: 'Read your VisionStory account, e.g. the credits left',
		defaults: { name: 'VisionStory Account' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [getCredits.option],
				default: 'getCredits',
			},
			...getCredits.properties,
		],
	};

	execute = routerFor(operations);
}
