import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { getManyOperation, statusFilter } from '../../../shared/framework/lists';
import {
	limit,
	returnAll,
	toolDescription,
	videoStatusFilters,
} from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many talking videos',
	description: 'List your talking videos, newest first',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List your talking videos, newest first: video_id, status, video_url. Free. Use Limit to keep the list short.',
	),
	returnAll,
	limit,
	videoStatusFilters(),
];

export const getMany = getManyOperation({
	option,
	properties,
	list: 'listTalkingVideos',
	filters: statusFilter,
});
