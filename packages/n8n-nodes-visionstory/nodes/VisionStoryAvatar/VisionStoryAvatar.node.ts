import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { create } from './actions/create';
import { remove } from './actions/delete';
import { getMany } from './actions/getMany';
import { updateFraming } from './actions/updateFraming';

const operations: readonly Operation[] = [create, getMany, updateFraming, remove];

export class VisionStoryAvatar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Avatar',
		name: 'visionStoryAvatar',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"create":"Create","getMany":"Get Many","updateFraming":"Update Framing","delete":"Delete"}[$parameter["operation"]] }}',
		description: 'Create, list, reframe and delete VisionStory avatars',
		defaults: { name: 'VisionStory Avatar' },
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
				options: [create.option, getMany.option, updateFraming.option, remove.option],
				default: 'create',
			},
			...create.properties,
			...getMany.properties,
			...updateFraming.properties,
			...remove.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
