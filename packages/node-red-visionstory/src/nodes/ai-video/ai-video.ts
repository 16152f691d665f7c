import type { Node, NodeAPI } from 'node-red';

import type { RequestOf } from '../../api';
import { ALL_MEDIA_MIME_TYPES, toMediaRef } from '../../api';
import type { Context } from '../../context';
import { idField, mediaFields } from '../../fields';
import { mediaInput } from '../../media';
import { checkModel } from '../../models';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';
import { createVideos, videoFields, videoOperations } from '../../videos';
import { refsOf } from '../../refs';

const FRAME_SOURCES = [
	['none', 'None'],
	['binary', 'File in the message (Buffer)'],
	['url', 'URL'],
	['asset', 'Asset ID'],
] as const;

function frame(entry: Context, name: string) {
	if (
		(entry.text(`${name}Source`) ?? 'none') === 'none' &&
		!entry.msg[`${name}Url`] &&
		!entry.msg[`${name}AssetId`]
	)
		return undefined;
	return toMediaRef(mediaInput(entry, name, ALL_MEDIA_MIME_TYPES));
}

/** The model list is read once per message, whatever the batch size. */
const lists = new WeakMap<object, Promise<{ models: never[] }>>();
function modelList(context: Context) {
	let list = lists.get(context.msg);
	if (!list) {
		list = context.call('listAiVideoModels', {}) as unknown as Promise<{ models: never[] }>;
		list.catch(() => undefined);
		lists.set(context.msg, list);
	}
	return list;
}

async function createRequest(entry: Context) {
	const request: RequestOf<'createAiVideo'> = {
		model_id: entry.required('modelId'),
		prompt: entry.script('prompt'),
		duration_sec: entry.number('duration'),
		aspect_ratio: entry.text('aspectRatio'),
		resolution: entry.text('resolution'),
		generate_audio: entry.boolean('generateAudio') || undefined,
		first_frame: frame(entry, 'firstFrame'),
		end_frame: frame(entry, 'endFrame'),
		refs: refsOf(entry, ALL_MEDIA_MIME_TYPES),
		client_request_id: entry.text('idempotencyKey'),
	};
	const checked = entry.client.validate('createAiVideo', request);
	await checkModel(entry, modelList(entry), {
		modelId: checked.model_id,
		values: [
			{ name: 'duration', param: 'duration_sec', value: checked.duration_sec },
			{ name: 'resolution', param: 'resolution', value: checked.resolution },
			{ name: 'aspectRatio', param: 'aspect_ratio', value: checked.aspect_ratio },
		],
		prompt: checked.prompt,
		refs: checked.refs?.length,
	});
	return checked;
}

const CREATE = ['create'];
const MODEL_OPS = ['create', 'estimateCost'];
const reads = videoOperations('aiVideo');

export const aiVideo: NodeSpec = {
	type: 'visionstory-ai-video',
	label: 'AI video',
	icon: 'visionstory-ai-video.svg',
	summary:
		'AI videos from a prompt (Seedance, Wan, Kling…), with optional first and last frames and references.',
	operations: [
		{
			value: 'create',
			label: 'Create',
			description:
				'Render an AI video (msg.payload as an array: a batch, waited on together, 20 IDs a status call)',
			run: (c) => createVideos(c, 'aiVideo', 'prompt', createRequest),
		},
		reads.check,
		reads.get,
		reads.getMany,
		{
			value: 'estimateCost',
			label: 'Estimate Cost',
			description: 'What a video would cost, in credits (free)',
			run: async (c) => ({
				payload: await c.call('estimateAiVideoCost', {
					model_id: c.required('modelId'),
					duration_sec: c.number('duration') as number,
					resolution: c.text('resolution'),
					generate_audio: c.boolean('generateAudio') || undefined,
				}),
			}),
		},
		{
			value: 'listModels',
			label: 'List Models',
			description: 'The AI-video models with their durations, resolutions and media slots',
			run: async (c) => ({ payload: (await c.call('listAiVideoModels', {})).models }),
		},
		reads.delete,
	],
	fields: [
		idField('modelId', 'Model', MODEL_OPS, 'aiVideoModels'),
		{
			name: 'prompt',
			label: 'Prompt',
			type: 'text',
			default: '',
			ops: CREATE,
			override: true,
			tip: 'Or msg.prompt, or a text msg.payload. A batch: msg.payload as an array of prompts or of objects with any of these properties.',
		},
		{
			name: 'duration',
			label: 'Duration (s)',
			type: 'number',
			default: '',
			ops: MODEL_OPS,
			override: true,
			min: 1,
			tip: 'Empty: the model default. Or msg.duration.',
		},
		{
			name: 'aspectRatio',
			label: 'Aspect ratio',
			type: 'string',
			default: '',
			ops: CREATE,
		},
		{
			name: 'resolution',
			label: 'Resolution',
			type: 'string',
			default: '',
			ops: MODEL_OPS,
		},
		{
			name: 'generateAudio',
			label: 'Generate audio',
			type: 'boolean',
			default: false,
			ops: MODEL_OPS,
		},
		...mediaFields('firstFrame', 'First frame', CREATE, FRAME_SOURCES, 'none'),
		...mediaFields('endFrame', 'Last frame', CREATE, FRAME_SOURCES, 'none'),
		{
			name: 'refs',
			label: 'References',
			type: 'json',
			default: '',
			ops: CREATE,
			override: true,
			tip: 'A JSON array of {url}, {assetId} or a Buffer. Or msg.refs.',
		},
		...videoFields(),
	],
};

/** Node-RED's constructor of the AI video node: its messages go to the shared action runtime. */
export function registerAiVideo(RED: NodeAPI): void {
	RED.nodes.registerType(aiVideo.type, function AiVideoNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, aiVideo);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
