import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import {
	ALL_MEDIA_MIME_TYPES,
	ASSET_MAX_BYTES,
	HttpUrl,
	inlineData,
} from '../../../shared/api/contract/index';
import type { MediaInput } from '../../../shared/n8n/binary';
import { mediaParts } from '../../../shared/n8n/binary';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { ItemMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import { toolDescription } from '../../../shared/descriptions/parameters';

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
		options: [
			{ name: 'Binary File', value: 'binary', description: 'A file from a previous node' },
			{ name: 'URL', value: 'url', description: 'A public link VisionStory can download' },
		],
		default: 'binary',
		description:
			'Images up to 30 MB, audio up to 15 MB, video up to 100 MB. Uploading the same file twice returns the same asset.',
	},
	{
		displayName: 'File Input Binary Field',
		name: 'fileBinaryProperty',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { fileSource: ['binary'] } },
		hint: 'The name of the input binary field containing the file',
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/file',
		displayOptions: { show: { fileSource: ['url'] } },
		description: 'Public URL of the file',
	},
];

const FILE_RULES = { mimeTypes: ALL_MEDIA_MIME_TYPES, maxBytes: ASSET_MAX_BYTES };

/** Files up to 100 MB go up whole: two at a time. */
const CONCURRENCY = 2;

interface UploadRequest {
	request: Checked<'uploadAsset'>;
	/** The file behind the request's binary placeholder. */
	media: MediaInput[];
}

/** The file, checked; its API fields (url, inline_data) are checked under the parameters that set them. */
async function prepare(ctx: OperationContext, index: number): Promise<UploadRequest> {
	const media = new ItemMedia(ctx.n8n, index);
	const file = await media.one('file', FILE_RULES);
	media.check('uploadAsset');
	const request = ctx.client.validate('uploadAsset', {
		url: param.checked('fileUrl', file?.url, HttpUrl.nullish()),
		inline_data: param.checked(
			'fileBinaryProperty',
			file?.inline_data,
			inlineData(FILE_RULES).nullish(),
		),
	});
	return { request, media: media.inputs };
}

async function execute(
	ctx: OperationContext,
	item: Prepared<UploadRequest>,
): Promise<INodeExecutionData[]> {
	const asset = await ctx.client.send('uploadAsset', item.request.request, {
		signal: ctx.signal,
		media: mediaParts(ctx.n8n, item.request.media),
	});
	return [{ json: asset as IDataObject }];
}

export const upload: Operation<UploadRequest> = {
	option,
	properties,
	prepare,
	execute,
	concurrency: CONCURRENCY,
};
