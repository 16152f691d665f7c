import type { INodeProperties } from 'n8n-workflow';
import { locatorModes } from '../../../shared/descriptions/parameters';

export const modelId: INodeProperties = {
	displayName: 'Model',
	name: 'modelId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The model decides the durations, resolutions and media it accepts',
	...locatorModes('searchAiVideoModels'),
};

export const duration: INodeProperties = {
	displayName: 'Duration (Seconds) Name or ID',
	name: 'duration',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: 'getAiVideoDurations',
		loadOptionsDependsOn: ['modelId.value'],
	},
	default: '',
	description:
		'Length of the video; the list shows what the model offers. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const resolution: INodeProperties = {
	displayName: 'Resolution Name or ID',
	name: 'resolution',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: 'getAiVideoResolutions',
		loadOptionsDependsOn: ['modelId.value'],
	},
	default: '',
	description:
		'Higher resolutions cost more credits. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const generateAudio: INodeProperties = {
	displayName: 'Generate Audio',
	name: 'generateAudio',
	type: 'boolean',
	default: false,
	description: 'Whether the model also makes a soundtrack (never changes the price)',
};
