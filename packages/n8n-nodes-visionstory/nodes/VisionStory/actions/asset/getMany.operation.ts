import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { listEntries, wantedOf } from '../../../shared/framework/lists';
import { optional } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import { limit, returnAll, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many assets',
	description: 'List the files in your asset library, newest first',
};

const properties: INodeProperties[] = [
	toolDescription('List uploaded assets (asset_id, kind, URL). Free.'),
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
				displayName: 'Kind',
				name: 'kind',
				type: 'options',
				options: [
					{ name: 'Image', value: 'image' },
					{ name: 'Video', value: 'video' },
					{ name: 'Audio', value: 'audio' },
				],
				default: 'image',
			},
		],
	},
];

/** The kind filter, checked; paging is added per page. */
async function prepare(ctx: OperationContext, index: number): Promise<Checked<'listAssets'>> {
	const kind = optional(param.collection(ctx.n8n, 'filters', index).kind);
	return ctx.client.validate('listAssets', kind ? { kind } : {});
}

async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'listAssets'>>,
): Promise<INodeExecutionData[]> {
	const assets = await listEntries(ctx, 'listAssets', item.request, {
		wanted: wantedOf(ctx, item.index),
		pageSize: 100,
	});
	return assets.map((json) => ({ json }));
}

export const getMany: Operation<Checked<'listAssets'>> = {
	option,
	properties,
	prepare,
	execute,
};
