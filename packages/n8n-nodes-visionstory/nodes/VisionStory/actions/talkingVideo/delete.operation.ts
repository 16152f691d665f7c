import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
import { videoId } from './parameters';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a talking video',
	description: 'Delete one of your talking videos for good',
};

const properties: INodeProperties[] = [
	toolDescription('Delete a talking video. Delete one of your talking videos for good.'),
	videoId,
];

async function prepare(
	ctx: OperationContext,
	index: number,
): Promise<Checked<'deleteTalkingVideo'>> {
	return ctx.client.validate('deleteTalkingVideo', {
		video_id: param.id(ctx.n8n, 'videoId', index),
	});
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'deleteTalkingVideo'>>,
): Promise<INodeExecutionData[]> {
	const result = await ctx.client.send('deleteTalkingVideo', item.request, { signal: ctx.signal });
	return [{ json: { video_id: item.request.video_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteTalkingVideo'>> = {
	option,
	properties,
	prepare,
	execute,
};
