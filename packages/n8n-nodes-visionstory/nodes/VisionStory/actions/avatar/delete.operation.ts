import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { deleteOperation } from '../../../shared/framework/commonOperations';
import { toolDescription } from '../../../shared/descriptions/parameters';
import { avatarId } from './parameters';

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

export const remove = deleteOperation({
	option,
	properties,
	endpoint: 'deleteAvatar',
	idParameter: 'avatarId',
});
