import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { deleteOperation } from '../../../shared/framework/commonOperations';
import { toolDescription } from '../../../shared/descriptions/parameters';
import { videoId } from './parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a talking video',
	description: 'Delete one of your talking videos for good',
};

const properties: INodeProperties[] = [
	toolDescription('Delete a talking video. Delete one of your talking videos for good.'),
	videoId,
];

export const remove = deleteOperation({
	option,
	properties,
	endpoint: 'deleteTalkingVideo',
	idParameter: 'videoId',
});
