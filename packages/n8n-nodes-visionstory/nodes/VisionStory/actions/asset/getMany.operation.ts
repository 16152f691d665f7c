import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { getManyOperation } from '../../../shared/framework/lists';
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

export const getMany = getManyOperation({
	option,
	properties,
	list: 'listAssets',
	/** The kind filter. */
	filters(ctx, index) {
		const kind = optional(param.collection(ctx.n8n, 'filters', index).kind);
		return kind ? { kind } : {};
	},
});
