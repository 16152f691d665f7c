import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Checked } from '../../shared/api/client';
import type { Operation, OperationOption, Prepared, Run } from '../../shared/framework/action';
import { param } from '../../shared/framework/params';
import { videoId } from './parameters';

const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a talking video',
	description: 'Delete one of your talking videos for good',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'Delete a talking video. Delete one of your talking videos for good.',
		displayOptions: { show: { '@tool': [true] } },
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
	videoId,
];

async function prepare(run: Run, index: number): Promise<Checked<'deleteTalkingVideo'>> {
	return run.client.validate('deleteTalkingVideo', {
		video_id: param.id(run.context, 'videoId', index),
	});
}

/** The answer is `{ deleted: true }`; the id is added so the item says what was deleted. */
async function execute(
	run: Run,
	item: Prepared<Checked<'deleteTalkingVideo'>>,
): Promise<INodeExecutionData[]> {
	const result = await run.client.send('deleteTalkingVideo', item.request, { signal: run.signal });
	return [{ json: { video_id: item.request.video_id, deleted: result.deleted ?? true } }];
}

export const remove: Operation<Checked<'deleteTalkingVideo'>> = {
	option,
	properties: updateDisplayOptions({ show: { operation: ['delete'] } }, properties),
	prepare,
	execute,
};
