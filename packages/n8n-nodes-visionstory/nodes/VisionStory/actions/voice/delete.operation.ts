import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { deleteOperation } from '../../../shared/framework/commonOperations';
import { locatorModes, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a voice',
	description: 'Delete one of your cloned voices',
};

const properties: INodeProperties[] = [
	toolDescription('Delete a voice. Delete one of your cloned voices.'),
	{
		displayName: 'Voice',
		name: 'voiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'One of your cloned voices (public voices cannot be deleted)',
		...locatorModes('searchOwnVoices'),
	},
];

export const remove = deleteOperation({
	option,
	properties,
	endpoint: 'deleteVoice',
	idParameter: 'voiceId',
});
