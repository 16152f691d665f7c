import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { InlineData } from '../shared/api/contract';
import { ASPECT_RATIOS, AVATAR_IMAGE_MAX_BYTES, AVATAR_IMAGE_MIME_TYPES, FramingChanges } from '../shared/api/contract';
import { callOperation, customOperation, listOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { deleteResult, optionalNumber } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { locator, mediaFields, returnAllLimit } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';
import { updateFraming } from './updateFraming';

const avatarId = locator('avatarId', 'Avatar', 'searchOwnAvatars', { description: 'One of your own avatars (public library avatars cannot be changed)' });

export const avatarOperations: OperationDef[] = [
	callOperation({
		value: 'create',
		name: 'Create',
		action: 'Create an avatar',
		description: 'Create a talking avatar from one portrait photo',
		toolDescription:
			'Create an avatar from a portrait photo; returns the new avatar_id for talking videos.',
		call: 'createAvatar',
		media: [{ name: 'image', rules: { mimeTypes: AVATAR_IMAGE_MIME_TYPES, maxBytes: AVATAR_IMAGE_MAX_BYTES } }],
		fieldParameters: { img_url: 'imageUrl', inline_data: 'imageBinaryProperty' },
		request: (_, media) => {
			const image = media.image as { url?: string; inline_data?: InlineData } | undefined;
			return { img_url: image?.url, inline_data: image?.inline_data };
		},
		properties: mediaFields({
			name: 'image',
			displayName: 'Image',
			sources: ['binary', 'url'],
			required: true,
			description: 'A portrait photo with one clearly visible face (JPEG, PNG, WEBP or HEIC, up to 10 MB)',
		}),
	}),
	listOperation({
		value: 'getMany',
		name: 'Get Many',
		action: 'Get many avatars',
		description: 'List your own avatars (with framing) or the public library',
		toolDescription:
			'List avatars (avatar_id, name, default_voice_id, preview image) to pick one for a talking video. Free. Use Limit to keep the list short.',
		call: 'listAvatars',
		pageSize: 100,
		request: (p) => ({ is_public: p.library === 'public' }),
		items: (page) => page.avatars,
		properties: [
			{
				displayName: 'Library',
				name: 'library',
				type: 'options',
				options: [
					{ name: 'My Avatars', value: 'own' },
					{ name: 'Public Library', value: 'public' },
				],
				default: 'own',
			},
			...returnAllLimit(),
		],
	}),
	customOperation({
		value: 'updateFraming',
		name: 'Update Framing',
		action: 'Update the framing of an avatar',
		description: 'Zoom and position the avatar for one aspect ratio; values you leave out keep their current setting',
		fieldParameters: { avatar_id: 'avatarId', aspect_ratio: 'aspectRatio', zoom: 'zoom', offset_x: 'offsetX', offset_y: 'offsetY' },
		schema: FramingChanges,
		request: (p) => {
			const framing = (p.framing ?? {}) as { zoom?: unknown; offsetX?: unknown; offsetY?: unknown };
			return {
				avatar_id: String(p.avatarId ?? ''),
				aspect_ratio: String(p.aspectRatio ?? ''),
				zoom: optionalNumber(framing.zoom),
				offset_x: optionalNumber(framing.offsetX),
				offset_y: optionalNumber(framing.offsetY),
			};
		},
		runItem: updateFraming,
		properties: [
			avatarId,
			{
				displayName: 'Aspect Ratio',
				name: 'aspectRatio',
				type: 'options',
				options: ASPECT_RATIOS.map((r) => ({ name: r, value: r })),
				default: '9:16',
				description: 'The framing to change; videos in this ratio use it',
			},
			{
				displayName: 'Framing',
				name: 'framing',
				type: 'collection',
				placeholder: 'Set Value',
				default: {},
				hint: 'Only the values you set change; the others keep their current value. The call takes a few seconds.',
				options: [
					{
						displayName: 'Zoom',
						name: 'zoom',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 2 },
						default: 1,
						description: "1 shows the widest area; 2 halves the framed width and height. Each avatar has its own maximum.",
					},
					{
						displayName: 'Offset X',
						name: 'offsetX',
						type: 'number',
						typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 2 },
						default: 0,
						description: '-1 left edge, 0 centered, 1 right edge',
					},
					{
						displayName: 'Offset Y',
						name: 'offsetY',
						type: 'number',
						typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 2 },
						default: 0,
						description: '-1 top, 0 centered, 1 bottom',
					},
				],
			},
		],
	}),
	callOperation({
		value: 'delete',
		name: 'Delete',
		action: 'Delete an avatar',
		description: 'Delete one of your avatars for good (public avatars cannot be deleted)',
		call: 'deleteAvatar',
		fieldParameters: { avatar_id: 'avatarId' },
		request: (p) => ({ avatar_id: String(p.avatarId ?? '') }),
		output: deleteResult('avatar_id', 'avatarId'),
		properties: [avatarId],
	}),
];

export class VisionStoryAvatar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Avatar',
		name: 'visionStoryAvatar',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(avatarOperations),
		description: 'Create, list, reframe and delete VisionStory avatars',
		defaults: { name: 'VisionStory Avatar' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(avatarOperations, 'create'), ...operationProperties(avatarOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, avatarOperations);
	}
}
