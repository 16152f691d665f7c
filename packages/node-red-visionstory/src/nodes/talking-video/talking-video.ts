import type { Node, NodeAPI } from 'node-red';

import {
	ASPECT_RATIOS,
	EMOTIONS,
	SPEECH_RATES,
	TALKING_VIDEO_AUDIO_MIME_TYPES,
	TALKING_VIDEO_RESOLUTIONS,
	fileFields,
} from '../../api';
import type { Context } from '../../context';
import { idField, mediaFields } from '../../fields';
import { fileInput } from '../../media';
import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';
import { createVideos, videoFields, videoOperations } from '../../videos';

const choices = (values: readonly string[]) => values.map((v) => [v, v] as const);
const withDefault = (values: readonly string[]) => [['', 'default'] as const, ...choices(values)];

function createRequest(entry: Context) {
	const script = entry.text('scriptType') ?? 'text';
	const common = {
		avatar_id: entry.required('avatarId'),
		model_id: entry.text('modelId'),
		aspect_ratio: entry.text('aspectRatio'),
		resolution: entry.text('resolution'),
		emotion: entry.text('emotion'),
		background_color: entry.text('backgroundColor'),
		client_request_id: entry.text('idempotencyKey'),
	};
	if (script === 'audio') {
		const audio = fileInput(entry, 'audio', TALKING_VIDEO_AUDIO_MIME_TYPES);
		const voiceChange = entry.boolean('voiceChange');
		return entry.client.validate('createTalkingVideo', {
			...common,
			audio_script: {
				...fileFields(audio, 'audio_url'),
				voice_change: voiceChange || undefined,
				voice_id: voiceChange ? entry.text('targetVoiceId') : undefined,
				denoise: entry.boolean('denoise') || undefined,
			},
		});
	}
	if (script !== 'text') entry.fail('scriptType', `must be text or audio (got "${script}")`);
	return entry.client.validate('createTalkingVideo', {
		...common,
		text_script: {
			text: entry.script('text'),
			voice_id: entry.required('voiceId'),
			speech_rate: entry.text('speechRate'),
		},
	});
}

const CREATE = ['create'];
const reads = videoOperations('talkingVideo');

export const talkingVideo: NodeSpec = {
	type: 'visionstory-talking-video',
	label: 'talking video',
	icon: 'visionstory-talking-video.svg',
	summary: 'Talking-avatar videos: an avatar speaks a text or a recording.',
	operations: [
		{
			value: 'create',
			label: 'Create',
			description: 'Render a talking video (msg.payload as an array: a batch, waited on together)',
			run: (c) => createVideos(c, 'talkingVideo', 'text', createRequest),
		},
		reads.check,
		reads.get,
		reads.getMany,
		reads.delete,
		{
			value: 'listModels',
			label: 'List Models',
			description: 'The talking-video models and their resolutions',
			run: async (c) => ({ payload: (await c.call('listTalkingVideoModels', {})).models }),
		},
	],
	fields: [
		idField('avatarId', 'Avatar', CREATE, 'avatars'),
		{
			name: 'scriptType',
			label: 'Script',
			type: 'select',
			default: 'text',
			ops: CREATE,
			options: [
				['text', 'Text (spoken by a voice)'],
				['audio', 'Audio recording'],
			],
		},
		{
			name: 'text',
			label: 'Text',
			type: 'text',
			default: '',
			ops: CREATE,
			override: true,
			showIf: { field: 'scriptType', values: ['text'] },
			tip: 'Or msg.text, or a text msg.payload. A batch: msg.payload as an array of texts or of objects with any of these properties.',
		},
		{
			...idField('voiceId', 'Voice', CREATE, 'voices'),
			showIf: { field: 'scriptType', values: ['text'] },
		},
		{
			name: 'speechRate',
			label: 'Speech rate',
			type: 'select',
			default: '',
			ops: CREATE,
			options: withDefault(SPEECH_RATES),
			showIf: { field: 'scriptType', values: ['text'] },
		},
		...mediaFields('audio', 'Audio', CREATE, [
			['binary', 'File in the message (Buffer)'],
			['url', 'URL'],
		]).map((f) => ({ ...f, showIf: f.showIf ?? { field: 'scriptType', values: ['audio'] } })),
		{
			name: 'voiceChange',
			label: 'Change voice',
			type: 'boolean',
			default: false,
			ops: CREATE,
			showIf: { field: 'scriptType', values: ['audio'] },
		},
		{
			...idField('targetVoiceId', 'Target voice', CREATE, 'voices'),
			showIf: { field: 'voiceChange', values: [true] },
		},
		{
			name: 'denoise',
			label: 'Denoise',
			type: 'boolean',
			default: false,
			ops: CREATE,
			showIf: { field: 'scriptType', values: ['audio'] },
		},
		idField(
			'modelId',
			'Model',
			CREATE,
			'talkingVideoModels',
			'Empty: the service default. Or msg.modelId.',
		),
		{
			name: 'aspectRatio',
			label: 'Aspect ratio',
			type: 'select',
			default: '',
			ops: CREATE,
			options: withDefault(ASPECT_RATIOS),
		},
		{
			name: 'resolution',
			label: 'Resolution',
			type: 'select',
			default: '',
			ops: CREATE,
			options: withDefault(TALKING_VIDEO_RESOLUTIONS),
		},
		{
			name: 'emotion',
			label: 'Emotion',
			type: 'select',
			default: '',
			ops: CREATE,
			options: withDefault(EMOTIONS),
		},
		{
			name: 'backgroundColor',
			label: 'Background',
			type: 'string',
			default: '',
			ops: CREATE,
		},
		...videoFields(),
	],
};

/** Node-RED's constructor of the talking video node: its messages go to the shared action runtime. */
export function registerTalkingVideo(RED: NodeAPI): void {
	RED.nodes.registerType(talkingVideo.type, function TalkingVideoNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, talkingVideo);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
