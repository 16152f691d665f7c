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

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a talking video',
	description: 'Delete one of your talking videos for good',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'Delete a talking video. Delete one of your talking videos for good.',
		displayOptions: { show: { '@tool': [true] } },
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
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
