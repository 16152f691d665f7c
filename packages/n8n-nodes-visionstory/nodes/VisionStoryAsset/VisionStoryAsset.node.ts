import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { remove } from './actions/delete';
import { getMany } from './actions/getMany';
import { upload } from './actions/upload';

const operations: readonly Operation[] = [upload, getMany, remove];

export class VisionStoryAsset implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Asset',
		name: 'visionStoryAsset',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"upload":"Upload","getMany":"Get Many","delete":"Delete"}[$parameter["operation"]] }}',
		description: 'Upload, list and delete files in your VisionStory asset library',
		defaults: { name: 'VisionStory Asset' },
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
				options: [upload.option, getMany.option, remove.option],
				default: 'upload',
			},
			...upload.properties,
			...getMany.properties,
			...remove.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
