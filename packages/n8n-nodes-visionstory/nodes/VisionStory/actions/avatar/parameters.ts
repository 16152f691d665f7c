import type { INodeProperties } from 'n8n-workflow';

export const avatarId: INodeProperties = {
	displayName: 'Avatar',
	name: 'avatarId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'One of your own avatars (public library avatars cannot be changed)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchOwnAvatars',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a2b3c4d' },
	],
};
