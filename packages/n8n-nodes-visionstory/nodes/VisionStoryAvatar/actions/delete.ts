import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Checked } from '../../shared/api/client';
import type { Operation, OperationOption, Prepared, Run } from '../../shared/framework/action';
import { param } from '../../shared/framework/params';
import { avatarId } from './parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an avatar',
	description: 'Delete one of your avatars for good (public avatars cannot be deleted)',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default:
			'Delete an avatar. Delete one of your avatars for good (public avatars cannot be deleted).',
		displayOptions: { show: { '@tool': [true] } },
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
	avatarId,
];

async function prepare(run: Run, index: number): Promise<Checked<'deleteAvatar'>> {
	return run.client.validate('deleteAvatar', {
		avatar_id: param.id(run.context, 'avatarId', index),
	});
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	run: Run,
	item: Prepared<Checked<'deleteAvatar'>>,
): Promise<INodeExecutionData[]> {
	const result = await run.client.send('deleteAvatar', item.request, { signal: run.signal });
	return [{ json: { avatar_id: item.request.avatar_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteAvatar'>> = {
	option,
	properties: updateDisplayOptions({ show: { operation: ['delete'] } }, properties),
	prepare,
	execute,
};
