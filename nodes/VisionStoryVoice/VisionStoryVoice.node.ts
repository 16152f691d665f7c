import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { InlineData, ResponseOf, VoiceDto } from '../shared/api/contract';
import { PREVIEW_TEXT_MAX, VOICE_SAMPLE_MAX_BYTES, VOICE_SAMPLE_MIME_TYPES } from '../shared/api/contract';
import { callOperation, listOperation } from '../shared/framework/builders';
import { executeOperation } from '../shared/framework/execute';
import { deleteResult, filtersOf, optional } from '../shared/framework/mapping';
import type { OperationDef } from '../shared/framework/operation';
import { credentials, operationProperties, operationProperty, operationSubtitle } from '../shared/ui/description';
import { filters, locator, mediaFields, returnAllLimit } from '../shared/ui/fields';
import { listSearch } from '../shared/methods/listSearch';

/** Own voices and public voices as one list, each marked with its library. */
export function voiceItems(page: ResponseOf<'listVoices'>, library: string): IDataObject[] {
	const mark = (voices: VoiceDto[], from: 'own' | 'public') => voices.map((v) => ({ ...v, library: from }) as IDataObject);
	return [...(library === 'public' ? [] : mark(page.my_voices, 'own')), ...(library === 'own' ? [] : mark(page.public_voices, 'public'))];
}


export const voiceOperations: OperationDef[] = [
	listOperation({
		value: 'getMany',
		name: 'Get Many',
		action: 'Get many voices',
		description: 'List your cloned voices and the public voice library',
		toolDescription:
			'List voices (voice_id, name, language, gender, preview URL) to pick one for speech or a talking video. Free. Use Limit to keep the list short.',
		call: 'listVoices',
		pageSize: 500,
		// Own voices come whole on the first page; the public part of it is not wanted, so ask for the least.
		firstPageOnly: (p) => (p.library === 'own' ? 1 : undefined),
		fieldParameters: { locale: 'filters', provider: 'filters' },
		request: (p) => ({ locale: optional(filtersOf(p).locale), provider: optional(filtersOf(p).provider) }),
		items: (page, p) => voiceItems(page, String(p.library ?? 'all')),
		properties: [
			{
				displayName: 'Library',
				name: 'library',
				type: 'options',
				options: [
					{ name: 'All Voices', value: 'all' },
					{ name: 'My Voices', value: 'own' },
					{ name: 'Public Library', value: 'public' },
				],
				default: 'all',
			},
			...returnAllLimit(),
			filters([
					{
						displayName: 'Locale',
						name: 'locale',
						type: 'string',
						default: '',
						placeholder: 'e.g. en or en-GB',
						description: 'A language (en) matches all its regions; a region (en-GB) only that one',
					},
					{
						displayName: 'Provider',
						name: 'provider',
						type: 'string',
						default: '',
						description: 'Speech engine the voice comes from',
					},
			]),
		],
	}),
	callOperation({
		value: 'clone',
		name: 'Clone',
		action: 'Clone a voice',
		description: 'Create a voice from a recording of someone speaking (can take a minute or two)',
		toolDescription:
			'Clone a voice from a recording; returns the new voice_id. Takes up to a few minutes.',
		call: 'cloneVoice',
		concurrency: 2,
		media: [{ name: 'sample', rules: { mimeTypes: VOICE_SAMPLE_MIME_TYPES, maxBytes: VOICE_SAMPLE_MAX_BYTES } }],
		fieldParameters: { audio_url: 'sampleUrl', inline_data: 'sampleBinaryProperty', preview_text: 'previewText' },
		request: (p, media) => {
			const sample = media.sample as { url?: string; inline_data?: InlineData } | undefined;
			return { audio_url: sample?.url, inline_data: sample?.inline_data, preview_text: optional(p.previewText) };
		},
		properties: [
			...mediaFields({
				name: 'sample',
				displayName: 'Sample',
				sources: ['binary', 'url'],
				required: true,
				description: 'A clean recording of the voice (MP3, WAV, M4A, MP4 or AVI, up to 30 MB)',
			}),
			{
				displayName: 'Preview Text',
				name: 'previewText',
				type: 'string',
				default: '',
				description: `What the preview clip says, up to ${PREVIEW_TEXT_MAX} characters; empty for a built-in phrase`,
			},
		],
	}),
	callOperation({
		value: 'delete',
		name: 'Delete',
		action: 'Delete a voice',
		description: 'Delete one of your cloned voices',
		call: 'deleteVoice',
		fieldParameters: { voice_id: 'voiceId' },
		request: (p) => ({ voice_id: String(p.voiceId ?? '') }),
		output: deleteResult('voice_id', 'voiceId'),
		properties: [locator('voiceId', 'Voice', 'searchOwnVoices', { description: 'One of your cloned voices (public voices cannot be deleted)' })],
	}),
];

export class VisionStoryVoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VisionStory Voice',
		name: 'visionStoryVoice',
		icon: { light: 'file:../../icons/visionstory.svg', dark: 'file:../../icons/visionstory.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(voiceOperations),
		description: 'List, clone and delete VisionStory voices',
		defaults: { name: 'VisionStory Voice' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [operationProperty(voiceOperations, 'getMany'), ...operationProperties(voiceOperations)],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperation(this, voiceOperations);
	}
}
