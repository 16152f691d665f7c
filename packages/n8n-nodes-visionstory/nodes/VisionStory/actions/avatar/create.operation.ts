import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import {
	AVATAR_IMAGE_MAX_BYTES,
	AVATAR_IMAGE_MIME_TYPES,
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
	name: 'Create',
	value: 'create',
	action: 'Create an avatar',
	description: 'Create a talking avatar from one portrait photo',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Create an avatar from a portrait photo; returns the new avatar_id for talking videos.',
	),
	{
		displayName: 'Image Source',
		name: 'imageSource',
		type: 'options',
		options: [
			{ name: 'Binary File', value: 'binary', description: 'A file from a previous node' },
			{ name: 'URL', value: 'url', description: 'A public link VisionStory can download' },
		],
		default: 'binary',
		description:
			'A portrait photo with one clearly visible face (JPEG, PNG, WEBP or HEIC, up to 10 MB)',
	},
	{
		displayName: 'Image Input Binary Field',
		name: 'imageBinaryProperty',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { imageSource: ['binary'] } },
		hint: 'The name of the input binary field containing the file',
	},
	{
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/file',
		displayOptions: { show: { imageSource: ['url'] } },
		description: 'Public URL of the file',
	},
];

const IMAGE_RULES = { mimeTypes: AVATAR_IMAGE_MIME_TYPES, maxBytes: AVATAR_IMAGE_MAX_BYTES };

interface CreateRequest {
	request: Checked<'createAvatar'>;
	/** The file behind the request's binary placeholder. */
	media: MediaInput[];
}

/** The portrait, read and checked; its API fields (img_url, inline_data) are checked under the parameters that set them. */
async function prepare(ctx: OperationContext, index: number): Promise<CreateRequest> {
	const media = new ItemMedia(ctx.n8n, index);
	const image = await media.one('image', IMAGE_RULES);
	media.check('createAvatar');
	const request = ctx.client.validate('createAvatar', {
		img_url: param.checked('imageUrl', image?.url, HttpUrl.nullish()),
		inline_data: param.checked(
			'imageBinaryProperty',
			image?.inline_data,
			inlineData(IMAGE_RULES).nullish(),
		),
	});
	return { request, media: media.inputs };
}

async function execute(
	ctx: OperationContext,
	item: Prepared<CreateRequest>,
): Promise<INodeExecutionData[]> {
	const { request, media } = item.request;
	const avatar = await ctx.client.send('createAvatar', request, {
		signal: ctx.signal,
		media: mediaParts(ctx.n8n, media),
	});
	return [{ json: avatar as IDataObject }];
}

export const create: Operation<CreateRequest> = {
	option,
	properties,
	// VisionStory may charge it (the contract gives no price): under the cap as a call of unknown price.
	charged: true,
	prepare,
	execute,
};
