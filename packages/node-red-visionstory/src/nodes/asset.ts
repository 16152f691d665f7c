import { ALL_MEDIA_MIME_TYPES, fileFields } from '../api';
import { idField, listFields, mediaFields } from '../fields';
import { collect } from '../lists';
import { fileInput } from '../media';
import type { NodeSpec } from '../spec';

export const asset: NodeSpec = {
	type: 'visionstory-asset',
	label: 'asset',
	icon: 'visionstory-asset.svg',
	summary: 'Your media library: upload once, use by ID in videos, images and Understand.',
	operations: [
		{
			value: 'upload',
			label: 'Upload',
			description: 'Add a file to the library (free; the same bytes give the same ID)',
			run: async (c) => {
				const file = fileInput(c, 'file', ALL_MEDIA_MIME_TYPES);
				return { payload: await c.call('uploadAsset', fileFields(file, 'url')) };
			},
		},
		{
			value: 'getMany',
			label: 'Get Many',
			description: 'The files in your library',
			run: async (c) => ({
				payload: await collect(
					c,
					(cursor, limit) =>
						c.call('listAssets', {
							kind: c.text('kind') as 'image' | 'video' | 'audio' | undefined,
							cursor,
							limit,
						}),
					['assets'],
				),
			}),
		},
		{
			value: 'delete',
			label: 'Delete',
			description: 'Remove a file from the library',
			run: async (c) => ({
				payload: await c.call('deleteAsset', { asset_id: c.required('assetId') }),
			}),
		},
	],
	fields: [
		...mediaFields(
			'file',
			'File',
			['upload'],
			[
				['binary', 'File in the message (Buffer)'],
				['url', 'URL'],
			],
		),
		{
			name: 'kind',
			label: 'Kind',
			type: 'select',
			default: '',
			ops: ['getMany'],
			options: [
				['', 'all'],
				['image', 'image'],
				['video', 'video'],
				['audio', 'audio'],
			],
		},
		...listFields(['getMany']),
		idField('assetId', 'Asset ID', ['delete']),
	],
};
