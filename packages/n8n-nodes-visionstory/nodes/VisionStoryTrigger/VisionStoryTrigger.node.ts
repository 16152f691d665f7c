import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentials } from '../shared/descriptions/credentials';
import { outputBinaryProperty } from '../shared/descriptions/parameters';
import { pollVisionStory } from './trigger';

export class VisionStoryTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Trigger',
		name: 'visionStoryTrigger',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["events"].length === 1 ? ($parameter["events"][0] === "aiVideo" ? "AI Video Finished" : "Talking Video Finished") : "Video Finished"}}',
		description: 'Starts the workflow when a VisionStory talking video or AI video finishes',
		defaults: { name: 'VisionStory Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'AI Video Finished',
						value: 'aiVideo',
						description: 'An AI video task finished',
					},
					{
						name: 'Talking Video Finished',
						value: 'talkingVideo',
						description: 'A talking-avatar video task finished',
					},
				],
				default: ['talkingVideo', 'aiVideo'],
				description: 'Which kinds of video task start the workflow',
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Failed',
						value: 'failed',
						description: 'Failed; its credits were refunded (status failed)',
					},
					{
						name: 'Ready',
						value: 'created',
						description: 'Rendered; the video can be downloaded (status created)',
					},
				],
				default: ['created'],
				description: 'Which outcomes start the workflow; each task starts it once',
			},
			{
				displayName: 'Download Result',
				name: 'downloadResult',
				type: 'boolean',
				default: false,
				description: 'Whether to put a finished video into a binary field of the output item',
			},
			outputBinaryProperty,
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollVisionStory(this);
	}
}
