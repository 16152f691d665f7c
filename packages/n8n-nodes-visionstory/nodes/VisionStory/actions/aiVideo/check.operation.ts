import type { INodeProperties } from 'n8n-workflow';

import { requestBudgetOf } from '../../../shared/n8n/client';
import type {
	ItemOutcome,
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
import { checkVideos } from '../../../shared/framework/videoTasks';
import {
	downloadResult,
	downloadResultAsTool,
	locatorModes,
	outputBinaryProperty,
	toolDescription,
} from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Check Status',
	value: 'check',
	action: 'Check the status of an AI video',
	description:
		'Route finished videos to the first output and those still rendering to the second, to wait in a loop with n8n’s Wait node',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Check a AI video by video_id: status (queued, creating: still rendering, call again in a minute; created: done, video_url is the MP4; failed: error says why, refunded), duration_sec and cost_credit. Free.',
	),
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '={{ $json.video_id }}' },
		required: true,
		description: 'The AI video to use',
		...locatorModes('searchAiVideos'),
		hint: 'Finished videos leave by the Finished output; those still rendering by Still Rendering, which you connect back to a Wait node',
	},
	downloadResult,
	downloadResultAsTool,
	outputBinaryProperty,
];

async function prepare(ctx: OperationContext, index: number): Promise<string> {
	return (
		ctx.client.validate('getAiVideo', { video_id: param.id(ctx.n8n, 'videoId', index) }).video_id ??
		''
	);
}

/** Every item's video read together; finished ones to the first output, those still rendering to the second. */
async function executeAll(
	ctx: OperationContext,
	items: Array<Prepared<string>>,
): Promise<ItemOutcome[]> {
	return await checkVideos(ctx, 'aiVideo', items, await requestBudgetOf(ctx.n8n));
}

export const check: Operation<string> = {
	option,
	properties,
	outputs: ['Finished', 'Still Rendering'],
	reportsSpend: true,
	prepare,
	executeAll,
};
