/**
 * The Node-RED package's figures: its Talking Video node run in Node-RED's runtime
 * (node-red-node-test-helper, in this process) against the emulator in its own process, and its request
 * path (the shared client over the package's own HTTP channel) against a bare undici loop.
 */
import { Agent, request } from 'undici';

import { mapConcurrent } from '../packages/n8n-nodes-visionstory/nodes/shared/api/concurrency';
import { DEFAULT_REQUESTS_PER_SECOND } from '../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';
import { peakPerSecond } from '../test/emulator/requestLog';
import { ALL_NODES, flowWith, helper, run } from '../test/node-red/support';
import type { EmulatorProcess } from './emulatorProcess';
import { peakRssGrowth, timed } from './memory';
import { nodeRedClient } from './nodeRedPath';
import { log } from './progress';

const POLL_SECONDS = 5;
let accounts = 0;

export interface NodeRedBatchFigures {
	items: number;
	renderSeconds: number;
	batchedSeconds: number;
	/** The same texts, one message each, each waited for before the next (NaN when not measured). */
	oneAtATimeSeconds: number;
	floorSeconds: number;
	failedItems: number;
}

export interface NodeRedScaleFigures {
	items: number;
	renderSeconds: number;
	budget: number;
	seconds: number;
	floorSeconds: number;
	peakPerSecond: number;
	peakRssMiB: number;
	failedItems: number;
	tasks: number;
	charges: number;
}

export interface NodeRedPathFigures {
	requests: number;
	concurrency: number;
	nodeRedRps: number;
	bareRps: number;
	nodeRedCpuMicros: number;
	bareCpuMicros: number;
}

async function avatarOf(emu: EmulatorProcess): Promise<string> {
	const response = await fetch(`${emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, {
		headers: { 'X-API-Key': emu.apiKey },
	});
	return ((await response.json()) as { data: { avatars: Array<{ avatar_id: string }> } }).data
		.avatars[0].avatar_id;
}

/** The Talking Video node waiting for its videos, on a config node with a fresh key (so the budget starts at its setting). */
async function loadTalkingVideo(emu: EmulatorProcess, budget: number): Promise<string> {
	const apiKey = `sk-vs-bench-nodered-${process.pid}-${++accounts}-0000000000`;
	const account = await emu.addAccount(apiKey, 10_000_000);
	const node = {
		type: 'visionstory-talking-video',
		operation: 'create',
		avatarId: await avatarOf(emu),
		voiceId: 'Alice',
		scriptType: 'text',
		waitForCompletion: true,
		pollIntervalSeconds: POLL_SECONDS,
		// The tasks as JSON: the figures are the waiting's, as in the n8n batch rows.
		downloadResult: false,
	};
	await helper.load(
		ALL_NODES,
		flowWith(node, emu.baseUrl, { requestsPerSecond: budget }) as never,
		{ cfg: { apiKey } },
	);
	return account;
}

async function send(payload: unknown): Promise<Array<{ status?: string } | null>> {
	const out = await run({ payload });
	if (out.output !== 'out1') throw new Error(`the node answered on ${out.output}`);
	// The tasks are in msg.visionstory beside files, else in msg.payload.
	const result = out.msg.visionstory ?? out.msg.payload;
	return (Array.isArray(result) ? result : [result]) as Array<{ status?: string } | null>;
}

/** N talking videos in one message (a batch) vs the same N texts one message at a time. */
export async function nodeRedBatch(
	emu: EmulatorProcess,
	items = 50,
	renderMs = 4000,
): Promise<NodeRedBatchFigures> {
	await emu.reset();
	await emu.setConfig({ renderMs, videoBytes: 0 });
	const texts = Array.from({ length: items }, (_, i) => `Personal welcome number ${i + 1}`);
	try {
		await loadTalkingVideo(emu, DEFAULT_REQUESTS_PER_SECOND);
		const batched = await timed(async () => await send(texts));
		const oneByOne = await timed(async () => {
			const made: Array<{ status?: string } | null> = [];
			for (const [i, text] of texts.entries()) {
				made.push(...(await send(text)));
				if ((i + 1) % 10 === 0) log(`Node-RED one at a time: ${i + 1}/${items} done`);
			}
			return made;
		});
		return {
			items,
			renderSeconds: renderMs / 1000,
			batchedSeconds: batched.seconds,
			oneAtATimeSeconds: oneByOne.seconds,
			floorSeconds: renderMs / 1000 + items / DEFAULT_REQUESTS_PER_SECOND,
			failedItems: batched.result.filter((v) => v?.status !== 'created').length,
		};
	} finally {
		await helper.unload();
	}
}

/** 1,000 talking videos in one message at the default budget, with what the emulator saw of the key. */
export async function nodeRedScale(
	emu: EmulatorProcess,
	items = 1000,
	renderMs = 20_000,
): Promise<NodeRedScaleFigures> {
	await emu.reset();
	await emu.setConfig({ renderMs, videoBytes: 0, rateLimitPerSecond: 0 });
	try {
		const account = await loadTalkingVideo(emu, DEFAULT_REQUESTS_PER_SECOND);
		const texts = Array.from(
			{ length: items },
			(_, i) => `Hi number ${i + 1}! Thanks for joining.`,
		);
		const measured = await peakRssGrowth(
			async () =>
				await timed(async () => {
					const made = await send(texts);
					return made.filter((v) => v?.status !== 'created').length;
				}),
		);
		const requests = (await emu.requests()).filter(
			(r) => r.origin === 'api' && r.account === account,
		);
		const render = renderMs / 1000;
		const floorSeconds = render + Math.min(0.5, render / 4) + items / DEFAULT_REQUESTS_PER_SECOND;
		return {
			items,
			renderSeconds: render,
			budget: DEFAULT_REQUESTS_PER_SECOND,
			seconds: measured.result.seconds,
			floorSeconds,
			peakPerSecond: peakPerSecond(requests),
			peakRssMiB: measured.peakMiB,
			failedItems: measured.result.result,
			tasks: (await emu.tasks()).filter((t) => t.account === account).length,
			charges: (await emu.ledger()).filter((e) => e.account === account && e.kind === 'charge')
				.length,
		};
	} finally {
		await helper.unload();
	}
}

/** The Node-RED client's `getCredits` against a bare undici loop, interleaved in chunks as the n8n row is. */
export async function nodeRedPath(
	emu: EmulatorProcess,
	requests = 4000,
	concurrency = 16,
): Promise<NodeRedPathFigures> {
	await emu.reset();
	const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
	const url = `${emu.baseUrl}/api/v1/billing/credits`;
	const client = nodeRedClient(emu.apiKey, emu.baseUrl);
	const sides = {
		bare: async () => {
			const response = await request(url, {
				headers: { 'x-api-key': emu.apiKey, accept: 'application/json' },
				dispatcher: agent,
			});
			const body = (await response.body.json()) as { data: { credits: number } };
			if (typeof body.data.credits !== 'number') throw new Error('bad answer');
		},
		nodeRed: async () => void (await client.getCredits()),
	};
	for (let round = 0; round < 4; round++) {
		await mapConcurrent(Array.from({ length: 1000 }), concurrency, sides.bare);
		await mapConcurrent(Array.from({ length: 1000 }), concurrency, sides.nodeRed);
		await emu.reset();
	}
	const chunk = 250;
	const seconds = { bare: 0, nodeRed: 0 };
	const cpuMicros = { bare: 0, nodeRed: 0 };
	for (let round = 0; round < requests / chunk; round++) {
		if (round % 8 === 0) await emu.reset();
		const order = round % 2 === 0 ? (['bare', 'nodeRed'] as const) : (['nodeRed', 'bare'] as const);
		for (const side of order) {
			const cpu = process.cpuUsage();
			const took = await timed(
				async () => await mapConcurrent(Array.from({ length: chunk }), concurrency, sides[side]),
			);
			const used = process.cpuUsage(cpu);
			seconds[side] += took.seconds;
			cpuMicros[side] += used.user + used.system;
		}
	}
	await agent.close();
	return {
		requests,
		concurrency,
		nodeRedRps: requests / seconds.nodeRed,
		bareRps: requests / seconds.bare,
		nodeRedCpuMicros: cpuMicros.nodeRed / requests,
		bareCpuMicros: cpuMicros.bare / requests,
	};
}
