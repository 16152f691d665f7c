import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { Slots } from '../../shared/api/concurrency';
import { isFinished } from '../../shared/api/contract';
import { VisionStoryError } from '../../shared/api/errors';
import { notFoundError, readTasks, taskFailedError } from '../../shared/api/tasks';
import { requestBudgetOf } from '../../shared/n8n/client';
import type { ItemOutcome, Operation, OperationOption, Prepared, Run } from '../../shared/framework/action';
import { param } from '../../shared/framework/params';
import { downloadFieldOf, finishedItem } from '../../shared/framework/videoTasks';
import { downloadResult, outputBinaryProperty } from '../../shared/ui/parameters';

const option: OperationOption = {
	name: 'Check Status',
	value: 'check',
	action: 'Check the status of an AI video',
	description: 'Route finished videos to the first output and those still rendering to the second, to wait in a loop with n8n’s Wait node',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'Check a AI video by video_id: status (queued, creating: still rendering, call again in a minute; created: done, video_url is the MP4; failed: error says why, refunded), duration_sec and cost_credit. Free.',
		displayOptions: { show: { '@tool': [true] } },
		description: 'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
	{
		displayName: 'Video',
		name: 'videoId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '={{ $json.video_id }}' },
		required: true,
		description: 'The AI video to use',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchAiVideos', searchable: true, searchFilterRequired: false },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a2b3c4d' },
		],
		hint: 'Finished videos leave by the Finished output; those still rendering by Still Rendering, which you connect back to a Wait node',
	},
	downloadResult,
	outputBinaryProperty,
];

/** Downloads at once: large files, so few. */
const DOWNLOAD_CONCURRENCY = 3;

async function prepare(run: Run, index: number): Promise<string> {
	return run.client.validate('getAiVideo', { video_id: param.id(run.context, 'videoId', index) }).video_id ?? '';
}

/**
 * The videos' current state, read together (20 a call): finished ones to the first output
 * (downloaded when asked), those still rendering to the second, so a workflow can wait in n8n's Wait
 * node and loop back without holding a worker. A failed render is an error for its item, as when waiting.
 */
async function executeAll(run: Run, items: Array<Prepared<string>>): Promise<ItemOutcome[]> {
	const ids = items.map((item) => item.request);
	const budget = await requestBudgetOf(run.context);
	const tasks = await readTasks(run.client, 'aiVideo', ids, { signal: run.signal, budget });
	const downloads = new Slots(DOWNLOAD_CONCURRENCY);
	return await Promise.all(
		items.map(async (item): Promise<ItemOutcome> => {
			const task = tasks.get(item.request) ?? notFoundError(item.request);
			if (task instanceof VisionStoryError) return { ok: false, error: task };
			if (task.status === 'failed') return { ok: false, error: taskFailedError('aiVideo', task) };
			if (!isFinished(task)) return { ok: true, value: [{ json: task as IDataObject }], output: 1 };
			const download = param.boolean(run.context, 'downloadResult', item.index);
			await downloads.take();
			try {
				return await finishedItem(run, 'aiVideo', task, downloadFieldOf(run.context, item.index, download), 0);
			} finally {
				downloads.give();
			}
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
