import type { INodeProperties } from 'n8n-workflow';

import {
	VOICE_SAMPLE_MAX_BYTES,
	VOICE_SAMPLE_MIME_TYPES,
} from '../../../shared/api/contract/index';
import type {
	Operation,
	OperationOption,
	OperationContext,
} from '../../../shared/framework/action';
import { optional } from '../../../shared/framework/mapping';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { executeSending, oneFile } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import {
	fileSources,
	mediaSourceFields,
	toolDescription,
} from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Clone',
	value: 'clone',
	action: 'Clone a voice',
	description: 'Create a voice from a recording of someone speaking (can take a minute or two)',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Clone a voice from a recording; returns the new voice_id. Takes up to a few minutes.',
	),
	{
		displayName: 'Sample Source',
		name: 'sampleSource',
		type: 'options',
		options: fileSources,
		default: 'binary',
		description: 'A clean recording of the voice (MP3, WAV, M4A, MP4 or AVI, up to 30 MB)',
	},
	...mediaSourceFields('sample', 'Sample'),
	{
		displayName: 'Preview Text',
		name: 'previewText',
		type: 'string',
		default: '',
		description: 'What the preview clip says, up to 100 characters; empty for a built-in phrase',
	},
];

const SAMPLE_RULES = { mimeTypes: VOICE_SAMPLE_MIME_TYPES, maxBytes: VOICE_SAMPLE_MAX_BYTES };

/** Cloning takes minutes and uploads the whole sample: two at a time. */
const CONCURRENCY = 2;

type CloneRequest = MediaRequest<'cloneVoice'>;

/** The sample and preview text, checked; the sample's API fields (audio_url, inline_data) are checked under the parameters that set them. */
async function prepare(ctx: OperationContext, index: number): Promise<CloneRequest> {
	const sample = await oneFile(ctx, index, 'sample', SAMPLE_RULES, 'cloneVoice');
	const request = ctx.client.validate('cloneVoice', {
		audio_url: sample.url,
		inline_data: sample.inline_data,
		preview_text: optional(param.string(ctx.n8n, 'previewText', index)),
	});
	return { request, media: sample.media };
}

export const clone: Operation<CloneRequest> = {
	option,
	properties,
	// VisionStory may charge it (the contract gives no price): under the cap as a call of unknown price.
	charged: true,
	prepare,
	execute: executeSending('cloneVoice'),
	concurrency: CONCURRENCY,
};
