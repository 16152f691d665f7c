import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { listEntries, wantedOf } from '../../../shared/framework/lists';
import { param } from '../../../shared/framework/params';
import {
	limit,
	returnAll,
	toolDescription,
	videoStatuses,
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
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: videoStatuses,
				default: [],
				description: 'Queued and Creating together are the videos holding your concurrency slots',
			},
		],
	},
];

/** The status filter, checked; paging is added per page. */
async function prepare(ctx: OperationContext, index: number): Promise<Checked<'listAiVideos'>> {
	const status = param.collection(ctx.n8n, 'filters', index).status;
	return ctx.client.validate(
		'listAiVideos',
		Array.isArray(status) && status.length ? { status: status.map(String) } : {},
	);
}

async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'listAiVideos'>>,
): Promise<INodeExecutionData[]> {
	const videos = await listEntries(ctx, 'listAiVideos', item.request, {
		wanted: wantedOf(ctx, item.index),
		pageSize: 100,
	});
	return videos.map((json) => ({ json }));
}

export const getMany: Operation<Checked<'listAiVideos'>> = {
	option,
	properties,
	prepare,
	execute,
};
