/**
 * The trigger under a burst: 10,000 AI videos finishing between two polls, announced over the polls
 * that follow (200 a poll). The n8n trigger in n8n's engine (in-process), the emulator in its own
 * process: every video emitted once, the requests each poll sends, the size of the static data it
 * stores, and the peak growth of this process's memory while it works through them.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Harness } from '../test/harness';
import { triggerNode } from '../test/support/trigger';
import type { EmulatorProcess } from './emulatorProcess';
import { peakRssGrowth } from './memory';
import { log } from './progress';

export interface TriggerFigures {
	videos: number;
	polls: number;
	emitted: number;
	/** Emitted more than once (should be 0). */
	duplicates: number;
	/** Never emitted (should be 0). */
	missing: number;
	/** Requests the polls sent, the most in one poll, and on average. */
	requests: number;
	mostRequestsInAPoll: number;
	/** The largest static data the trigger stored, as JSON. */
	largestStateBytes: number;
	largestPending: number;
	peakRssMiB: number;
	seconds: number;
}

const RENDER_MS = 1_000;

/** `count` AI videos on `apiKey`'s account, 25 requests at a time; their ids. */
async function makeVideos(emu: EmulatorProcess, apiKey: string, count: number): Promise<string[]> {
	const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
	const models = (await (
		await fetch(`${emu.baseUrl}/api/v1/ai_video/models`, { headers })
	).json()) as { data: { models: Array<{ model_id: string }> } };
	const modelId = models.data.models[0].model_id;
	const ids: string[] = [];
	for (let i = 0; i < count; i += 25) {
		const batch = await Promise.all(
			Array.from({ length: Math.min(25, count - i) }, async (_, j) => {
				const response = await fetch(`${emu.baseUrl}/api/v1/ai_video`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ model_id: modelId, prompt: `Burst ${i + j}` }),
				});
				return ((await response.json()) as { data: { video_id: string } }).data.video_id;
			}),
		);
		ids.push(...batch);
	}
	return ids;
}

export async function triggerBurst(
	harness: Harness,
	emu: EmulatorProcess,
	videos: number,
): Promise<TriggerFigures> {
	await emu.reset();
	await emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: videos + 100 });
	const apiKey = 'sk-vs-bench-trigger-0001';
	const account = await emu.addAccount(apiKey, 100_000_000);
	const node = triggerNode({ events: ['aiVideo'] });
	const credentials = { visionStoryApi: { apiKey, baseUrl: emu.baseUrl } };
	const poll = async (staticData: IDataObject | undefined) =>
		await harness.poll(node, { credentials, staticData, mode: 'trigger' });
	const ours = async () => (await emu.requests()).filter((r) => r.account === account).length;

	const activation = await poll(undefined);
	log(`making ${videos} AI videos`);
	const made = await makeVideos(emu, apiKey, videos);
	await new Promise((resolve) => setTimeout(resolve, RENDER_MS + 1_500));

	const started = performance.now();
	const counts = new Map<string, number>();
	const perPoll: number[] = [];
	let largestStateBytes = 0;
	let largestPending = 0;
	const { peakMiB } = await peakRssGrowth(async () => {
		let staticData = activation.staticData;
		for (let quiet = 0; quiet < 2 && perPoll.length < 500; ) {
			const before = await ours();
			const result = await poll(staticData);
			perPoll.push((await ours()) - before);
			staticData = result.staticData;
			const items = result.items?.[0] ?? [];
			for (const item of items) {
				const id = String(item.json.video_id);
				counts.set(id, (counts.get(id) ?? 0) + 1);
			}
			quiet = items.length === 0 ? quiet + 1 : 0;
			largestStateBytes = Math.max(largestStateBytes, JSON.stringify(staticData).length);
			const state = staticData.cursor as { aiVideo?: { pending: unknown[] } };
			largestPending = Math.max(largestPending, state.aiVideo?.pending.length ?? 0);
			if (perPoll.length % 10 === 0) log(`poll ${perPoll.length}: ${counts.size} emitted`);
		}
	});
	return {
		videos,
		polls: perPoll.length,
		emitted: counts.size,
		duplicates: [...counts.values()].filter((n) => n > 1).length,
		missing: made.filter((id) => !counts.has(id)).length,
		requests: perPoll.reduce((a, b) => a + b, 0),
		mostRequestsInAPoll: Math.max(...perPoll),
		largestStateBytes,
		largestPending,
		peakRssMiB: peakMiB,
		seconds: (performance.now() - started) / 1000,
	};
}

export function triggerRows(f: TriggerFigures, measuredBy: string): string[] {
	const fmt = (n: number, digits = 1) => n.toFixed(digits);
	return [
		'## Trigger: a burst between two polls',
		'',
		measuredBy,
		'',
		`${f.videos.toLocaleString('en')} AI videos finish between two polls of the VisionStory Trigger (AI Video Finished, Ready); it hands over 200 a poll. The polls run back to back in n8n's engine; the emulator runs in its own process.`,
		'',
		'| videos | polls | emitted once | emitted twice | never emitted | requests (most in one poll, average) | largest static data | largest pending list | peak RSS growth | time |',
		'|---|---|---|---|---|---|---|---|---|---|',
		`| ${f.videos} | ${f.polls} | ${f.emitted - f.duplicates} | ${f.duplicates} | ${f.missing} | ${f.requests} (${f.mostRequestsInAPoll}, ${fmt(f.requests / f.polls)}) | ${fmt(f.largestStateBytes / 1024)} KiB | ${f.largestPending} | ${fmt(f.peakRssMiB)} MiB | ${fmt(f.seconds)} s |`,
		'',
	];
}
