import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import { EstimateAiVideoCostRequest } from '../../../shared/api/contract/index';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { optional } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import { duration, generateAudio, modelId, resolution } from './parameters';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Estimate Cost',
	value: 'estimateCost',
	action: 'Estimate the cost of an AI video',
	description: 'Get the credits a video would cost, with the same formula as the real charge',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Tell the credit price of an AI video (model ID, duration in seconds, resolution) before creating it. Free; nothing is created.',
	),
	modelId,
	{ ...duration, required: true },
	resolution,
	generateAudio,
];

/** Duration feeds duration_sec: checked by its own rule, so an error names the Duration parameter. */
async function prepare(
	ctx: OperationContext,
	index: number,
): Promise<Checked<'estimateAiVideoCost'>> {
	const context = ctx.n8n;
	return ctx.client.validate('estimateAiVideoCost', {
		model_id: param.id(context, 'modelId', index),
		duration_sec: param.checked(
			'duration',
			param.number(context, 'duration', index),
			EstimateAiVideoCostRequest.shape.duration_sec,
		),
		resolution: optional(param.string(context, 'resolution', index)),
		generate_audio: param.boolean(context, 'generateAudio', index),
	});
}

/** The price, with what it was asked for, so the item says which video it prices. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'estimateAiVideoCost'>>,
): Promise<INodeExecutionData[]> {
	const { model_id, duration_sec, resolution } = item.request;
	const result = await ctx.client.send('estimateAiVideoCost', item.request, { signal: ctx.signal });
	return [
		{
			json: { ...(result as IDataObject), model_id, duration_sec, resolution: resolution ?? null },
		},
	];
}

export const estimateCost: Operation<Checked<'estimateAiVideoCost'>> = {
	option,
	properties,
	prepare,
	execute,
};
