import type { INodeProperties } from 'n8n-workflow';

export const videoId: INodeProperties = {
	displayName: 'Video',
	name: 'videoId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The talking video to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchTalkingVideos',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a2b3c4d' },
	],
};
