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
	action: 'Delete a voice',
	description: 'Delete one of your cloned voices',
};

const properties: INodeProperties[] = [
	toolDescription('Delete a voice. Delete one of your cloned voices.'),
	{
		displayName: 'Voice',
		name: 'voiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'One of your cloned voices (public voices cannot be deleted)',
		...locatorModes('searchOwnVoices'),
	},
];

async function prepare(ctx: OperationContext, index: number): Promise<Checked<'deleteVoice'>> {
	return ctx.client.validate('deleteVoice', { voice_id: param.id(ctx.n8n, 'voiceId', index) });
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'deleteVoice'>>,
): Promise<INodeExecutionData[]> {
	const result = await ctx.client.send('deleteVoice', item.request, { signal: ctx.signal });
	return [{ json: { voice_id: item.request.voice_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteVoice'>> = {
	option,
	properties,
	prepare,
	execute,
};
