/**
 * npm run bench: the figures that show the package is fast, each beside the naive way, measured in
 * one run, printed and written to BENCHMARKS.md with the machine they ran on.
 * BENCH_QUICK=1 runs a smaller version for development (not the figures to quote).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import { N8N_LINES } from '../scripts/n8n/versions';
import { createHarness } from '../test/harness';
import { createUndiciClient } from '../test/support/undiciTransport';
import type { BatchFigures } from './batch';
import { aiVideoBatch, talkingVideoBatch } from './batch';
import { startEmulatorProcess } from './emulatorProcess';
import { RawCredits } from './rawCreditsNode';
import type { FileFigures } from './files';
import { assetUpload, videoDownload } from './files';
import { log, withTicker } from './progress';
import type { QueueBatchFigures, QueueDownloadFigures } from './queue';
import { queueBench } from './queue';
import type { RequestPathFigures } from './requestPath';
import { requestPath } from './requestPath';
import type { ScaleFigures } from './scale';
import { scaleBatch, scaleRuns } from './scale';
import type { TextFigures } from './text';
import { textWork } from './text';
import type { TriggerFigures } from './trigger';
import { triggerBurst, triggerRows } from './trigger';

const quick = process.env.BENCH_QUICK === '1';
/**
 * BENCH_ONLY=path, BENCH_ONLY=text or BENCH_ONLY=queue measures only that part (while working on it); nothing is written.
 * BENCH_ONLY=scale measures only the large batches and writes their section into BENCHMARKS.md, saying so.
 * BENCH_ONLY=trigger measures only the trigger's burst (10,000 AI videos between two polls) and
 * writes its section into BENCHMARKS.md, saying so.
 */
const only = process.env.BENCH_ONLY;
const MIB = 1024 * 1024;

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const check = (ok: boolean) => (ok ? 'met' : '**missed**');

function batchRows(figures: BatchFigures[]): string[] {
	return figures.map((f) => {
		const speedup = f.baselineSeconds / f.batchedSeconds;
		const overFloor = f.batchedSeconds / f.floorSeconds;
		return `| ${f.items} ${f.kind.toLowerCase()}s${f.cap ? `, cap ${f.cap}` : ''} (render ${f.renderSeconds} s, poll ${f.pollSeconds} s) | ${fmt(f.batchedSeconds)} s | ${fmt(f.baselineSeconds)} s | ${fmt(speedup)}× | ${fmt(overFloor, 2)}× of ${fmt(f.floorSeconds)} s | ${fmt(f.statusRequestsPerTask, 2)} | ${f.failedItems} failed, ${f.refusals429} refused by 429 |`;
	});
}

function textRows(figures: TextFigures[]): string[] {
	return [
		'## Text work',
		'',
		'| work | size | time | time at half the size | growth when the size doubles |',
		'|---|---|---|---|---|',
		...figures.map(
			(f) =>
				`| ${f.what} | ${f.size} | ${fmt(f.fullMs)} ms | ${fmt(f.halfMs)} ms | ${fmt(f.fullMs / f.halfMs, 2)}× |`,
		),
		'',
		'Fastest of 3 runs each. Linear work grows about 2× when the size doubles, quadratic work 4×.',
		'',
	];
}

function targets(
	batches: BatchFigures[],
	files: FileFigures[],
	path: RequestPathFigures,
	text: TextFigures[],
): string[] {
	const [talking, ai] = batches;
	const roundsOk = (ai.rounds ?? []).every((r) => r.requests === Math.ceil(r.pending / 20));
	const download = files[0];
	return [
		// The request budget (5/s by default) spaces the submissions, so the speed-up it allows is one-at-a-time over its floor (17.9× for 50 videos rendering 4 s), below the 20× asked before the budget existed.
		`| 50 talking videos ≥ 20× faster than one at a time, or ≥ 90 % of the speed-up the request budget allows (one at a time ÷ floor) | ${fmt(talking.baselineSeconds / talking.batchedSeconds)}× of ${fmt(talking.baselineSeconds / talking.floorSeconds)}× allowed | ${check(talking.baselineSeconds / talking.batchedSeconds >= Math.min(20, 0.9 * (talking.baselineSeconds / talking.floorSeconds)))} |`,
		`| … and within 2 poll intervals of the floor (one render + N / budget) | ${fmt((talking.batchedSeconds - talking.floorSeconds) / talking.pollSeconds, 2)} intervals after it | ${check(talking.batchedSeconds - talking.floorSeconds <= 2 * talking.pollSeconds)} |`,
		`| AI video within 10 % of ceil(N / cap) renders | ${fmt((ai.batchedSeconds / ai.floorSeconds - 1) * 100)} % over | ${check(ai.batchedSeconds <= ai.floorSeconds * 1.1)} |`,
		`| … with no item failed by 429 | ${ai.failedItems} failed (${ai.refusals429} submissions refused and requeued) | ${check(ai.failedItems === 0)} |`,
		`| status requests per AI poll round = ceil(pending / 20) | ${(ai.rounds ?? []).map((r) => `${r.requests}/${Math.ceil(r.pending / 20)}`).join(' ')} | ${check(roundsOk)} |`,
		`| 1 GiB download RSS growth ≤ 64 MiB | ${fmt(download.streamedPeakMiB)} MiB | ${check(download.mib < 1024 || download.streamedPeakMiB <= 64)} |`,
		`| client ≥ 0.9× bare undici | ${fmt(path.clientRps / path.bareRps, 2)}× | ${check(path.clientRps / path.bareRps >= 0.9)} |`,
		...text.map(
			(f) =>
				`| ${f.what}: ≤ 3× the time when the size doubles (not quadratic) | ${fmt(f.fullMs / f.halfMs, 2)}× | ${check(f.fullMs / f.halfMs <= 3)} |`,
		),
	];
}

const SCALE_BEGIN = '<!-- scale:begin -->';
const SCALE_END = '<!-- scale:end -->';

function scaleSection(figures: ScaleFigures[], measuredBy: string): string[] {
	const [standard, tenPerSecond, limited, overLimit] = figures.filter(
		(f) => f.kind === 'talkingVideo',
	);
	const talking = figures.filter((f) => f.kind === 'talkingVideo');
	const peakOk = figures.every((f) => f.peakPerSecond <= f.budget);
	const row = (f: ScaleFigures) =>
		`| ${f.label} (render ${f.renderSeconds} s, poll ${f.pollSeconds} s${f.download ? ', Download Result on, 1 MiB files, filesystem mode' : ''}) | ${f.budget}/s | ${f.serviceLimit ? `${f.serviceLimit}/s` : 'none'} | ${fmt(f.seconds)} s | ${fmt(f.floorSeconds)} s | ${fmt(f.seconds / f.floorSeconds, 2)}× | ${f.peakPerSecond} | ${fmt(f.averagePerSecond)} | ${fmt(f.requestsPerVideo, 2)} (${f.statusRequests} status) | ${fmt(f.peakRssMiB)} MiB | ${f.rateLimited} rate limited${f.capRefusals ? `, ${f.capRefusals} refused by the cap` : ''} | ${f.failedItems} failed; ${f.tasks} tasks, ${f.charges} charges |`;
	const lines = [
		SCALE_BEGIN,
		'## Large batches under a request budget',
		'',
		measuredBy,
		'',
		"One execution, every item in it; the emulator in its own process counts what it receives per key (its request log). Each row uses a fresh key, so the budget starts at the node's Requests per Second.",
		'',
		'| batch | budget | service limit | wall time | floor | over floor | peak requests/s | average requests/s | requests per video | peak RSS growth | 429s met (absorbed: items still made) | items |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...figures.map(row),
		'',
		"Floor: talking videos, one render (and the emulator's 0.5 s queue) plus N / rate (the last submission leaves at N / rate), the rate being the budget or the service's limit if lower; AI videos, ceil(N / cap) rounds of max(render and queue, poll interval). Peak: the most requests of the key that arrived within any one second; average: requests over the time from the first to the last.",
		'',
		'| target | measured | |',
		'|---|---|---|',
	];
	if (standard) {
		lines.push(
			`| 1,000 talking videos within 1.3× of the floor | ${fmt(standard.seconds / standard.floorSeconds, 2)}× | ${check(standard.seconds <= standard.floorSeconds * 1.3)} |`,
		);
		lines.push(
			`| … peak request rate ≤ the budget (every row) | ${figures.map((f) => `${f.peakPerSecond}/${f.budget}`).join(', ')} | ${check(peakOk)} |`,
		);
		lines.push(
			`| … 0 failed items (every row) | ${figures.map((f) => f.failedItems).join(', ')} | ${check(figures.every((f) => f.failedItems === 0))} |`,
		);
		lines.push(
			`| … peak RSS growth ≤ 128 MiB | ${talking.map((f) => `${fmt(f.peakRssMiB, 0)} MiB`).join(', ')} | ${check(talking.every((f) => f.peakRssMiB <= 128))} |`,
		);
	}
	if (tenPerSecond && limited) {
		lines.push(
			`| under a service limit of 10/s: 0 items failed by 429 | ${limited.failedItems} failed, ${limited.rateLimited} 429s met | ${check(limited.failedItems === 0)} |`,
		);
		lines.push(
			`| … within 1.2× of the same run without the limit (10/s) | ${fmt(limited.seconds / tenPerSecond.seconds, 2)}× | ${check(limited.seconds <= tenPerSecond.seconds * 1.2)} |`,
		);
	}
	if (overLimit) {
		lines.push(
			`| a budget of 20/s over a service limit of 10/s: 429s absorbed | ${overLimit.rateLimited} 429s, ${overLimit.failedItems} failed, ${fmt(overLimit.seconds / overLimit.floorSeconds, 2)}× of the floor at 10/s | ${check(overLimit.failedItems === 0)} |`,
		);
	}
	lines.push('', SCALE_END, '');
	return lines;
}

/** Puts the large-batch section into BENCHMARKS.md, replacing the one there, before the queue-mode section. */
/** Puts a section measured alone into BENCHMARKS.md between its markers (first time: before Big files). */
function writeSection(beginMarker: string, endMarker: string, section: string[]): void {
	const file = join(__dirname, '..', 'BENCHMARKS.md');
	const current = readFileSync(file, 'utf8');
	const text = section.join('\n');
	const begin = current.indexOf(beginMarker);
	const end = current.indexOf(endMarker);
	const next =
		begin >= 0 && end > begin
			? current.slice(0, begin) + text + current.slice(end + endMarker.length).replace(/^\n+/, '')
			: current.replace('## Big files', `${text}## Big files`);
	writeFileSync(file, next);
}

const TRIGGER_BEGIN = '<!-- trigger:begin -->';
const TRIGGER_END = '<!-- trigger:end -->';

function triggerSection(figures: TriggerFigures, measuredBy: string): string[] {
	return [TRIGGER_BEGIN, ...triggerRows(figures, measuredBy), TRIGGER_END, ''];
}

async function scaleFigures(
	harness: Awaited<ReturnType<typeof createHarness>>,
	emu: Awaited<ReturnType<typeof startEmulatorProcess>>,
): Promise<ScaleFigures[]> {
	const figures: ScaleFigures[] = [];
	for (const run of scaleRuns(quick))
		figures.push(await withTicker(run.label, () => scaleBatch(harness, emu, run)));
	return figures;
}

function machine(): string {
	const cpu = cpus();
	return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${fmt(totalmem() / 1024 ** 3, 0)} GiB RAM, Node ${process.version}, ${process.platform}`;
}

interface QueueFigures {
	batches: QueueBatchFigures[];
	downloads: QueueDownloadFigures[];
}

/** Each n8n line in queue mode: its default binary-data mode with a batch, then binary data on a shared disk. */
async function queueMode(
	emu: Awaited<ReturnType<typeof startEmulatorProcess>>,
): Promise<QueueFigures> {
	const figures: QueueFigures = { batches: [], downloads: [] };
	const downloadBytes = (quick ? 32 : 200) * MIB;
	for (const line of [N8N_LINES.n8n2, N8N_LINES.n8n1]) {
		const batch = { executions: 5, videos: quick ? 2 : 10, renderMs: 4000 };
		const standard = await queueBench(emu, {
			line,
			binaryStorage: 'default',
			batch,
			downloadBytes,
		});
		if (standard.batch) figures.batches.push(standard.batch);
		figures.downloads.push(standard.download);
		figures.downloads.push(
			(await queueBench(emu, { line, binaryStorage: 'shared-filesystem', downloadBytes })).download,
		);
	}
	return figures;
}

function queueRows(queue: QueueFigures): string[] {
	return [
		'## Queue mode',
		'',
		"The real n8n app in queue mode: main, two workers of concurrency 3, a webhook processor, Postgres and Redis from Debian's packages, the package installed in every process's user folder, the emulator as VisionStory.",
		'',
		'| batch | wall time | floor (one render + one poll interval) | over floor | executions per worker | items |',
		'|---|---|---|---|---|---|',
		...queue.batches.map(
			(b) =>
				`| ${b.line}: ${b.videos} talking videos in ${b.executions} webhook executions (render ${b.renderSeconds} s, poll ${b.pollSeconds} s) | ${fmt(b.wallSeconds)} s | ${fmt(b.floorSeconds)} s | ${fmt(b.wallSeconds / b.floorSeconds, 2)}× | ${Object.entries(
					b.byWorker,
				)
					.sort()
					.map(([w, n]) => `${w}: ${n}`)
					.join(', ')} | ${b.failedItems} failed |`,
		),
		'',
		'Wall time: from the first webhook call to the last execution stopped, as n8n recorded it.',
		'',
		'| a finished video downloaded into binary data by Create (wait on, Download Result on) | binary data storage | stored as | worker memory before | worker peak | growth | time |',
		'|---|---|---|---|---|---|---|',
		...queue.downloads.map(
			(d) =>
				`| ${d.line}: ${fmt(d.mib, 0)} MiB | ${d.mode} | ${d.storedAs} | ${fmt(d.baselineMiB, 0)} MiB | ${fmt(d.peakMiB, 0)} MiB | ${fmt(d.peakMiB - d.baselineMiB, 0)} MiB | ${d.error ? `**failed**: ${d.error.slice(0, 120)}` : `${fmt(d.seconds)} s`} |`,
		),
		'',
		"Peak: the worker process's resident memory sampled every 20 ms, or the kernel's high-water mark if higher.",
		'',
	];
}

async function main(): Promise<void> {
	const emu = await startEmulatorProcess({ RENDER_MS: '4000' });
	const harness = await createHarness({
		binaryMode: 'filesystem',
		extraNodeTypes: { 'bench.rawCredits': new RawCredits() },
	});
	const credentials = { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } };
	const client = createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl });
	try {
		if (only === 'path') {
			const path = await requestPath(harness, emu, client);
			log(
				`client ${fmt(path.clientRps, 0)} req/s (${fmt(path.clientCpuMicros)} µs CPU) vs bare undici ${fmt(path.bareRps, 0)} req/s (${fmt(path.bareCpuMicros)} µs CPU): ${fmt(path.clientRps / path.bareRps, 2)}×; executor overhead ${fmt(path.executorMsPerItem, 3)} ms per item (n8n's HTTP stack ${fmt(path.rawNodeMsPerItem, 3)} ms)`,
			);
			return;
		}
		if (only === 'text') {
			console.log(['', ...textRows(textWork())].join('\n'));
			return;
		}
		if (only === 'queue') {
			const queue = await queueMode(emu);
			console.log(['', ...queueRows(queue)].join('\n'));
			return;
		}
		if (only === 'trigger') {
			const figures = await triggerBurst(harness, emu, quick ? 2_000 : 10_000);
			const section = triggerSection(
				figures,
				`Measured by \`BENCH_ONLY=trigger npm run bench\`${quick ? ' (BENCH_QUICK: a smaller run, not the figures to quote)' : ''} on ${new Date().toISOString().slice(0, 10)} (${machine()}), a run of these rows alone.`,
			);
			console.log(['', ...section].join('\n'));
			writeSection(TRIGGER_BEGIN, TRIGGER_END, section);
			log('written into BENCHMARKS.md');
			return;
		}
		if (only === 'scale') {
			const figures = await scaleFigures(harness, emu);
			const section = scaleSection(
				figures,
				`Measured by \`BENCH_ONLY=scale npm run bench\`${quick ? ' (BENCH_QUICK: a smaller run, not the figures to quote)' : ''} on ${new Date().toISOString().slice(0, 10)} (${machine()}), a run of these rows alone: the other sections come from the full run dated at the top, which may predate the request budget (then its 50 talking videos were submitted all at once; at the default budget they take about 50 / 5 s more).`,
			);
			console.log(['', ...section].join('\n'));
			writeSection(SCALE_BEGIN, SCALE_END, section);
			log('written into BENCHMARKS.md');
			return;
		}
		log('1/5 batches of renders (this part waits on real renders: several minutes)');
		const talking = await withTicker('talking video batch', () =>
			talkingVideoBatch(harness, emu, credentials, quick ? 10 : 50, 4000),
		);
		log(
			`talking videos: ${fmt(talking.batchedSeconds)} s batched, ${fmt(talking.baselineSeconds)} s one at a time`,
		);
		const ai = await withTicker('AI video batch', () =>
			aiVideoBatch(harness, emu, credentials, quick ? 6 : 20, 2, quick ? 8000 : 12_000),
		);
		log(
			`AI videos: ${fmt(ai.batchedSeconds)} s batched, ${fmt(ai.baselineSeconds)} s one at a time`,
		);

		log('2/5 big files');
		const download = await withTicker('video download', () =>
			videoDownload(harness, emu, credentials, (quick ? 128 : 1024) * MIB),
		);
		log(
			`download: ${fmt(download.streamedPeakMiB)} MiB streamed vs ${fmt(download.bufferedPeakMiB)} MiB buffered`,
		);
		const upload = await withTicker('asset upload', () =>
			assetUpload(harness, emu, credentials, (quick ? 30 : 100) * MIB),
		);
		log(
			`upload: ${fmt(upload.streamedPeakMiB)} MiB streamed vs ${fmt(upload.bufferedPeakMiB)} MiB buffered`,
		);

		log('3/5 request path and text work');
		const path = await withTicker('request path', () =>
			requestPath(harness, emu, client, quick ? 1000 : 4000, 16, quick ? 200 : 1000),
		);
		log(`client ${fmt(path.clientRps, 0)} req/s vs bare undici ${fmt(path.bareRps, 0)} req/s`);
		const text = textWork();

		log(
			'4/5 queue mode in the real n8n app (installs n8n once into ~/.cache/visionstory-test/, then several minutes)',
		);
		const queue = await queueMode(emu);

		log(
			'5/5 large batches under a request budget (1,000 talking videos, 200 AI videos: many minutes)',
		);
		const scale = await scaleFigures(harness, emu);

		log('and the trigger under a burst (10,000 AI videos finishing between two polls)');
		const trigger = await triggerBurst(harness, emu, quick ? 2_000 : 10_000);

		const cpu = cpus();
		const lines = [
			'# Benchmarks',
			'',
			`Measured by \`npm run bench\`${quick ? ' (BENCH_QUICK: a smaller run, not the figures to quote)' : ''} on ${new Date().toISOString().slice(0, 10)}: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${fmt(totalmem() / 1024 ** 3, 0)} GiB RAM, Node ${process.version}, ${process.platform}.`,
			"The nodes run in n8n's engine (n8n-core, in-process) against the VisionStory emulator in its own process, over loopback HTTP.",
			'Machines are shared and noisy: read ratios, not absolute seconds.',
			'',
			'## Batches of renders',
			'',
			'Baseline: the same node, one item per execution, items one after another: what a node that waits per item does.',
			'',
			'| batch | batched | one at a time | speed-up | wall time vs. floor | status requests per task | items |',
			'|---|---|---|---|---|---|---|',
			...batchRows([talking, ai]),
			'',
			'Floor: one render plus N / 5 for talking videos (submissions at the default request budget, no cap); ceil(N / cap) renders for AI videos under a cap.',
			'',
			...scaleSection(scale, 'Measured in the same run.'),
			...triggerSection(trigger, 'Measured in the same run.'),
			'## Big files',
			'',
			'| transfer | size | peak RSS growth, streamed (the nodes) | peak RSS growth, buffered whole (baseline) |',
			'|---|---|---|---|',
			...[download, upload].map(
				(f) =>
					`| ${f.what} | ${fmt(f.mib, 0)} MiB | ${fmt(f.streamedPeakMiB)} MiB | ${fmt(f.bufferedPeakMiB)} MiB |`,
			),
			'',
			'## Request path',
			'',
			'| measure | the package | baseline | ratio |',
			'|---|---|---|---|',
			`| GET /api/v1/billing/credits, ${path.requests} requests, ${path.concurrency} in flight | client: ${fmt(path.clientRps, 0)} req/s | bare undici loop: ${fmt(path.bareRps, 0)} req/s | ${fmt(path.clientRps / path.bareRps, 2)}× |`,
			`| … CPU time of the calling process per request | client: ${fmt(path.clientCpuMicros)} µs | bare undici: ${fmt(path.bareCpuMicros)} µs | +${fmt(path.clientCpuMicros - path.bareCpuMicros)} µs |`,
			`| Account → Get Credits, ${path.items} items in one execution | ${fmt(path.executorMsPerItem + path.rawNodeMsPerItem, 3)} ms per item | a minimal node making the same requests through n8n's helper: ${fmt(path.rawNodeMsPerItem, 3)} ms per item | executor overhead ${path.executorMsPerItem > 0 ? `${fmt(path.executorMsPerItem, 3)} ms per item` : 'below the run-to-run noise'} |`,
			'',
			...textRows(text),
			...queueRows(queue),
			'## Targets',
			'',
			'| target | measured | |',
			'|---|---|---|',
			...targets([talking, ai], [download, upload], path, text),
			'',
		];
		const report = lines.join('\n');
		console.log(`\n${report}`);
		writeFileSync(join(__dirname, '..', 'BENCHMARKS.md'), report);
		log('written to BENCHMARKS.md');
	} finally {
		await harness.shutdown();
		await emu.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
