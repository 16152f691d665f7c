import { MEDIA_MIME_TYPES } from '../api';
import { downloadFields, idField } from '../fields';
import { deliver } from '../media';
import { checkModel } from '../models';
import type { NodeSpec } from '../spec';
import { refsOf } from './refs';

const GENERATE = ['generate'];

export const image: NodeSpec = {
	type: 'visionstory-image',
	label: 'image',
	icon: 'visionstory-image.svg',
	summary: 'Images from a prompt, with optional reference images.',
	operations: [
		{
			value: 'generate',
			label: 'Generate',
			description:
				'Generate an image (charged per image; the price is checked against the spend cap first)',
			run: async (c) => {
				const request = c.client.validate('generateImage', {
					model_id: c.required('modelId'),
					prompt: c.script('prompt'),
					aspect_ratio: c.text('aspectRatio'),
					resolution: c.text('resolution'),
					refs: refsOf(c, MEDIA_MIME_TYPES.image),
				});
				await checkModel(c, c.call('listImageModels', {}), {
					modelId: request.model_id,
					values: [
						{ name: 'resolution', param: 'resolution', value: request.resolution },
						{ name: 'aspectRatio', param: 'aspect_ratio', value: request.aspect_ratio },
					],
					prompt: request.prompt,
					refs: request.refs?.length,
				});
				const result = await c.send('generateImage', request);
				if (!c.boolean('downloadResult')) return { payload: result, data: result };
				const file = await c.client.download(result.url, { signal: c.signal });
				return { payload: await deliver(c, file, 'image', 0, 1, 'image'), data: result };
			},
		},
		{
			value: 'listModels',
			label: 'List Models',
			description: 'The image models with their resolutions, aspect ratios and prices',
			run: async (c) => ({ payload: (await c.call('listImageModels', {})).models }),
		},
	],
	fields: [
		idField('modelId', 'Model', GENERATE, 'imageModels'),
		{
			name: 'prompt',
			label: 'Prompt',
			type: 'text',
			default: '',
			ops: GENERATE,
			override: true,
			tip: 'Or msg.prompt, or a text msg.payload.',
		},
		{
			name: 'aspectRatio',
			label: 'Aspect ratio',
			type: 'string',
			default: '',
			ops: GENERATE,
			placeholder: '1:1',
		},
		{
			name: 'resolution',
			label: 'Resolution',
			type: 'string',
			default: '',
			ops: GENERATE,
			placeholder: '2K',
		},
		{
			name: 'refs',
			label: 'References',
			type: 'json',
			default: '',
			ops: GENERATE,
			override: true,
			placeholder: '[{"url":"https://…"}]',
			tip: 'A JSON array of {url}, {assetId} or Buffers. Or msg.refs.',
		},
		...downloadFields(GENERATE),
	],
};
