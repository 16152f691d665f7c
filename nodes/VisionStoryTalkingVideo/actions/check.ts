import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isFinished } from '../../shared/api/contract';
import { VisionStoryError } from '../../shared/api/errors';
import { notFoundError, readTasks, TalkingVideoList, taskFailedError } from '../../shared/api/tasks';
import { requestBudgetOf } from '../../shared/n8n/client';
import type { ItemOutcome, Operation, OperationOption, Prepared, Run } from '../../shared/framework/action';
import { param } from '../../shared/framework/params';
import { downloadFieldOf, finishedItem } from '../../shared/framework/videoTasks';
import { downloadResult, outputBinaryProperty } from '../../shared/ui/parameters';

const option: OperationOption = {
	name: 'Check Status',
	value: 'check',
	action: 'Check the status of a talking video',
	description: 'Route finished videos to the first output and those still rendering to the second, to wait in a loop with n8n’s Wait node',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'Check a talking video by video_id: status (queued, creating: still rendering, call again in a minute; created: done, video_url is the MP4; failed: error says why, refunded), duration_sec and cost_credit. Free.',
		displayOptions: { show: { '@tool': [true] } },
		description: 'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '={{ $json.video_id }}' },
		required: true,
		description: 'The talking video to use',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchTalkingVideos', searchable: true, searchFilterRequired: false },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a2b3c4d' },
		],
		hint: 'Finished videos leave by the Finished output; those still rendering by Still Rendering, which you connect back to a Wait node',
	},
	downloadResult,
	outputBinaryProperty,
];

async function prepare(run: Run, index: number): Promise<string> {
	return run.client.validate('getTalkingVideo', { video_id: param.id(run.context, 'videoId', index) }).video_id;
}

/**
 * The videos' current state, read together: finished ones to the first output (downloaded when asked),
 * those still rendering to the second, so a workflow can wait in n8n's Wait node and loop back without
 * holding a worker. A failed render is an error for its item, as when waiting.
 */
async function executeAll(run: Run, items: Array<Prepared<string>>): Promise<ItemOutcome[]> {
	const ids = items.map((item) => item.request);
	const budget = await requestBudgetOf(run.context);
	const tasks = await readTasks(run.client, 'talkingVideo', ids, { signal: run.signal, budget, list: new TalkingVideoList() });
	return await Promise.all(
		items.map(async (item): Promise<ItemOutcome> => {
			const task = tasks.get(item.request) ?? notFoundError(item.request);
			if (task instanceof VisionStoryError) return { ok: false, error: task };
			if (task.status === 'failed') return { ok: false, error: taskFailedError('talkingVideo', task) };
			if (!isFinished(task)) return { ok: true, value: [{ json: task as IDataObject }], output: 1 };
			const download = param.boolean(run.context, 'downloadResult', item.index);
			return await finishedItem(run, 'talkingVideo', task, downloadFieldOf(run.context, item.index, download), 0);
		}),
	);
}

export const check: Operation<string> = {
	option,
	properties: updateDisplayOptions({ show: { operation: ['check'] } }, properties),
	outputs: ['Finished', 'Still Rendering'],
	reportsSpend: true,
	prepare,
	executeAll,
};
