import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { VisionStoryError } from '../../../shared/api/errors';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import type { MediaRequest } from '../../../shared/framework/mediaParams';
import { sendWithMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';
import { spendOptions, toolDescription } from '../../../shared/descriptions/parameters';
import { checkCaptionOptions, withCaptions } from './captionOutput';
import { audioSecondsOf, checkAlignDuration } from './duration';
import { readAudio } from './speech';
import { audioInput, captionOptions, captions } from './parameters';

const option: OperationOption = {
	name: 'Align',
	value: 'align',
	action: 'Align text to audio',
	description:
		'Get the start and end time of every word of a known text in a recording, and captions from them',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Align a known script with its audio: word timings and captions. Costs 1 credit per started 5 minutes of audio. Returns words with start and end times, duration_sec and cost_credit.',
	),
	...audioInput,
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

type AlignRequest = MediaRequest<'alignAudio'>;

/** One item's recording and text, read by name, into the checked request; nothing is sent. */
async function prepare(ctx: OperationContext, index: number): Promise<AlignRequest> {
	const { audio, media } = await readAudio(ctx, index, 'alignAudio');
	const request = ctx.client.validate('alignAudio', {
		audio,
		text: param.string(ctx.n8n, 'text', index),
	});
	return { request, media };
}

/** Recordings longer than alignment takes, and caption limits out of range, are refused before any item is sent. */
async function check(
	ctx: OperationContext,
	items: Array<Prepared<AlignRequest>>,
): Promise<Map<number, VisionStoryError>> {
	return new Map([
		...(await checkAlignDuration(ctx, items)),
		...(await checkCaptionOptions(ctx, items)),
	]);
}

/** 1 credit per started 5 minutes (the contract's price), for a file whose length its headers tell; otherwise unknown. */
async function estimate(ctx: OperationContext, request: AlignRequest): Promise<number | undefined> {
	return await ctx.client.estimate('alignAudio', request.request, {
		signal: ctx.signal,
		audioSec: await audioSecondsOf(ctx, request.media),
	});
}

/** Word timings for a known text, with captions built from them when asked. */
async function execute(
	ctx: OperationContext,
	item: Prepared<AlignRequest>,
): Promise<INodeExecutionData[]> {
	const result = await sendWithMedia(ctx, 'alignAudio', item, {
		audioSec: await audioSecondsOf(ctx, item.request.media),
	});
	return [await withCaptions(ctx, item.index, { json: result as IDataObject }, result.words)];
}

export const align: Operation<AlignRequest> = {
	option,
	properties,
	charged: true,
	prepare,
	check,
	estimate,
	execute,
};
