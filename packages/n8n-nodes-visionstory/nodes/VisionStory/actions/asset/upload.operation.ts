import type { INodeProperties } from 'n8n-workflow';

import { ALL_MEDIA_MIME_TYPES, ASSET_MAX_BYTES } from '../../../shared/api/contract/index';
import type {
	Operation,
	OperationOption,
	OperationContext,
} from '../../../shared/framework/action';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { executeSending, oneFile } from '../../../shared/framework/mediaParams';
import {
	fileSources,
	mediaSourceFields,
	toolDescription,
} from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload an asset',
	description: 'Add an image, video or audio file to your library, to reuse by ID in other nodes',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Upload an asset. Add an image, video or audio file to your library, to reuse by ID in other nodes.',
	),
	{
		displayName: 'File Source',
		name: 'fileSource',
		type: 'options',
		options: fileSources,
		default: 'binary',
		description:
			'Images up to 30 MB, audio up to 15 MB, video up to 100 MB. Uploading the same file twice returns the same asset.',
	},
	...mediaSourceFields('file', 'File'),
];

const FILE_RULES = { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES };

/** Files up to 100 MB go up whole: two at a time. */
const CONCURRENCY = 2;

type UploadRequest = MediaRequest<'uploadAsset'>;

/** The file, checked; its API fields (url, inline_data) are checked under the parameters that set them. */
async function prepare(ctx: OperationContext, index: number): Promise<UploadRequest> {
	const file = await oneFile(ctx, index, 'file', FILE_RULES, 'uploadAsset');
	const request = ctx.client.validate('uploadAsset', {
		url: file.url,
		inline_data: file.inline_data,
	});
	return { request, media: file.media };
}

export const upload: Operation<UploadRequest> = {
	option,
	properties,
	prepare,
	execute: executeSending('uploadAsset'),
	concurrency: CONCURRENCY,
};
