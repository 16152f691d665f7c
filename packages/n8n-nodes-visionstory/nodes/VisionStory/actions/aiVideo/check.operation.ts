import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { checkStatusOperation } from '../../../shared/framework/videoTasks';
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

export const check = checkStatusOperation('aiVideo', { option, properties });
