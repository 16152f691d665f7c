import type { Node, NodeAPI } from 'node-red';

import { VOICE_SAMPLE_MIME_TYPES, fileFields } from '../../api';
import { idField, listFields, mediaFields } from '../../fields';
import { collect } from '../../lists';
import { fileInput } from '../../media';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';

const LIBRARY_FIELDS = {
	all: ['my_voices', 'public_voices'],
	mine: ['my_voices'],
	public: ['public_voices'],
} as const;

export const voice: NodeSpec = {
	type: 'visionstory-voice',
	label: 'voice',
	icon: 'visionstory-voice.svg',
	summary: 'Voices: list them, clone one from a recording, delete a clone.',
	operations: [
		{
			value: 'getMany',
			label: 'Get Many',
			description: 'Your voices and the public ones (filter by locale and provider)',
			run: async (c) => {
				const library = (c.text('library') ?? 'all') as keyof typeof LIBRARY_FIELDS;
				if (!LIBRARY_FIELDS[library])
					c.fail('library', `must be all, mine or public (got "${library}")`);
				return {
					payload: await collect(
						c,
						(cursor, limit) =>
							c.call('listVoices', {
								cursor,
								limit,
								locale: c.text('locale'),
								provider: c.text('provider'),
							}),
						LIBRARY_FIELDS[library],
						500,
					),
				};
			},
		},
		{
			value: 'clone',
			label: 'Clone',
			description: 'A voice of your own from a recording (free)',
			run: async (c) => {
				const sample = fileInput(c, 'sample', VOICE_SAMPLE_MIME_TYPES);
				return {
					payload: await c.call('cloneVoice', {
						...fileFields(sample, 'audio_url'),
						preview_text: c.text('previewText'),
					}),
				};
			},
		},
		{
			value: 'delete',
			label: 'Delete',
			description: 'Delete one of your cloned voices',
			run: async (c) => ({
				payload: await c.call('deleteVoice', { voice_id: c.required('voiceId') }),
			}),
		},
	],
	fields: [
		{
			name: 'library',
			label: 'Library',
			type: 'select',
			default: 'all',
			ops: ['getMany'],
			options: [
				['all', 'All'],
				['mine', 'My voices'],
				['public', 'Public voices'],
			],
		},
		{
			name: 'locale',
			label: 'Locale',
			type: 'string',
			default: '',
			ops: ['getMany'],
		},
		{ name: 'provider', label: 'Provider', type: 'string', default: '', ops: ['getMany'] },
		...listFields(['getMany']),
		...mediaFields(
			'sample',
			'Recording',
			['clone'],
			[
				['binary', 'File in the message (Buffer)'],
				['url', 'URL'],
			],
		),
		{ name: 'previewText', label: 'Preview text', type: 'string', default: '', ops: ['clone'] },
		idField('voiceId', 'Voice', ['delete'], 'voices'),
	],
};

/** Node-RED's constructor of the voice node: its messages go to the shared action runtime. */
export function registerVoice(RED: NodeAPI): void {
	RED.nodes.registerType(voice.type, function VoiceNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, voice);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
