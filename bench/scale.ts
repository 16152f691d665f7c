import type { INodeParameters } from 'n8n-workflow';

import { peakPerSecond } from '../test/emulator/requestLog';
import type { Harness, WorkflowJson } from '../test/harness';
import { TRIGGER } from '../test/support/engine';
import type { EmulatorProcess } from './emulatorProcess';
import { peakRssGrowth, timed } from './memory';
import { log } from './progress';

/** One large batch in one execution, under a request budget and perhaps the emulator's per-key rate limit. */
export interface ScaleFigures {
	label: string;
	kind: 'talkingVideo' | 'aiVideo';
	items: number;
	renderSeconds: number;
	pollSeconds: number;
	/** The node's Requests per Second. */
	budget: number;
	/** The emulator's per-key limit; 0 for none. */
	serviceLimit: number;
	cap?: number;
	download: boolean;
	seconds: number;
	floorSeconds: number;
	peakPerSecond: number;
	averagePerSecond: number;
	requestsPerVideo: number;
	statusRequests: number;
	peakRssMiB: number;
	/** 429s answered for a rate limit (the emulator's own) and for the AI concurrency cap. */
	rateLimited: number;
	capRefusals: number;
	failedItems: number;
	tasks: number;
	charges: number;
	downloadedMiB: number;
}

export interface ScaleRun {
	label: string;
	kind: 'talkingVideo' | 'aiVideo';
	items: number;
	renderMs: number;
	budget: number;
	serviceLimit?: number;
	cap?: number;
	download: boolean;
	/** Bytes of each rendered video (the emulator's generated stream). */
	videoBytes?: number;
}

const POLL_SECONDS = 5;
const MIB = 1024 * 1024;
let accounts = 0;

function workflow(run: ScaleRun, avatarId: string): WorkflowJson {
	const common: INodeParameters = {
		operation: 'create',
		waitForCompletion: true,
		pollIntervalSeconds: POLL_SECONDS,
		downloadResult: run.download,
		options: { requestsPerSecond: run.budget },
	};
	const parameters: INodeParameters =
		run.kind === 'talkingVideo'
			? {
					...common,
					avatarId: { __rl: true, mode: 'id', value: avatarId },
					scriptType: 'text',
					text: '={{ $json.text }}',
					voiceId: { __rl: true, mode: 'id', value: 'Alice' },
				}
			: {
					...common,
					modelId: { __rl: true, mode: 'id', value: 'kling-3.0-omni' },
					prompt: '={{ $json.text }}',
				};
	return {
		name: `bench: ${run.label}`,
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'batch',
				name: 'Batch',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: run.kind, ...parameters },
				credentials: { visionStoryApi: { id: 'vsCredential0001', name: 'VisionStory account' } },
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Batch', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Runs one large batch against the emulator (in its own process) with a fresh key, so the budget
 * starts where the node's option sets it, and reads the request log for what the service saw.
 */
export async function scaleBatch(
	harness: Harness,
	emu: EmulatorProcess,
	run: ScaleRun,
): Promise<ScaleFigures> {
	await emu.reset();
	await emu.setConfig({
		renderMs: run.renderMs,
		aiConcurrencyCap: run.cap ?? 3,
		rateLimitPerSecond: run.serviceLimit ?? 0,
		videoBytes: run.videoBytes ?? 0,
	});
	const apiKey = `sk-vs-bench-scale-${process.pid}-${++accounts}-0000000000`;
	const account = await emu.addAccount(apiKey, 10_000_000);
	const avatars = await (
		await fetch(`${emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, {
			headers: { 'X-API-Key': emu.apiKey },
		})
	).json();
	const avatarId = (avatars as { data: { avatars: Array<{ avatar_id: string }> } }).data.avatars[0]
		.avatar_id;
	const items = Array.from({ length: run.items }, (_, i) => ({
		json: { text: `Hi number ${i + 1}! Thanks for joining our spring webinar.` } as never,
	}));
	log(`${run.label}: starting`);
	const measured = await peakRssGrowth(async () =>
		timed(async () => {
			const result = await harness.run(workflow(run, avatarId), {
				credentials: { visionStoryApi: { apiKey, baseUrl: emu.baseUrl } },
				pinData: { [TRIGGER]: items },
			});
			if (result.error) throw result.error;
			const output = result.output('Batch');
			// Only counts survive the run: holding 1,000 items' binary references is the harness's business, not the figure's.
			return {
				failed: output.filter((i) => i.json.status !== 'created').length,
				downloadedBytes: output.reduce(
					(sum, i) =>
						sum + Number(i.binary?.data?.fileSize ? parseSize(String(i.binary.data.fileSize)) : 0),
					0,
				),
			};
		}),
	);
	const { failed, downloadedBytes } = measured.result.result;
	const seconds = measured.result.seconds;
	const requests = (await emu.requests()).filter(
		(r) => r.origin === 'api' && r.account === account,
	);
	const statusPaths =
		run.kind === 'talkingVideo' ? ['/api/v1/video', '/api/v1/videos'] : ['/api/v1/ai_video'];
	const statusRequests = requests.filter(
		(r) => r.method === 'GET' && statusPaths.includes(r.path),
	).length;
	const span =
		requests.length > 1 ? (requests[requests.length - 1].at - requests[0].at) / 1000 : seconds;
	const limited = requests.filter((r) => r.status === 429);
	const capRefusals =
		run.kind === 'aiVideo' ? limited.filter((r) => r.method === 'POST').length : 0;
	const ledger = (await emu.ledger()).filter((e) => e.account === account);
	const tasks = (await emu.tasks()).filter((t) => t.account === account);
	const render = run.renderMs / 1000;
	// A task waits in the emulator's queue before it renders: min(0.5 s, render / 4).
	const renderAndQueue = render + Math.min(0.5, render / 4);
	const effectiveRate = Math.min(run.budget, run.serviceLimit || Infinity);
	const floorSeconds =
		run.kind === 'talkingVideo'
			? renderAndQueue + run.items / effectiveRate
			: Math.ceil(run.items / (run.cap ?? 3)) * Math.max(renderAndQueue, POLL_SECONDS);
	log(
		`${run.label}: ${seconds.toFixed(1)} s (floor ${floorSeconds.toFixed(1)} s), peak ${peakPerSecond(requests)} req/s, ${failed} failed`,
	);
	return {
		label: run.label,
		kind: run.kind,
		items: run.items,
		renderSeconds: render,
		pollSeconds: POLL_SECONDS,
		budget: run.budget,
		serviceLimit: run.serviceLimit ?? 0,
		cap: run.cap,
		download: run.download,
		seconds,
		floorSeconds,
		peakPerSecond: peakPerSecond(requests),
		averagePerSecond: requests.length / Math.max(span, 0.001),
		requestsPerVideo: requests.length / run.items,
		statusRequests,
		peakRssMiB: measured.peakMiB,
		rateLimited: limited.length - capRefusals,
		capRefusals,
		failedItems: failed,
		tasks: tasks.length,
		charges: ledger.filter((e) => e.kind === 'charge').length,
		downloadedMiB: downloadedBytes / MIB,
	};
}

/** n8n writes binary sizes as text ("1 MB", "64.4 kB"). */
function parseSize(text: string): number {
	const match = /^([\d.]+)\s*(B|kB|MB|GB)$/.exec(text.trim());
	if (!match) return 0;
	const unit = { B: 1, kB: 1000, MB: 1000 ** 2, GB: 1000 ** 3 }[
		match[2] as 'B' | 'kB' | 'MB' | 'GB'
	];
	return Number(match[1]) * unit;
}

/** The runs the issue asks for: 1,000 talking videos at the default budget and at 10/s with and without the service's limit, one over it, and 200 AI videos under a cap of 2. */
export function scaleRuns(quick: boolean): ScaleRun[] {
	const talking = quick ? 100 : 1000;
	const ai = quick ? 20 : 200;
	const videoBytes = MIB;
	return [
		{
			label: `${talking} talking videos, default budget`,
			kind: 'talkingVideo',
			items: talking,
			renderMs: 20_000,
			budget: 5,
			download: true,
			videoBytes,
		},
		{
			label: `${talking} talking videos at 10/s`,
			kind: 'talkingVideo',
			items: talking,
			renderMs: 20_000,
			budget: 10,
			download: true,
			videoBytes,
		},
		{
			label: `${talking} talking videos at 10/s, service limit 10/s`,
			kind: 'talkingVideo',
			items: talking,
			renderMs: 20_000,
			budget: 10,
			serviceLimit: 10,
			download: true,
			videoBytes,
		},
		{
			label: `${talking} talking videos at 20/s, service limit 10/s`,
			kind: 'talkingVideo',
			items: talking,
			renderMs: 20_000,
			budget: 20,
			serviceLimit: 10,
			download: true,
			videoBytes,
		},
		{
			label: `${ai} AI videos, cap 2, default budget`,
			kind: 'aiVideo',
			items: ai,
			renderMs: 5_000,
			budget: 5,
			cap: 2,
			download: false,
		},
	];
}
