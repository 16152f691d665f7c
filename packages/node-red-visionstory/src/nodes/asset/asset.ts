import type { Node, NodeAPI } from 'node-red';

import { ALL_MEDIA_MIME_TYPES, fileFields } from '../../api';
import { idField, listFields, mediaFields } from '../../fields';
import { collect } from '../../lists';
import { fileInput } from '../../media';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';

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

/** Node-RED's constructor of the asset node: its messages go to the shared action runtime. */
export function registerAsset(RED: NodeAPI): void {
	RED.nodes.registerType(asset.type, function AssetNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, asset);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
