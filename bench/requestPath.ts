import { Agent, request } from 'undici';

import type { VisionStoryClient } from '../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { mapConcurrent } from '../packages/n8n-nodes-visionstory/nodes/shared/api/concurrency';
import type { Harness } from '../test/harness';
import { TRIGGER } from '../test/support/engine';
import type { EmulatorProcess } from './emulatorProcess';
import { timed } from './memory';

export interface RequestPathFigures {
	requests: number;
	concurrency: number;
	clientRps: number;
	bareRps: number;
	/** CPU time of this process per request, microseconds. */
	clientCpuMicros: number;
	bareCpuMicros: number;
	items: number;
	/** The real node's time per item minus the minimal node's: what the executor itself costs. */
	executorMsPerItem: number;
	/** The minimal node's time per item: n8n's HTTP stack and the request itself. */
	rawNodeMsPerItem: number;
}

async function rps(
	count: number,
	concurrency: number,
	call: () => Promise<unknown>,
): Promise<number> {
	const { seconds } = await timed(
		async () => await mapConcurrent(Array.from({ length: count }), concurrency, call),
	);
	return count / seconds;
}

/** The client's `get` (envelope, validation, parsing, retry bookkeeping) against a bare undici loop to the same endpoint. */
export async function requestPath(
	harness: Harness,
	emu: EmulatorProcess,
	client: VisionStoryClient,
	requests = 4000,
	concurrency = 16,
	items = 1000,
): Promise<RequestPathFigures> {
	await emu.reset();
	const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
	const url = `${emu.baseUrl}/api/v1/billing/credits`;
	const bare = async () => {
		const response = await request(url, {
			headers: { 'x-api-key': emu.apiKey, accept: 'application/json' },
			dispatcher: agent,
		});
		const body = (await response.body.json()) as { data: { credits: number } };
		if (typeof body.data.credits !== 'number') throw new Error('bad answer');
	};
	const viaClient = async () => void (await client.getCredits());
	// Warm both paths, then interleave short chunks, alternating which goes first, so both see the same
	// machine and the same emulator (whose request log grows with every request), and sum each side's time.
	// Warm-up long enough for the JIT to settle on both paths (the first thousands run slower).
	for (let round = 0; round < 4; round++) {
		await rps(1000, concurrency, bare);
		await rps(1000, concurrency, viaClient);
		await emu.reset();
	}
	const chunk = 250;
	const seconds = { bare: 0, client: 0 };
	const cpuMicros = { bare: 0, client: 0 };
	for (let round = 0; round < requests / chunk; round++) {
		if (round % 8 === 0) await emu.reset();
		const sides = round % 2 === 0 ? (['bare', 'client'] as const) : (['client', 'bare'] as const);
		for (const side of sides) {
			const cpu = process.cpuUsage();
			const run = await timed(
				async () =>
					await mapConcurrent(
						Array.from({ length: chunk }),
						concurrency,
						side === 'bare' ? bare : viaClient,
					),
			);
			const used = process.cpuUsage(cpu);
			seconds[side] += run.seconds;
			cpuMicros[side] += used.user + used.system;
		}
	}
	const bareRps = requests / seconds.bare;
	const clientRps = requests / seconds.client;
	const workflow = {
		nodes: [
			{
				id: 'start',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'credits',
				name: 'Get Credits',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'account', operation: 'getCredits' },
				credentials: { visionStoryApi: { id: 'bench', name: 'VisionStory' } },
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Get Credits', type: 'main', index: 0 }]] } },
	};
	const credentials = { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } };
	const pinned = Array.from({ length: items }, (_, i) => ({ json: { i } }));
	const runOnce = async (type: string) => {
		const flow = { ...workflow, nodes: [workflow.nodes[0], { ...workflow.nodes[1], type }] };
		return await timed(async () => {
			const result = await harness.run(flow as never, {
				credentials,
				pinData: { [TRIGGER]: pinned },
			});
			if (result.error) throw result.error;
			if (result.output('Get Credits').length !== items) throw new Error('missing items');
		});
	};
	// Alternate the real node and the minimal one (same requests through n8n's helper), best of three each.
	let executorSeconds = Infinity;
	let rawSeconds = Infinity;
	for (let round = 0; round < 3; round++) {
		executorSeconds = Math.min(
			executorSeconds,
			(await runOnce('n8n-nodes-visionstory.visionStory')).seconds,
		);
		rawSeconds = Math.min(rawSeconds, (await runOnce('bench.rawCredits')).seconds);
		await emu.reset();
	}
	await agent.close();
	return {
		requests,
		concurrency,
		clientRps,
		bareRps,
		clientCpuMicros: cpuMicros.client / requests,
		bareCpuMicros: cpuMicros.bare / requests,
		items,
		executorMsPerItem: ((executorSeconds - rawSeconds) * 1000) / items,
		rawNodeMsPerItem: (rawSeconds * 1000) / items,
	};
}
