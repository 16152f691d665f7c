import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { deleteOperation } from '../../../shared/framework/commonOperations';
import { locatorModes, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an AI video',
	description: 'Delete one of your AI videos for good',
};

const properties: INodeProperties[] = [
	toolDescription('Delete an AI video. Delete one of your AI videos for good.'),
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The AI video to use',
		...locatorModes('searchAiVideos'),
	},
];

export const remove = deleteOperation({
	option,
	properties,
	endpoint: 'deleteAiVideo',
	idParameter: 'videoId',
});
