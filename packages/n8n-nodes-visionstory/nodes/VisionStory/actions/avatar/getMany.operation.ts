import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { getManyOperation } from '../../../shared/framework/lists';
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

export const getMany = getManyOperation({
	option,
	properties,
	list: 'listAvatars',
	/** Which library. */
	filters(ctx, index) {
		return { is_public: param.string(ctx.n8n, 'library', index) === 'public' };
	},
});
