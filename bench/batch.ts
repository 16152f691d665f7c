import { DEFAULT_REQUESTS_PER_SECOND } from '../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';
import type { Harness } from '../test/harness';
import { TRIGGER } from '../test/support/engine';
import type { EmulatorProcess } from './emulatorProcess';
import { timed } from './memory';
import { log } from './progress';
import type { SlotLosses } from './slots';
import { slotTimeline } from './slots';

export interface BatchFigures {
	kind: string;
	items: number;
	renderSeconds: number;
	pollSeconds: number;
	cap?: number;
	batchedSeconds: number;
	baselineSeconds: number;
	floorSeconds: number;
	statusRequestsPerTask: number;
	failedItems: number;
	refusals429: number;
	/** AI only: status requests per poll round, and what ceil(pending / 20) asks for. */
	rounds?: Array<{ requests: number; pending: number }>;
	/** AI only: each slot's renders and where the time between them went; `startedAt` is the batch's start (ms). */
	timeline?: SlotLosses;
	startedAt?: number;
}

const POLL_SECONDS = 5;

type Credentials = { visionStoryApi: { apiKey: string; baseUrl: string } };

async function runItems(
	harness: Harness,
	file: string,
	credentials: Credentials,
	items: Array<Record<string, unknown>>,
	node: string,
) {
	const result = await harness.run(file, {
		credentials,
		pinData: { [TRIGGER]: items.map((json) => ({ json: json as never })) },
	});
	if (result.error) throw result.error;
	return result.output(node);
}

/** The same items one at a time: what a node that waits per item (every other media node) takes. */
async function oneAtATime(
	harness: Harness,
	file: string,
	credentials: Credentials,
	items: Array<Record<string, unknown>>,
	node: string,
) {
	return await timed(async () => {
		for (const [i, item] of items.entries()) {
			await runItems(harness, file, credentials, [item], node);
			if ((i + 1) % 5 === 0 || i + 1 === items.length)
				log(`one at a time: ${i + 1}/${items.length} done`);
		}
	});
}

export async function talkingVideoBatch(
	harness: Harness,
	emu: EmulatorProcess,
	credentials: Credentials,
	items = 50,
	renderMs = 4000,
	baseline = true,
): Promise<BatchFigures> {
	await emu.reset();
	await emu.setConfig({ renderMs });
	const avatars = await (
		await fetch(`${emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, {
			headers: { 'X-API-Key': emu.apiKey },
		})
	).json();
	const avatarId = (avatars as { data: { avatars: Array<{ avatar_id: string }> } }).data.avatars[0]
		.avatar_id;
	const inputs = Array.from({ length: items }, (_, i) => ({
		avatarId,
		text: `Personal welcome number ${i + 1}`,
	}));
	const file = 'test/workflows/talking-video-batch.json';
	const node = 'Create Talking Videos';
	const batched = await timed(async () => await runItems(harness, file, credentials, inputs, node));
	const requests = await emu.requests();
	const statusRequests = requests.filter(
		(r) => r.method === 'GET' && r.path === '/api/v1/video',
	).length;
	const failed = batched.result.filter((i) => i.json.status !== 'created').length;
	const oneByOne = baseline
		? await oneAtATime(harness, file, credentials, inputs, node)
		: { seconds: NaN };
	return {
		kind: 'Talking video',
		items,
		renderSeconds: renderMs / 1000,
		pollSeconds: POLL_SECONDS,
		batchedSeconds: batched.seconds,
		baselineSeconds: oneByOne.seconds,
		// Submissions go out at the default request budget: the last one leaves at N / rate.
		floorSeconds: renderMs / 1000 + items / DEFAULT_REQUESTS_PER_SECOND,
		statusRequestsPerTask: statusRequests / items,
		failedItems: failed,
		refusals429: 0,
	};
}

export async function aiVideoBatch(
	harness: Harness,
	emu: EmulatorProcess,
	credentials: Credentials,
	items = 20,
	cap = 2,
	renderMs = 12_000,
	baseline = true,
): Promise<BatchFigures> {
	await emu.reset();
	await emu.setConfig({ renderMs, aiConcurrencyCap: cap });
	const inputs = Array.from({ length: items }, (_, i) => ({
		modelId: 'kling-3.0-omni',
		prompt: `Scene ${i + 1}: the sneaker on a rooftop at golden hour`,
	}));
	const file = 'test/workflows/ai-video-batch.json';
	const node = 'Create AI Videos';
	const startedAt = Date.now();
	const batched = await timed(async () => await runItems(harness, file, credentials, inputs, node));
	const requests = await emu.requests();
	const tasks = await emu.tasks();
	const timeline = slotTimeline(tasks, requests, cap, startedAt);
	const polls = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/ai_video');
	// Requests of one round go out together; a round's pending tasks are those submitted and unfinished before it.
	const rounds: Array<{ at: number; requests: number }> = [];
	for (const poll of polls) {
		const round = rounds.find((r) => Math.abs(r.at - poll.at) < 250);
		if (round) round.requests++;
		else rounds.push({ at: poll.at, requests: 1 });
	}
	const refusals = requests.filter(
		(r) => r.method === 'POST' && r.path === '/api/v1/ai_video' && r.status === 429,
	).length;
	const failed = batched.result.filter((i) => i.json.status !== 'created').length;
	const oneByOne = baseline
		? await oneAtATime(harness, file, credentials, inputs, node)
		: { seconds: NaN };
	return {
		kind: 'AI video',
		items,
		cap,
		renderSeconds: renderMs / 1000,
		pollSeconds: POLL_SECONDS,
		batchedSeconds: batched.seconds,
		baselineSeconds: oneByOne.seconds,
		floorSeconds: Math.ceil(items / cap) * (renderMs / 1000),
		statusRequestsPerTask: polls.length / items,
		failedItems: failed,
		refusals429: refusals,
		timeline,
		startedAt,
		// Pending in a round: submitted before it and not yet seen finished by the round before.
		rounds: rounds.map((round, i) => ({
			requests: round.requests,
			pending: tasks.filter(
				(t) =>
					t.submittedAt <= round.at &&
					(t.finishedAt ?? Infinity) > (i > 0 ? rounds[i - 1].at : -Infinity),
			).length,
		})),
	};
}
