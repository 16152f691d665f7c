import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { credentials } from '../shared/ui/description';
import { generate } from './actions/generate';
import { listModels } from './actions/listModels';

const operations: readonly Operation[] = [generate, listModels];

export class VisionStoryImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Image',
		name: 'visionStoryImage',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ {"generate":"Generate","listModels":"List Models"}[$parameter["operation"]] }}',
		description: 'Generate and edit images with VisionStory',
		defaults: { name: 'VisionStory Image' },
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
				options: [generate.option, listModels.option],
				default: 'generate',
			},
			...generate.properties,
			...listModels.properties,
		],
	};

	methods = { listSearch, loadOptions };

	execute = routerFor(operations);
}
