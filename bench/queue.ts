/**
 * Queue mode in the real n8n app (main, two workers, a webhook processor, Postgres, Redis): a batch
 * of renders spread over the workers, and a big video downloaded into binary data with the worker's
 * memory watched, in each binary-data mode a queue-mode user would pick.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowJson } from '../scripts/n8n/examples';
import { repoRoot } from '../scripts/n8n/installSteps';
import { sleep, waitForExecutions } from '../scripts/n8n/queue/executions';
import { prepareQueueSession, type QueueSession } from '../scripts/n8n/queue/session';
import { callWebhook } from '../scripts/n8n/rest';
import type { N8nLine } from '../scripts/n8n/versions';
import type { EmulatorProcess } from './emulatorProcess';
import { log, withTicker } from './progress';

const MIB = 1024 * 1024;
const BATCH = { workflow: 'vsQueueBatch', path: 'visionstory-queue-batch' };
const DOWNLOAD = { workflow: 'vsQueueDownload', path: 'visionstory-queue-download' };
const POLL_SECONDS = 5;

export interface QueueBatchFigures {
	line: string;
	executions: number;
	videos: number;
	renderSeconds: number;
	pollSeconds: number;
	wallSeconds: number;
	floorSeconds: number;
	/** Executions each worker ran. */
	byWorker: Record<string, number>;
	failedItems: number;
	/** Where the wall time went, seconds from the first webhook call, from the emulator's log. */
	timeline: QueueTimeline;
}

export interface QueueTimeline {
	/** The first create reached the service: the webhook, the queue and a worker starting the execution. */
	firstSubmission: number;
	/** The last create reached it: the submissions, paced by each worker's request budget. */
	lastSubmission: number;
	/** The last render ended. */
	lastRenderEnd: number;
	/** The last status read: when the last video was seen finished. */
	lastRead: number;
	/** The last execution stopped, as n8n recorded it. */
	stopped: number;
}

export interface QueueDownloadFigures {
	line: string;
	/** How the binary data was stored: n8n's mode and where. */
	mode: string;
	mib: number;
	/** The worker that ran it: resident memory before, and its peak while downloading and saving. */
	baselineMiB: number;
	peakMiB: number;
	seconds: number;
	/** Where n8n says the file went: the binary id's prefix (`database`, `filesystem-v2`), or inline base64. */
	storedAs: string;
	/** What n8n recorded when the execution did not succeed. */
	error?: string;
}

function fixture(name: string): WorkflowJson {
	return JSON.parse(
		readFileSync(join(repoRoot(), 'test', 'e2e', 'queue', 'workflows', `${name}.json`), 'utf8'),
	) as WorkflowJson;
}

/** The batch fixture as a one-video workflow that downloads the finished MP4 into binary data. */
function downloadWorkflow(): WorkflowJson {
	const workflow = fixture('webhook-batch');
	workflow.id = DOWNLOAD.workflow;
	workflow.name = 'Bench: one talking video downloaded into binary data';
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.webhook') {
			node.parameters.path = DOWNLOAD.path;
			(node as { webhookId?: string }).webhookId = 'b3c1d6e0-7a2f-4e5b-9c8d-0f1e2d3c4b5a';
		}
		if (node.type.endsWith('.visionStory') && node.parameters.resource === 'talkingVideo')
			node.parameters.downloadResult = true;
	}
	return workflow;
}

function memoryOf(pid: number): { rssMiB: number; hwmMiB: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (field: string) =>
		Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
	return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
}

async function avatarId(emu: EmulatorProcess): Promise<string> {
	const response = await fetch(`${emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, {
		headers: { 'X-API-Key': emu.apiKey },
	});
	return ((await response.json()) as { data: { avatars: Array<{ avatar_id: string }> } }).data
		.avatars[0].avatar_id;
}

async function batchRun(
	session: QueueSession,
	emu: EmulatorProcess,
	executions: number,
	videos: number,
	renderMs: number,
): Promise<QueueBatchFigures> {
	const { rest, cluster } = session;
	await emu.reset();
	await emu.setConfig({ renderMs, videoBytes: 0 });
	await rest.activate(BATCH.workflow);
	const avatar = await avatarId(emu);
	const started = Date.now();
	await Promise.all(
		Array.from({ length: executions }, (_, e) =>
			callWebhook(cluster.webhookBaseUrl, BATCH.path, {
				avatar_id: avatar,
				scripts: Array.from({ length: videos }, (_, v) => `Bench batch ${e + 1}, video ${v + 1}`),
			}),
		),
	);
	const done = await withTicker(
		`${executions} × ${videos} talking videos on the workers`,
		() => waitForExecutions(rest, BATCH.workflow, executions, 10 * 60_000),
		10_000,
	);
	const stopped = Math.max(...done.map((e) => Date.parse(e.stoppedAt ?? '')));
	const runs = cluster.workerRuns();
	const byWorker: Record<string, number> = {};
	for (const execution of done)
		for (const worker of runs.get(String(execution.id)) ?? [])
			byWorker[worker] = (byWorker[worker] ?? 0) + 1;
	const items = done.flatMap(
		(e) => e.data?.resultData?.runData?.['Create Talking Videos']?.[0]?.data?.main?.[0] ?? [],
	);
	await rest.deactivate(BATCH.workflow);
	const log = (await emu.requests()).filter((r) => r.origin === 'api');
	const creates = log.filter((r) => r.method === 'POST' && r.path === '/api/v1/video');
	const reads = log.filter(
		(r) => r.method === 'GET' && (r.path === '/api/v1/video' || r.path === '/api/v1/videos'),
	);
	const since = (at: number) => (at - started) / 1000;
	const timeline: QueueTimeline = {
		firstSubmission: since(Math.min(...creates.map((r) => r.at))),
		lastSubmission: since(Math.max(...creates.map((r) => r.at))),
		lastRenderEnd: since(Math.max(...(await emu.tasks()).map((t) => t.finishedAt ?? 0))),
		lastRead: since(Math.max(...reads.map((r) => r.at))),
		stopped: since(stopped),
	};
	return {
		timeline,
		line: `n8n ${cluster.install.line.n8n}`,
		executions,
		videos: executions * videos,
		renderSeconds: renderMs / 1000,
		pollSeconds: POLL_SECONDS,
		wallSeconds: (stopped - started) / 1000,
		floorSeconds: renderMs / 1000 + POLL_SECONDS,
		byWorker,
		failedItems: executions * videos - items.filter((i) => i.json.status === 'created').length,
	};
}

async function downloadRun(
	session: QueueSession,
	emu: EmulatorProcess,
	bytes: number,
	mode: string,
): Promise<QueueDownloadFigures> {
	const { rest, cluster } = session;
	await emu.setConfig({ renderMs: 500, videoBytes: bytes });
	await rest.activate(DOWNLOAD.workflow);
	const workers = [...cluster.workers.values()];
	const baseline = new Map(workers.map((w) => [w.name, memoryOf(w.daemon.pid).rssMiB]));
	const peak = new Map(baseline);
	const sampler = setInterval(() => {
		for (const w of workers)
			peak.set(w.name, Math.max(peak.get(w.name)!, memoryOf(w.daemon.pid).rssMiB));
	}, 20);
	const known = new Set(cluster.workerRuns().keys());
	const started = Date.now();
	try {
		await callWebhook(cluster.webhookBaseUrl, DOWNLOAD.path, {
			avatar_id: await avatarId(emu),
			scripts: ['A long video'],
		});
		const [execution] = await withTicker(
			`${Math.round(bytes / MIB)} MiB download (${mode})`,
			() => waitForExecutions(rest, DOWNLOAD.workflow, 1, 10 * 60_000),
			10_000,
		);
		const seconds = (Date.parse(execution.stoppedAt ?? '') - started) / 1000;
		const id = [...cluster.workerRuns().keys()].find((k) => !known.has(k));
		const worker = id ? cluster.workerRuns().get(id)![0] : workers[0].name;
		// The kernel's high-water mark catches a peak between two samples.
		const hwm = memoryOf(cluster.workers.get(worker)!.daemon.pid).hwmMiB;
		const item = execution.data?.resultData?.runData?.['Create Talking Videos']?.[0]?.data
			?.main?.[0]?.[0] as { binary?: Record<string, { id?: string }> } | undefined;
		const binaryId = item?.binary?.data?.id;
		return {
			line: `n8n ${cluster.install.line.n8n}`,
			mode,
			mib: bytes / MIB,
			baselineMiB: baseline.get(worker)!,
			peakMiB: Math.max(peak.get(worker)!, hwm),
			seconds,
			storedAs: binaryId
				? binaryId.slice(0, binaryId.indexOf(':'))
				: item?.binary?.data
					? 'inline base64'
					: 'no file',
			error:
				execution.status === 'success'
					? undefined
					: (execution.data?.resultData?.error?.message ?? execution.status),
		};
	} finally {
		clearInterval(sampler);
		await rest.deactivate(DOWNLOAD.workflow);
		await emu.setConfig({ videoBytes: 0 });
	}
}

export interface QueueBenchOptions {
	line: N8nLine;
	/** Binary data kept where the line's queue mode puts it by default, or on disk in a folder every process shares. */
	binaryStorage: 'default' | 'shared-filesystem';
	batch?: { executions: number; videos: number; renderMs: number };
	downloadBytes: number;
}

export async function queueBench(
	emu: EmulatorProcess,
	options: QueueBenchOptions,
): Promise<{ batch?: QueueBatchFigures; download: QueueDownloadFigures }> {
	// Under .e2e/ with the suites' user folders: ignored by git, wiped at every start.
	const root = join(repoRoot(), '.e2e', `bench-queue-${options.line.id}-${options.binaryStorage}`);
	const shared = join(root, 'shared-binary-data');
	const env: Record<string, string> =
		options.binaryStorage === 'shared-filesystem'
			? {
					N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
					N8N_BINARY_DATA_STORAGE_PATH: shared,
					N8N_STORAGE_PATH: shared,
				}
			: {};
	log(
		`queue mode, n8n ${options.line.n8n}, binary data ${options.binaryStorage}: starting Postgres, Redis, main, 2 workers, a webhook processor`,
	);
	const session = await withTicker('starting the cluster', () =>
		prepareQueueSession({
			line: options.line,
			root,
			service: { apiKey: emu.apiKey, baseUrl: emu.baseUrl },
			workers: { a: { concurrency: 3 }, b: { concurrency: 3 } },
			extraWorkflows: { batch: fixture('webhook-batch'), download: downloadWorkflow() },
			env,
			log,
		}),
	);
	try {
		let batch: QueueBatchFigures | undefined;
		if (options.batch) {
			batch = await batchRun(
				session,
				emu,
				options.batch.executions,
				options.batch.videos,
				options.batch.renderMs,
			);
			log(
				`${batch.videos} videos in ${batch.executions} executions: ${batch.wallSeconds.toFixed(1)} s (floor ${batch.floorSeconds} s), by worker ${JSON.stringify(batch.byWorker)}`,
			);
		}
		// Let the workers settle after the batch before taking the memory baseline.
		await sleep(3000);
		const modeLabel =
			options.binaryStorage === 'default'
				? defaultModeLabel(options.line)
				: 'filesystem, one folder shared by every process';
		const download = await downloadRun(session, emu, options.downloadBytes, modeLabel);
		log(
			`${download.mib} MiB download (${download.mode}): worker peak ${download.peakMiB.toFixed(0)} MiB from ${download.baselineMiB.toFixed(0)} MiB${download.error ? `; failed: ${download.error}` : ''}`,
		);
		return { batch, download };
	} finally {
		await session.cluster.stop();
	}
}

function defaultModeLabel(line: N8nLine): string {
	return line.id === 'n8n1'
		? 'default: inline in the execution data'
		: 'default in queue mode: database (Postgres)';
}
