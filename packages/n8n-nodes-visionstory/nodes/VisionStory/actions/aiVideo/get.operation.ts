import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { idList } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import { attachVideo, videoJson } from '../../../shared/framework/download';
import { outputFieldOf } from '../../../shared/framework/videoTasks';
import { getAiVideos } from './getSeveral';
import { locatorModes, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an AI video',
	description: 'Get the status of one AI video, or of several at once',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Get an AI video by video_id: status (queued, creating, created, failed), video_url when created, duration_sec and cost_credit. Free.',
	),
	{
		displayName: 'Select',
		name: 'select',
		type: 'options',
		options: [
			{ name: 'One Video', value: 'one' },
			{ name: 'Several Videos', value: 'many', description: 'Up to 20 IDs, one output item each' },
		],
		default: 'one',
	},
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The AI video to use',
		displayOptions: { show: { select: ['one'] } },
		...locatorModes('searchAiVideos'),
	},
	{
		displayName: 'Video IDs',
		name: 'videoIds',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { select: ['many'] } },
		placeholder: 'e.g. vid_1, vid_2',
		description: 'Comma-separated video IDs, at most 20',
	},
	{
		displayName: 'Download Result',
		name: 'downloadResult',
		type: 'boolean',
		default: false,
		description: 'Whether to put a finished video into a binary field of the output item',
		displayOptions: { show: { select: ['one'] } },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'outputBinaryProperty',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: { select: ['one'], downloadResult: [true] } },
	},
];

/** One video by its locator, or several from a comma-separated list (at most 20: one status call). */
async function prepare(ctx: OperationContext, index: number): Promise<Checked<'getAiVideo'>> {
	const context = ctx.n8n;
	if (param.string(context, 'select', index) === 'many') {
		return ctx.client.validate('getAiVideo', {
			video_ids: idList(param.string(context, 'videoIds', index)),
		});
	}
	return ctx.client.validate('getAiVideo', { video_id: param.id(context, 'videoId', index) });
}

/** One video task, with a finished video as binary when asked; or several, one output item each. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'getAiVideo'>>,
): Promise<INodeExecutionData[]> {
	const { video_id, video_ids } = item.request;
	if (video_ids) return await getAiVideos(ctx, video_ids);
	const task = await ctx.client.getAiVideo({ video_id: video_id ?? '' }, { signal: ctx.signal });
	if (param.boolean(ctx.n8n, 'downloadResult', item.index) && task.status === 'created') {
		return [await attachVideo(ctx, 'aiVideo', task, outputFieldOf(ctx.n8n, item.index))];
	}
	return [{ json: videoJson('aiVideo', task) }];
}

export const get: Operation<Checked<'getAiVideo'>> = {
	option,
	properties,
	reportsSpend: true,
	prepare,
	execute,
};
