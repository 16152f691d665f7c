import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
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

async function prepare(ctx: OperationContext, index: number): Promise<Checked<'deleteAsset'>> {
	return ctx.client.validate('deleteAsset', { asset_id: param.id(ctx.n8n, 'assetId', index) });
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'deleteAsset'>>,
): Promise<INodeExecutionData[]> {
	const result = await ctx.client.send('deleteAsset', item.request, { signal: ctx.signal });
	return [{ json: { asset_id: item.request.asset_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteAsset'>> = {
	option,
	properties,
	prepare,
	execute,
};
