import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../shared/framework/action';
import { routerFor } from '../shared/framework/router';
import { listSearch } from '../shared/methods/listSearch';
import { credentials } from '../shared/ui/description';
import { align } from './actions/align';
import { transcribe } from './actions/transcribe';

const operations: readonly Operation[] = [align, transcribe];

export class VisionStoryAlign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Align',
		name: 'visionStoryAlign',
		icon: {
			light: 'file:../../icons/visionstory.svg',
			dark: 'file:../../icons/visionstory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ {"align":"Align","transcribe":"Transcribe"}[$parameter["operation"]] }}',
		description: 'Word timings and subtitles from speech with VisionStory',
		defaults: { name: 'VisionStory Align' },
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
				options: [align.option, transcribe.option],
				default: 'align',
			},
			...align.properties,
			...transcribe.properties,
		],
	};

	methods = { listSearch };

	execute = routerFor(operations);
}
