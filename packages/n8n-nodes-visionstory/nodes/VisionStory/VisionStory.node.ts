import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { credentials } from '../shared/descriptions/credentials';
import { operationProperties, outputs, resourceOptions } from './actions/description';
import { DEFAULT_RESOURCE } from './actions/resources';
import { router } from './actions/router';

export class VisionStory implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory',
		name: 'visionStory',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create talking videos, AI videos and images, convert text to speech, transcribe audio and manage avatars and voices with VisionStory',
		defaults: { name: 'VisionStory' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs,
		credentials,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: DEFAULT_RESOURCE,
			},
			...operationProperties,
		],
	};

	methods = { listSearch, loadOptions };

	execute = router;
}
