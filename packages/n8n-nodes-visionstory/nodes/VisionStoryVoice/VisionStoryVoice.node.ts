import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { clone } from './actions/clone';
import { remove } from './actions/delete';
import { getMany } from './actions/getMany';

const operations: readonly Operation[] = [getMany, clone, remove];

export class VisionStoryVoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Voice',
		name: 'visionStoryVoice',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"getMany":"Get Many","clone":"Clone","delete":"Delete"}[$parameter["operation"]] }}',
		description: 'List, clone and delete VisionStory voices',
		defaults: { name: 'VisionStory Voice' },
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
				options: [getMany.option, clone.option, remove.option],
				default: 'getMany',
			},
			...getMany.properties,
			...clone.properties,
			...remove.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
