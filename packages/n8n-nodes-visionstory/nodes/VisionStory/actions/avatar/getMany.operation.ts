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
import { limit, returnAll, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many avatars',
	description: 'List your own avatars (with framing) or the public library',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List avatars (avatar_id, name, default_voice_id, preview image) to pick one for a talking video. Free. Use Limit to keep the list short.',
	),
	{
		displayName: 'Library',
		name: 'library',
		type: 'options',
		options: [
			{ name: 'My Avatars', value: 'own' },
			{ name: 'Public Library', value: 'public' },
		],
		default: 'own',
	},
	returnAll,
	limit,
];

/** Which library, checked; paging is added per page. */
async function prepare(ctx: OperationContext, index: number): Promise<Checked<'listAvatars'>> {
	return ctx.client.validate('listAvatars', {
		is_public: param.string(ctx.n8n, 'library', index) === 'public',
	});
}

async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'listAvatars'>>,
): Promise<INodeExecutionData[]> {
	const avatars = await listEntries(ctx, 'listAvatars', item.request, {
		wanted: wantedOf(ctx, item.index),
		pageSize: 100,
	});
	return avatars.map((json) => ({ json }));
}

export const getMany: Operation<Checked<'listAvatars'>> = {
	option,
	properties,
	prepare,
	execute,
};
