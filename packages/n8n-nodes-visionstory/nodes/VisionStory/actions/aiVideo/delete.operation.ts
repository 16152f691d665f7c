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
	action: 'Delete an AI video',
	description: 'Delete one of your AI videos for good',
};

const properties: INodeProperties[] = [
	toolDescription('Delete an AI video. Delete one of your AI videos for good.'),
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The AI video to use',
		...locatorModes('searchAiVideos'),
	},
];

async function prepare(ctx: OperationContext, index: number): Promise<Checked<'deleteAiVideo'>> {
	return ctx.client.validate('deleteAiVideo', {
		video_id: param.id(ctx.n8n, 'videoId', index),
	});
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'deleteAiVideo'>>,
): Promise<INodeExecutionData[]> {
	const result = await ctx.client.send('deleteAiVideo', item.request, { signal: ctx.signal });
	return [{ json: { video_id: item.request.video_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteAiVideo'>> = {
	option,
	properties,
	prepare,
	execute,
};
