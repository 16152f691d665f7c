import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { VisionStoryClient } from '../shared/api/client';
import { redactText, VisionStoryError } from '../shared/api/errors';
import type { TaskKind, VideoTask } from '../shared/api/tasks';
import { createdAt, TASK_KINDS } from '../shared/api/watch/cursor';
import type { Announcer } from '../shared/api/watch/handOver';
import { isPermanent } from '../shared/api/watch/handOver';
import { failedWarning, unusableWarning } from '../shared/api/watch/notices';
import { Allowance, latestFinished } from '../shared/api/watch/poller';
import { taskSources, UnusableList } from '../shared/api/watch/sources';
import type { Watched } from '../shared/api/watch/watcher';
import { watchOnce } from '../shared/api/watch/watcher';
import { noLinkError, videoJson } from '../shared/framework/download';
import { binaryFromDownload, withBinary } from '../shared/n8n/binary';
import { createN8nClient } from '../shared/n8n/client';
import { toNodeError } from '../shared/n8n/nodeErrors';
import { statusLabel } from '../shared/descriptions/statuses';
import { keepPlace, placeAtActivation } from './activation';
import type { PollBudget } from './budget';
import { outOfTime, pollBudget } from './budget';
import { report, WHO } from './log';

/** Where the watcher's state lives in the node's static data (named so since the first version). */
const STATE_KEY = 'cursor';
/** Pages "Fetch Test Event" looks through per kind when the service ignores the status filter. */
const TEST_EVENT_PAGES = 3;
/** A poll that has not finished after this long is taken for dead and no longer blocks the next. */
const IN_FLIGHT_LEASE_MS = 15 * 60_000;

const KIND_LABEL: Record<TaskKind, string> = { talkingVideo: 'talking video', aiVideo: 'AI video' };

/**
 * Polls of one active workflow share its static data object. n8n may start a poll while the previous
 * one still runs (long downloads); both would emit the same tasks, so the later one stands aside.
 * Under n8n's durable scheduler every poll has a copy of its own, and the scheduler's lease keeps an
 * abandoned poll from storing anything, so none stands aside there.
 */
const inFlight = new WeakMap<object, number>();

interface Settings {
	kinds: TaskKind[];
	statuses: Set<string>;
	downloadResult: boolean;
	outputBinaryProperty: string;
}

function settings(context: IPollFunctions): Settings {
	const events = context.getNodeParameter('events', []) as string[];
	const statuses = context.getNodeParameter('statuses', []) as string[];
	const kinds = TASK_KINDS.filter((kind) => events.includes(kind));
	if (kinds.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Choose at least one event in Trigger On', {
			description: 'Pick Talking Video Finished, AI Video Finished, or both',
		});
	}
	if (statuses.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Choose at least one status in Statuses', {
			description: 'Pick Ready, Failed, or both',
		});
	}
	const downloadResult = context.getNodeParameter('downloadResult', false) as boolean;
	const outputBinaryProperty = downloadResult
		? String(context.getNodeParameter('outputBinaryProperty', 'data') || 'data')
		: 'data';
	return { kinds, statuses: new Set(statuses), downloadResult, outputBinaryProperty };
}

/** A file's transfer that broke off midway (n8n's binary store reading the stream), as the watcher's error. */
function transferError(error: unknown): unknown {
	if (error instanceof VisionStoryError) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new VisionStoryError({
		category: 'network',
		operation: 'download',
		message: redactText(`The file's transfer broke off (${message})`),
	});
}

/**
 * The trigger's items: a finished task's JSON, with its file when Download Result is on. With a
 * poll's budget, a download runs no longer than the budget allows.
 */
function announcer(
	context: IPollFunctions,
	client: VisionStoryClient,
	config: Settings,
	budget?: PollBudget,
): Announcer<INodeExecutionData> {
	const plain = (kind: TaskKind, task: VideoTask) => ({ ...videoJson(kind, task), kind });
	const downloads = (task: VideoTask) => config.downloadResult && task.status === 'created';
	return {
		downloads,
		withoutFile: (kind, task, error) => ({
			json: { ...plain(kind, task), downloadError: error.message },
		}),
		announce: async (kind, task) => {
			const item: INodeExecutionData = { json: plain(kind, task) };
			const url = typeof task.video_url === 'string' ? task.video_url : '';
			if (!downloads(task)) return item;
			// A task created without its link (after the polls that waited for it) says its file is missing.
			if (!url) return { json: { ...item.json, downloadError: noLinkError(kind, task) } };
			try {
				const file = await client.download(url, { signal: budget?.downloads });
				// prepareBinaryData is the same helper on poll and execute contexts.
				const binary = await binaryFromDownload(
					context as unknown as IExecuteFunctions,
					file,
					task.video_id,
					'video/mp4',
				);
				return withBinary(item, config.outputBinaryProperty, binary);
			} catch (error) {
				const failure = transferError(error);
				throw budget ? outOfTime(failure, budget, 'downloads') : failure;
			}
		},
	};
}

/** "Fetch Test Event": the newest finished task of the chosen kinds and statuses; the cursor is not touched. */
async function testEvent(
	context: IPollFunctions,
	config: Settings,
	client: VisionStoryClient,
): Promise<INodeExecutionData[][]> {
	const sources = taskSources(client);
	let best: { kind: TaskKind; task: VideoTask } | undefined;
	const failures: unknown[] = [];
	const unread = new Set<TaskKind>();
	for (const kind of config.kinds) {
		// Each kind on its own: one whose list cannot be read does not hide the other's tasks.
		const task = await latestFinished(
			sources[kind],
			config.statuses,
			new Allowance(TEST_EVENT_PAGES, Number.POSITIVE_INFINITY),
		).catch((error: unknown) => {
			if (!(error instanceof UnusableList || error instanceof VisionStoryError)) throw error;
			failures.push(error);
			unread.add(kind);
			context.logger.warn(
				error instanceof UnusableList
					? unusableWarning(WHO, sources[kind], error.reason, 0)
					: failedWarning(WHO, sources[kind], error.message),
			);
			return undefined;
		});
		if (task && (!best || (createdAt(task) ?? 0) > (createdAt(best.task) ?? 0)))
			best = { kind, task };
	}
	if (!best && failures.length === config.kinds.length) {
		const [first] = failures;
		if (first instanceof UnusableList)
			throw new NodeOperationError(
				context.getNode(),
				unusableWarning(WHO, sources[config.kinds[0]], first.reason, 0),
			);
		throw first;
	}
	if (!best) {
		const read = config.kinds.filter((kind) => !unread.has(kind));
		const kinds = read.map((k) => KIND_LABEL[k]).join(' or ');
		const statuses = [...config.statuses].map((s) => statusLabel(s).toLowerCase()).join(' or ');
		const notRead = [...unread]
			.map((k) => `${KIND_LABEL[k]}s could not be read (see n8n's log). `)
			.join('');
		throw new NodeOperationError(
			context.getNode(),
			`No finished video exists yet: your account has no ${kinds} that is ${statuses}`,
			{
				description: `${notRead}Create a ${kinds} with the matching VisionStory node, wait until it is ${statuses}, then fetch the test event again`,
			},
		);
	}
	const test = announcer(context, client, config);
	const item = await test.announce(best.kind, best.task).catch((error: unknown) => {
		if (error instanceof VisionStoryError && isPermanent(error))
			return test.withoutFile(best.kind, best.task, error);
		throw error;
	});
	return [[item]];
}

/**
 * One poll of an active workflow: the core's watcher from the state in static data. The new state is
 * written to static data only once the items are ready to hand over, so a poll that throws leaves the
 * stored state as it was and the next poll sees the same backlog again. A node without a state of its
 * own starts from the place its activation poll took, where n8n's durable scheduler dropped that
 * (activation.ts); a poll that takes the place itself leaves it there too.
 */
async function triggerPoll(
	context: IPollFunctions,
	client: VisionStoryClient,
	config: Settings,
	budget: PollBudget,
): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const stored = (staticData[STATE_KEY] as unknown) ?? placeAtActivation(context);
	const sources = taskSources(client, { signal: budget.reads });
	let watched: Watched<INodeExecutionData>;
	try {
		watched = await watchOnce(
			sources,
			stored,
			{
				kinds: config.kinds,
				statuses: config.statuses,
				deadline: budget.readsUntil,
				downloadsUntil: budget.downloadsUntil,
			},
			announcer(context, client, config, budget),
		);
	} catch (error) {
		throw outOfTime(error, budget, 'reads');
	}
	const reports = watched.reports.map((r) =>
		r.failure ? { ...r, failure: outOfTime(r.failure, budget, 'reads') } : r,
	);
	report(context, reports, sources);
	staticData[STATE_KEY] = watched.state as unknown as IDataObject;
	if (stored === undefined) keepPlace(context, watched.state);
	return watched.items.length > 0 ? [watched.items] : null;
}

export async function pollVisionStory(
	context: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const manual = context.getMode() === 'manual';
	const staticData = manual ? undefined : context.getWorkflowStaticData('node');
	if (staticData) {
		const since = inFlight.get(staticData);
		if (since !== undefined && Date.now() - since < IN_FLIGHT_LEASE_MS) return null;
		inFlight.set(staticData, Date.now());
	}
	try {
		const config = settings(context);
		if (manual) return await testEvent(context, config, await createN8nClient(context));
		const budget = pollBudget(context);
		const client = await createN8nClient(context, { retry: budget.retry });
		return await triggerPoll(context, client, config, budget);
	} catch (error) {
		throw toNodeError(context.getNode(), error, 0);
	} finally {
		if (staticData) inFlight.delete(staticData);
	}
}
