import type { INodeProperties } from 'n8n-workflow';
import { locatorModes } from '../../../shared/descriptions/parameters';

export const videoId: INodeProperties = {
	displayName: 'Video',
	name: 'videoId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The talking video to use',
	...locatorModes('searchTalkingVideos'),
};
