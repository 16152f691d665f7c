import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { credentials } from '../shared/ui/description';
import { check } from './actions/check';
import { create } from './actions/create';
import { remove } from './actions/delete';
import { estimateCost } from './actions/estimateCost';
import { get } from './actions/get';
import { getMany } from './actions/getMany';
import { listModels } from './actions/listModels';

const operations: readonly Operation[] = [
	create,
	check,
	get,
	getMany,
	estimateCost,
	listModels,
	remove,
];

export class VisionStoryAiVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory AI Video',
		name: 'visionStoryAiVideo',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"create":"Create","check":"Check Status","get":"Get","getMany":"Get Many","estimateCost":"Estimate Cost","listModels":"List Models","delete":"Delete"}[$parameter["operation"]] }}',
		description: 'Generate videos from a prompt, frames and reference media with VisionStory',
		defaults: { name: 'VisionStory AI Video' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Check Status routes finished videos and those still rendering to two outputs.
		outputs: `={{{"check":[{"type":"main","displayName":"Finished"},{"type":"main","displayName":"Still Rendering"}]}[$parameter.operation] ?? ["main"]}}`,
		credentials,
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					create.option,
					check.option,
					get.option,
					getMany.option,
					estimateCost.option,
					listModels.option,
					remove.option,
				],
				default: 'create',
			},
			...create.properties,
			...check.properties,
			...get.properties,
			...getMany.properties,
			...estimateCost.properties,
			...listModels.properties,
			...remove.properties,
		],
	};

	methods = { listSearch, loadOptions };

	execute = routerFor(operations);
}
