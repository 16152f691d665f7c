import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { deleteOperation } from '../../../shared/framework/commonOperations';
import { locatorModes, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an asset',
	description: 'Remove a file from your asset library',
};

const properties: INodeProperties[] = [
	toolDescription('Delete an asset. Remove a file from your asset library.'),
	{
		displayName: 'Asset',
		name: 'assetId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'A file from your VisionStory asset library',
		...locatorModes('searchAssets'),
	},
];

export const remove = deleteOperation({
	option,
	properties,
	endpoint: 'deleteAsset',
	idParameter: 'assetId',
});
