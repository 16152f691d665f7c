import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
import { avatarId } from './parameters';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an avatar',
	description: 'Delete one of your avatars for good (public avatars cannot be deleted)',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Delete an avatar. Delete one of your avatars for good (public avatars cannot be deleted).',
	),
	avatarId,
];

async function prepare(ctx: OperationContext, index: number): Promise<Checked<'deleteAvatar'>> {
	return ctx.client.validate('deleteAvatar', {
		avatar_id: param.id(ctx.n8n, 'avatarId', index),
	});
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'deleteAvatar'>>,
): Promise<INodeExecutionData[]> {
	const result = await ctx.client.send('deleteAvatar', item.request, { signal: ctx.signal });
	return [{ json: { avatar_id: item.request.avatar_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteAvatar'>> = {
	option,
	properties,
	prepare,
	execute,
};
