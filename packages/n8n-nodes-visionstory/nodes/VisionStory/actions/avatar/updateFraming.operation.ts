import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fieldIssues } from '../../../shared/api/client';
import { FramingChanges } from '../../../shared/api/contract/index';
import { invalidInput } from '../../../shared/api/errors';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { optionalNumber } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import type { Changes } from './framing';
import { applyFraming } from './framing';
import { avatarId } from './parameters';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Update Framing',
	value: 'updateFraming',
	action: 'Update the framing of an avatar',
	description:
		'Zoom and position the avatar for one aspect ratio; values you leave out keep their current setting',
};

const properties: INodeProperties[] = [
	toolDescription(
		'Update the framing of an avatar. Zoom and position the avatar for one aspect ratio; values you leave out keep their current setting.',
	),
	avatarId,
	{
		displayName: 'Aspect Ratio',
		name: 'aspectRatio',
		type: 'options',
		options: [
			{ name: '9:16', value: '9:16' },
			{ name: '16:9', value: '16:9' },
			{ name: '1:1', value: '1:1' },
		],
		default: '9:16',
		description: 'The framing to change; videos in this ratio use it',
	},
	{
		displayName: 'Framing',
		name: 'framing',
		type: 'collection',
		placeholder: 'Set Value',
		default: {},
		hint: 'Only the values you set change; the others keep their current value. The call takes a few seconds.',
		options: [
			{
				displayName: 'Zoom',
				name: 'zoom',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 2 },
				default: 1,
				description:
					'1 shows the widest area; 2 halves the framed width and height. Each avatar has its own maximum.',
			},
			{
				displayName: 'Offset X',
				name: 'offsetX',
				type: 'number',
				typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 2 },
				default: 0,
				description: '-1 left edge, 0 centered, 1 right edge',
			},
			{
				displayName: 'Offset Y',
				name: 'offsetY',
				type: 'number',
				typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 2 },
				default: 0,
				description: '-1 top, 0 centered, 1 bottom',
			},
		],
	},
];

/**
 * The changes, checked before the avatar is read; the values left out are filled in from its current
 * framing when the item runs, so the whole request is checked only then.
 */
async function prepare(ctx: OperationContext, index: number): Promise<Changes> {
	const context = ctx.n8n;
	const framing = param.collection(context, 'framing', index);
	const parsed = FramingChanges.safeParse({
		avatar_id: param.id(context, 'avatarId', index),
		aspect_ratio: param.string(context, 'aspectRatio', index),
		zoom: optionalNumber(framing.zoom),
		offset_x: optionalNumber(framing.offsetX),
		offset_y: optionalNumber(framing.offsetY),
	});
	if (!parsed.success) throw invalidInput('updateFraming', fieldIssues(parsed.error));
	return parsed.data;
}

async function execute(
	ctx: OperationContext,
	item: Prepared<Changes>,
): Promise<INodeExecutionData[]> {
	return await applyFraming(ctx, item.request);
}

export const updateFraming: Operation<Changes> = {
	option,
	properties,
	prepare,
	execute,
};
