import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { synthesize } from './actions/synthesize';

const operations: readonly Operation[] = [synthesize];

export class VisionStoryTextToSpeech implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Text to Speech',
		name: 'visionStoryTextToSpeech',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ {"synthesize":"Synthesize"}[$parameter["operation"]] }}',
		description: 'Turn text into natural speech (MP3) with VisionStory voices',
		defaults: { name: 'VisionStory Text to Speech' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [synthesize.option],
				default: 'synthesize',
			},
			...synthesize.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
