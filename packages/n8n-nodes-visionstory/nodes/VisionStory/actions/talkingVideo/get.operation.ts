import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
import { attachVideo, videoJson } from '../../../shared/framework/download';
import { outputFieldOf } from '../../../shared/framework/videoTasks';
import { outputBinaryProperty, toolDescription } from '../../../shared/descriptions/parameters';
import { videoId } from './parameters';

const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a talking video',
	description: 'Get the status of a talking video and, when ready, the video itself',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Get one talking video by video_id: status (queued, creating, created, failed), video_url when created, duration_sec and cost_credit. Free.',
	),
	videoId,
	{
		displayName: 'Download Result',
		name: 'downloadResult',
		type: 'boolean',
		default: false,
		description: 'Whether to put a finished video into a binary field of the output item',
	},
	outputBinaryProperty,
];

async function prepare(ctx: OperationContext, index: number): Promise<Checked<'getTalkingVideo'>> {
	return ctx.client.validate('getTalkingVideo', {
		video_id: param.id(ctx.n8n, 'videoId', index),
	});
}

/** One video task; with Download Result, a finished video comes along as binary. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'getTalkingVideo'>>,
): Promise<INodeExecutionData[]> {
	const task = await ctx.client.send('getTalkingVideo', item.request, { signal: ctx.signal });
	if (param.boolean(ctx.n8n, 'downloadResult', item.index) && task.status === 'created') {
		return [await attachVideo(ctx, 'talkingVideo', task, outputFieldOf(ctx.n8n, item.index))];
	}
	return [{ json: videoJson('talkingVideo', task) }];
}

export const get: Operation<Checked<'getTalkingVideo'>> = {
	option,
	properties,
	reportsSpend: true,
	prepare,
	execute,
};
