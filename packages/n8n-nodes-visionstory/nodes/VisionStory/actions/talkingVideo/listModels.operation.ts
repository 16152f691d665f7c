import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { listModelsOperation } from '../../../shared/framework/commonOperations';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'List Models',
	value: 'listModels',
	action: 'List talking video models',
	description: 'List the models talking videos can be made with',
};

const properties: INodeProperties[] = [
	toolDescription('List the talking video models and the resolutions each supports. Free.'),
];

export const listModels = listModelsOperation({
	option,
	properties,
	models: 'listTalkingVideoModels',
});
