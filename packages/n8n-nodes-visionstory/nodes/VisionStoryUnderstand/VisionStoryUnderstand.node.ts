import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { analyze } from './actions/analyze';

const operations: readonly Operation[] = [analyze];

export class VisionStoryUnderstand implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Understand',
		name: 'visionStoryUnderstand',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ {"analyze":"Analyze"}[$parameter["operation"]] }}',
		description: 'Turn images, audio and video into structured JSON with VisionStory',
		defaults: { name: 'VisionStory Understand' },
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
				options: [analyze.option],
				default: 'analyze',
			},
			...analyze.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
