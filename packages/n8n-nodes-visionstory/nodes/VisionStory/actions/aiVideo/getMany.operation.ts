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
	action: 'Get many AI videos',
	description: 'List your AI videos, newest first',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List your AI videos, newest first: video_id, status, video_url. Free. Use Limit to keep the list short.',
	),
	returnAll,
	limit,
	videoStatusFilters('Queued and Creating together are the videos holding your concurrency slots'),
];

export const getMany = getManyOperation({
	option,
	properties,
	list: 'listAiVideos',
	filters: statusFilter,
});
