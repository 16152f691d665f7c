/**
 * Where the request path's CPU goes: the client's `getCredits` (and, with PROFILE_SIDE=bare, the bare
 * undici loop) run alone under V8's sampling profiler, then the functions with the most self time,
 * summed by function and file. Run: `npx tsx bench/profilePath.ts` (PROFILE_SIDE=client|bare|nodered,
 * PROFILE_REQUESTS=20000). The figures quoted in BENCHMARKS.md come from `npm run bench`; this says why.
 */
import { Session } from 'node:inspector/promises';

import { Agent, request } from 'undici';

import { mapConcurrent } from '../packages/n8n-nodes-visionstory/nodes/shared/api/concurrency';
import { createUndiciClient } from '../test/support/undiciTransport';
import { startEmulatorProcess } from './emulatorProcess';
import { nodeRedClient } from './nodeRedPath';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount: number;
	children?: number[];
}

async function main(): Promise<void> {
	const side = process.env.PROFILE_SIDE ?? 'client';
	const requests = Number(process.env.PROFILE_REQUESTS ?? 20_000);
	const emu = await startEmulatorProcess();
	const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
	const url = `${emu.baseUrl}/api/v1/billing/credits`;
	const client =
		side === 'nodered'
			? nodeRedClient(emu.apiKey, emu.baseUrl)
			: createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl });
	const call =
		side === 'bare'
			? async () => {
					const response = await request(url, {
						headers: { 'x-api-key': emu.apiKey, accept: 'application/json' },
						dispatcher: agent,
					});
					await response.body.json();
				}
			: async () => void (await client.getCredits());
	try {
		// Warm the JIT first, so the profile shows the steady state.
		await mapConcurrent(Array.from({ length: 4000 }), 16, call);
		await emu.reset();
		const session = new Session();
		session.connect();
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 100 });
		await session.post('Profiler.start');
		const cpu = process.cpuUsage();
		await mapConcurrent(Array.from({ length: requests }), 16, call);
		const used = process.cpuUsage(cpu);
		const { profile } = (await session.post('Profiler.stop')) as {
			profile: { nodes: ProfileNode[]; samples: number[] };
		};
		session.disconnect();
		const total = profile.samples.length;
		const bySelf = new Map<string, number>();
		for (const node of profile.nodes) {
			const file = node.callFrame.url.replace(/^.*\/(node_modules|packages|test|bench)\//, '$1/');
			const key = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
			bySelf.set(key, (bySelf.get(key) ?? 0) + node.hitCount);
		}
		const byFile = new Map<string, number>();
		for (const node of profile.nodes) {
			const url = node.callFrame.url;
			const file = url.includes('/packages/')
				? url.replace(/^.*\/packages\//, 'packages/')
				: url.includes('/node_modules/')
					? `node_modules/${url.split('/node_modules/').pop()!.split('/')[0]}`
					: url || `(${node.callFrame.functionName || 'vm'})`;
			byFile.set(file, (byFile.get(file) ?? 0) + node.hitCount);
		}
		const top = (map: Map<string, number>, n: number) =>
			[...map]
				.sort((a, b) => b[1] - a[1])
				.slice(0, n)
				.map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
		console.log(
			`${side}: ${requests} requests, ${((used.user + used.system) / requests).toFixed(1)} µs CPU each`,
		);
		console.log('self time by function:');
		console.log(top(bySelf, Number(process.env.PROFILE_TOP ?? 25)).join('\n'));
		console.log('self time by file or package:');
		console.log(top(byFile, 15).join('\n'));
	} finally {
		await agent.close();
		await emu.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
