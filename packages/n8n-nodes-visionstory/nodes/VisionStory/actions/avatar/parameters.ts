import type { INodeProperties } from 'n8n-workflow';
import { locatorModes } from '../../../shared/descriptions/parameters';

export const avatarId: INodeProperties = {
	displayName: 'Avatar',
	name: 'avatarId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'One of your own avatars (public library avatars cannot be changed)',
	...locatorModes('searchOwnAvatars'),
};
