import type { Node, NodeAPI } from 'node-red';

import { ASPECT_RATIOS, AVATAR_IMAGE_MIME_TYPES, fileFields } from '../../api';
import { idField, listFields, mediaFields } from '../../fields';
import { collect } from '../../lists';
import { fileInput } from '../../media';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';

export const avatar: NodeSpec = {
	type: 'visionstory-avatar',
	label: 'avatar',
	icon: 'visionstory-avatar.svg',
	summary: 'Avatars: create one from a photo, list, frame and delete them.',
	operations: [
		{
			value: 'create',
			label: 'Create',
			description: 'An avatar from a photo (free)',
			run: async (c) => {
				const image = fileInput(c, 'image', AVATAR_IMAGE_MIME_TYPES);
				return { payload: await c.call('createAvatar', fileFields(image, 'img_url')) };
			},
		},
		{
			value: 'getMany',
			label: 'Get Many',
			description: 'Your avatars, or the public ones',
			run: async (c) => ({
				payload: await collect(
					c,
					(cursor, limit) =>
						c.call('listAvatars', { is_public: c.text('library') === 'public', cursor, limit }),
					['avatars'],
				),
			}),
		},
		{
			value: 'updateFraming',
			label: 'Update Framing',
			description: 'How an avatar is framed in one aspect ratio',
			run: async (c) => ({
				payload: await c.call('updateAvatarFraming', {
					avatar_id: c.required('avatarId'),
					aspect_ratio: c.required('aspectRatio'),
					zoom: c.number('zoom') as number,
					offset_x: c.number('offsetX') as number,
					offset_y: c.number('offsetY') as number,
				}),
			}),
		},
		{
			value: 'delete',
			label: 'Delete',
			description: 'Delete one of your avatars',
			run: async (c) => ({
				payload: await c.call('deleteAvatar', { avatar_id: c.required('avatarId') }),
			}),
		},
	],
	fields: [
		...mediaFields(
			'image',
			'Photo',
			['create'],
			[
				['binary', 'File in the message (Buffer)'],
				['url', 'URL'],
			],
		),
		{
			name: 'library',
			label: 'Library',
			type: 'select',
			default: 'mine',
			ops: ['getMany'],
			options: [
				['mine', 'My avatars'],
				['public', 'Public avatars'],
			],
		},
		...listFields(['getMany']),
		idField('avatarId', 'Avatar', ['updateFraming', 'delete'], 'avatars'),
		{
			name: 'aspectRatio',
			label: 'Aspect ratio',
			type: 'select',
			default: '9:16',
			ops: ['updateFraming'],
			options: ASPECT_RATIOS.map((v) => [v, v] as const),
		},
		{
			name: 'zoom',
			label: 'Zoom',
			type: 'number',
			default: 1,
			min: 1,
			ops: ['updateFraming'],
			override: true,
		},
		{
			name: 'offsetX',
			label: 'Offset X',
			type: 'number',
			default: 0,
			min: -1,
			ops: ['updateFraming'],
			override: true,
			tip: '-1 to 1',
		},
		{
			name: 'offsetY',
			label: 'Offset Y',
			type: 'number',
			default: 0,
			min: -1,
			ops: ['updateFraming'],
			override: true,
			tip: '-1 to 1',
		},
	],
};

/** Node-RED's constructor of the avatar node: its messages go to the shared action runtime. */
export function registerAvatar(RED: NodeAPI): void {
	RED.nodes.registerType(avatar.type, function AvatarNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, avatar);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
