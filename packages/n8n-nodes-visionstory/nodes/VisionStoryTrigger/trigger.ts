import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { VisionStoryClient } from '../shared/api/client';
import { VisionStoryError } from '../shared/api/errors';
import type { TaskKind, VideoTask } from '../shared/api/tasks';
import { binaryFromDownload, withBinary } from '../shared/n8n/binary';
import { createN8nClient } from '../shared/n8n/client';
import { toNodeError } from '../shared/n8n/nodeErrors';
import { statusLabel } from '../shared/descriptions/statuses';
import { createdAt, LIMITS, readCursor, TASK_KINDS } from './cursor';
import { Allowance, latestFinished } from './poller';
import { failedWarning, report, unusableWarning } from './log';
import { pollRound } from './round';
import { taskSources, UnusableList } from './sources';

/** Where the cursor lives in the node's static data. */
const CURSOR_KEY = 'cursor';
/** n8n 1.x has no getPollBudgetMs; 2.x gives 5 minutes by default. */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/** A later poll catches up anyway, so a struggling service is not retried for long inside one. */
const TRIGGER_RETRY = { maxAttempts: 3, maxElapsedMs: 20_000 };
/** Pages "Fetch Test Event" looks through per kind when the service ignores the status filter. */
const TEST_EVENT_PAGES = 3;
/** A poll that has not finished after this long is taken for dead and no longer blocks the next. */
const IN_FLIGHT_LEASE_MS = 15 * 60_000;

const KIND_LABEL: Record<TaskKind, string> = { talkingVideo: 'talking video', aiVideo: 'AI video' };

/**
 * Polls of one active workflow share its static data object. n8n may start a poll while the previous
 * one still runs (long downloads); both would emit the same tasks, so the later one stands aside.
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

function pollBudgetMs(context: IPollFunctions): number {
	const budget =
		typeof context.getPollBudgetMs === 'function'
			? context.getPollBudgetMs()
			: DEFAULT_POLL_BUDGET_MS;
	return Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
}

/** A download that can never succeed (expired, forbidden) must not block every later poll. */
function isPermanent(error: unknown): error is VisionStoryError {
	return (
		error instanceof VisionStoryError &&
		error.category === 'api' &&
		error.status !== undefined &&
		error.status >= 400 &&
		error.status < 500 &&
		error.status !== 408 &&
		error.status !== 429
	);
}

async function toItem(
	context: IPollFunctions,
	client: VisionStoryClient,
	kind: TaskKind,
	task: VideoTask,
	config: Settings,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: { ...task, kind } as IDataObject };
	const url = typeof task.video_url === 'string' ? task.video_url : '';
	if (!config.downloadResult || task.status !== 'created' || !url) return item;
	const attached = await client
		.download(url)
		// prepareBinaryData is the same helper on poll and execute contexts.
		.then(
			async (file) =>
				await binaryFromDownload(
					context as unknown as IExecuteFunctions,
					file,
					task.video_id,
					'video/mp4',
				),
		)
		.then(
			(binary) => ({ binary }),
			(error: unknown) => ({ error }),
		);
	if ('binary' in attached) return withBinary(item, config.outputBinaryProperty, attached.binary);
	if (!isPermanent(attached.error)) throw attached.error;
	return { json: { ...item.json, downloadError: attached.error.message } };
}

/** "Fetch Test Event": the newest finished task of the chosen kinds and statuses; the cursor is not touched. */
async function testEvent(
	context: IPollFunctions,
	client: VisionStoryClient,
	config: Settings,
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
					? unusableWarning(sources[kind], error.reason, 0)
					: failedWarning(sources[kind], error.message),
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
				unusableWarning(sources[config.kinds[0]], first.reason, 0),
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
	return [[await toItem(context, client, best.kind, best.task, config)]];
}

/**
 * One poll of an active workflow. The new cursor is computed aside and written to static data only
 * once the items are ready to hand over, so a poll that throws leaves the stored cursor as it was
 * and the next poll sees the same backlog again.
 */
async function triggerPoll(
	context: IPollFunctions,
	client: VisionStoryClient,
	config: Settings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const stored = readCursor(staticData[CURSOR_KEY]);
	const started = Date.now();
	const deadline = started + pollBudgetMs(context) * LIMITS.budgetShare;
	const sources = taskSources(client);
	const round = await pollRound(sources, stored, config.kinds, config.statuses, deadline);
	report(context, staticData, round.reports, sources);

	const ready = round.ready;
	const items: INodeExecutionData[] = [];
	const emitted = new Map<TaskKind, string[]>(TASK_KINDS.map((k) => [k, []]));
	const held = new Map<TaskKind, VideoTask[]>(TASK_KINDS.map((k) => [k, []]));
	for (const { kind, task } of ready) {
		const downloads = config.downloadResult && task.status === 'created';
		// Past the emission cap, or out of time for another download: the task waits for the next poll.
		if (
			items.length >= LIMITS.emitPerPoll ||
			(downloads && items.length > 0 && Date.now() >= deadline)
		) {
			held.get(kind)!.push(task);
			continue;
		}
		items.push(await toItem(context, client, kind, task, config));
		emitted.get(kind)!.push(task.video_id);
	}
	staticData[CURSOR_KEY] = round.next(emitted, held) as unknown as IDataObject;
	return items.length > 0 ? [items] : null;
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
		const client = await createN8nClient(context, manual ? {} : { retry: TRIGGER_RETRY });
		return manual
			? await testEvent(context, client, config)
			: await triggerPoll(context, client, config);
	} catch (error) {
		throw toNodeError(context.getNode(), error, 0);
	} finally {
		if (staticData) inFlight.delete(staticData);
	}
}
