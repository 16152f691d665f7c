import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { listModelsOperation } from '../../../shared/framework/commonOperations';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'List Models',
	value: 'listModels',
	action: 'List image models',
	description: 'List image models with their resolutions, reference limits and prices',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List the image models with their resolutions, reference limits and credit prices. Free.',
	),
];

export const listModels = listModelsOperation({ option, properties, models: 'listImageModels' });
