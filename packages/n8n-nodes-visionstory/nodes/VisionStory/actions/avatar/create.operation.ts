import type { INodeProperties } from 'n8n-workflow';

import {
	AVATAR_IMAGE_MAX_BYTES,
	AVATAR_IMAGE_MIME_TYPES,
} from '../../../shared/api/contract/index';
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
		options: fileSources,
		default: 'binary',
		description:
			'A portrait photo with one clearly visible face (JPEG, PNG, WEBP or HEIC, up to 10 MB)',
	},
	...mediaSourceFields('image', 'Image'),
];

const IMAGE_RULES = { mimeTypes: AVATAR_IMAGE_MIME_TYPES, maxBytes: AVATAR_IMAGE_MAX_BYTES };

type CreateRequest = MediaRequest<'createAvatar'>;

/** The portrait, read and checked; its API fields (img_url, inline_data) are checked under the parameters that set them. */
async function prepare(ctx: OperationContext, index: number): Promise<CreateRequest> {
	const image = await oneFile(ctx, index, 'image', IMAGE_RULES, 'createAvatar');
	const request = ctx.client.validate('createAvatar', {
		img_url: image.url,
		inline_data: image.inline_data,
	});
	return { request, media: image.media };
}

export const create: Operation<CreateRequest> = {
	option,
	properties,
	// VisionStory may charge it (the contract gives no price): under the cap as a call of unknown price.
	charged: true,
	prepare,
	execute: executeSending('createAvatar'),
};
