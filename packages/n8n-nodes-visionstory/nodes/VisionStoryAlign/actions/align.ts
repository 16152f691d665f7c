import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { VisionStoryError } from '../../shared/api/errors';
import { mediaParts } from '../../shared/n8n/binary';
import type { Operation, OperationOption, Prepared, Run } from '../../shared/framework/action';
import { param } from '../../shared/framework/params';
import { spendOptions } from '../../shared/ui/parameters';
import { checkCaptionOptions, withCaptions } from '../captionOutput';
import { audioSecondsOf, checkAlignDuration } from '../duration';
import type { AudioRequest } from '../speech';
import { readAudio } from '../speech';
import {
	audioAssetId,
	audioBinaryProperty,
	audioSource,
	audioUrl,
	captionOptions,
	captions,
} from './parameters';

const option: OperationOption = {
	name: 'Align',
	value: 'align',
	action: 'Align text to audio',
	description:
		'Get the start and end time of every word of a known text in a recording, and captions from them',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default:
			'Align a known script with its audio: word timings and captions. Costs 1 credit per started 5 minutes of audio. Returns words with start and end times, duration_sec and cost_credit.',
		displayOptions: { show: { '@tool': [true] } },
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
	audioSource,
	audioBinaryProperty,
	audioUrl,
	audioAssetId,
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'Exactly what is said in the recording',
	},
	captions,
	captionOptions,
	spendOptions,
];

type AlignRequest = AudioRequest<'alignAudio'>;

/** One item's recording and text, read by name, into the checked request; nothing is sent. */
async function prepare(run: Run, index: number): Promise<AlignRequest> {
	const { audio, media } = await readAudio(run, index, 'align');
	const request = run.client.validate('alignAudio', {
		audio,
		text: param.string(run.context, 'text', index),
	});
	return { request, media };
}

/** Recordings longer than alignment takes, and caption limits out of range, are refused before any item is sent. */
async function check(
	run: Run,
	items: Array<Prepared<AlignRequest>>,
): Promise<Map<number, VisionStoryError>> {
	return new Map([
		...(await checkAlignDuration(run, items)),
		...(await checkCaptionOptions(run, items)),
	]);
}

/** 1 credit per started 5 minutes (the contract's price), for a file whose length its headers tell; otherwise unknown. */
async function estimate(run: Run, request: AlignRequest): Promise<number | undefined> {
	return await run.client.estimate('alignAudio', request.request, {
		signal: run.signal,
		audioSec: await audioSecondsOf(run, request.media),
	});
}

/** Word timings for a known text, with captions built from them when asked. */
async function execute(run: Run, item: Prepared<AlignRequest>): Promise<INodeExecutionData[]> {
	const { request, media } = item.request;
	const result = await run.client.send('alignAudio', request, {
		signal: run.signal,
		media: mediaParts(run.context, media),
		audioSec: await audioSecondsOf(run, media),
	});
	return [await withCaptions(run, item.index, { json: result as IDataObject }, result.words)];
}

export const align: Operation<AlignRequest> = {
	option,
	properties: updateDisplayOptions({ show: { operation: ['align'] } }, properties),
	charged: true,
	prepare,
	check,
	estimate,
	execute,
};
