import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { listModelsOperation } from '../../../shared/framework/commonOperations';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'List Models',
	value: 'listModels',
	action: 'List AI video models',
	description: 'List the models with their durations, resolutions and media limits',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List the AI video models with their durations, resolutions and prompt limits. Free.',
	),
];

export const listModels = listModelsOperation({ option, properties, models: 'listAiVideoModels' });
