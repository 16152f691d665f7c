import type { Node, NodeAPI } from 'node-red';

import { ALL_MEDIA_MIME_TYPES, toMediaRef } from '../../api';
import type { Context } from '../../context';
import { mediaFields } from '../../fields';
import { MEDIA_SOURCES, mediaInput } from '../../media';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';
import { refsOf } from '../../refs';

const ANALYZE = ['analyze'];

/** The answer's JSON Schema: typed in, or built from field names (every one a required text). */
function schemaOf(c: Context): Record<string, unknown> {
	if ((c.text('schemaMode') ?? 'fields') === 'json') {
		const schema = c.json('jsonSchema');
		if (!schema || typeof schema !== 'object')
			return c.fail('jsonSchema', 'must be a JSON Schema object');
		return schema as Record<string, unknown>;
	}
	const names = c.ids('fields');
	if (!names.length) return c.fail('fields', 'needs at least one field name');
	return {
		type: 'object',
		properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
		required: names,
	};
}

export const understand: NodeSpec = {
	type: 'visionstory-understand',
	label: 'understand',
	icon: 'visionstory-understand.svg',
	summary: 'Images, audio or video to JSON in the shape you ask for.',
	operations: [
		{
			value: 'analyze',
			label: 'Analyze',
			description:
				'Answer a prompt about up to 8 media inputs, as JSON of your schema (1 credit per input)',
			run: async (c) => {
				const inputs = refsOf(c, ALL_MEDIA_MIME_TYPES, 'inputs') ?? [
					toMediaRef(mediaInput(c, 'input', ALL_MEDIA_MIME_TYPES)),
				];
				return {
					payload: await c.call('understandMedia', {
						inputs,
						prompt: c.required('prompt'),
						schema: schemaOf(c),
					}),
				};
			},
		},
	],
	fields: [
		...mediaFields('input', 'Media', ANALYZE, MEDIA_SOURCES),
		{
			name: 'inputs',
			label: 'Several inputs',
			type: 'json',
			default: '',
			ops: ANALYZE,
			override: true,
			tip: 'Instead of the one above: a JSON array of {url}, {assetId} or Buffers (at most 8). Or msg.inputs.',
		},
		{
			name: 'prompt',
			label: 'Prompt',
			type: 'text',
			default: '',
			ops: ANALYZE,
			override: true,
			tip: 'Or msg.prompt.',
		},
		{
			name: 'schemaMode',
			label: 'Answer shape',
			type: 'select',
			default: 'fields',
			ops: ANALYZE,
			options: [
				['fields', 'Field names'],
				['json', 'JSON Schema'],
			],
		},
		{
			name: 'fields',
			label: 'Fields',
			type: 'string',
			default: '',
			ops: ANALYZE,
			override: true,
			showIf: { field: 'schemaMode', values: ['fields'] },
		},
		{
			name: 'jsonSchema',
			label: 'JSON Schema',
			type: 'json',
			default: '',
			ops: ANALYZE,
			override: true,
			showIf: { field: 'schemaMode', values: ['json'] },
		},
	],
};

/** Node-RED's constructor of the understand node: its messages go to the shared action runtime. */
export function registerUnderstand(RED: NodeAPI): void {
	RED.nodes.registerType(understand.type, function UnderstandNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, understand);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
