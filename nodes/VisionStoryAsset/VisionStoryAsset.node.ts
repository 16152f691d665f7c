import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { InlineData } from '../shared/api/contract';
import { ALL_MEDIA_MIME_TYPES, ASSET_KINDS, ASSET_MAX_BYTES } from '../shared/api/contract';
import { callOperation, listOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { deleteResult, filtersOf, optional } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { assetLocator, capitalize, filters, mediaFields, returnAllLimit } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';

export const assetOperations: OperationDef[] = [
	callOperation({
		value: 'upload',
		name: 'Upload',
		action: 'Upload an asset',
		description: 'Add an image, video or audio file to your library, to reuse by ID in other nodes',
		call: 'uploadAsset',
		concurrency: 2,
		media: [{ name: 'file', rules: { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES } }],
		fieldParameters: { url: 'fileUrl', inline_data: 'fileBinaryProperty' },
		request: (_, media) => {
			const file = media.file as { url?: string; inline_data?: InlineData } | undefined;
			return { url: file?.url, inline_data: file?.inline_data };
		},
		properties: mediaFields({
			name: 'file',
			displayName: 'File',
			sources: ['binary', 'url'],
			required: true,
			description: 'Images up to 30 MB, audio up to 15 MB, video up to 100 MB. Uploading the same file twice returns the same asset.',
		}),
	}),
	listOperation({
		value: 'getMany',
		name: 'Get Many',
		action: 'Get many assets',
		description: 'List the files in your asset library, newest first',
		toolDescription:
			'List uploaded assets (asset_id, kind, URL). Free.',
		call: 'listAssets',
		pageSize: 100,
		fieldParameters: { kind: 'filters' },
		request: (p) => {
			const kind = optional(filtersOf(p).kind) as (typeof ASSET_KINDS)[number] | undefined;
			return kind ? { kind } : {};
		},
		items: (page) => page.assets,
		properties: [
			...returnAllLimit(),
			filters([
				{
					displayName: 'Kind',
					name: 'kind',
					type: 'options',
					options: ASSET_KINDS.map((k) => ({ name: capitalize(k), value: k })),
					default: 'image',
				},
			]),
		],
	}),
	callOperation({
		value: 'delete',
		name: 'Delete',
		action: 'Delete an asset',
		description: 'Remove a file from your asset library',
		call: 'deleteAsset',
		fieldParameters: { asset_id: 'assetId' },
		request: (p) => ({ asset_id: String(p.assetId ?? '') }),
		output: deleteResult('asset_id', 'assetId'),
		properties: [assetLocator('assetId', 'Asset')],
	}),
];

export class VisionStoryAsset implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Asset',
		name: 'visionStoryAsset',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(assetOperations),
		description: 'Upload, list and delete files in your VisionStory asset library',
		defaults: { name: 'VisionStory Asset' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(assetOperations, 'upload'), ...operationProperties(assetOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, assetOperations);
	}
}
