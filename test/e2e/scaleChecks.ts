/**
 * The CSV example at scale in the real n8n app: 200 rows in one execution, within the request
 * budget, one task and one charge per row. Run on the 2.x line (filesystem binary data by default).
 */
import { nodeOutput } from '../../scripts/n8n/runData';
import type { WorkflowJson } from '../../scripts/n8n/examples';
import { peakPerSecond } from '../emulator/requestLog';
import type { SuiteContext } from './realN8n';

const ROWS = 200;
const DEFAULT_BUDGET = 5;

/** The example with its sample CSV grown to `rows` rows, under an id and name of its own. */
function withRows(example: WorkflowJson, rows: number): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	const csv = [
		'name,line',
		...Array.from(
			{ length: rows },
			(_, i) => `Guest ${i + 1},"Thanks for joining our spring webinar, seat ${i + 1}."`,
		),
	].join('\n');
	const sample = copy.nodes.find((n) => n.name === 'Sample CSV')!;
	const assignments = (
		sample.parameters.assignments as { assignments: Array<{ name: string; value: string }> }
	).assignments;
	assignments.find((a) => a.name === 'csv')!.value = `${csv}\n`;
	copy.id = 'csvTwoHundredRw';
	copy.name = `${copy.name} (${rows} rows)`;
	return copy;
}

export function describeLargeCsvCheck(ctx: SuiteContext): void {
	test(`csv-to-personalized-talking-videos with ${ROWS} rows: one task and one charge per row, within ${DEFAULT_BUDGET} requests a second`, async () => {
		const variant = withRows(ctx.session.examples['csv-to-personalized-talking-videos'], ROWS);
		await ctx.session.instance.importWorkflows([variant]);
		const ledgerBefore = ctx.emulator.ledger().length;
		const tasksBefore = new Set(ctx.emulator.tasks().map((t) => t.video_id));
		const lastRequest = ctx.emulator.requests().at(-1)?.seq ?? 0;
		const result = await ctx.session.instance.execute(variant.id, 600_000);
		expect(result.status).toBe('success');

		const videos = nodeOutput(result, 'Create Talking Videos');
		expect(videos).toHaveLength(ROWS);
		for (const [i, video] of videos.entries()) {
			expect(video.pairedItem).toEqual({ item: i });
			expect(video.json.status).toBe('created');
			expect(video.binary?.data?.mimeType).toBe('video/mp4');
		}
		const ids = videos.map((v) => String(v.json.video_id));
		expect(new Set(ids).size).toBe(ROWS);

		const tasks = ctx.emulator.tasks().filter((t) => !tasksBefore.has(t.video_id));
		expect(tasks.map((t) => t.video_id).sort()).toEqual([...ids].sort());
		const charges = ctx.emulator.ledger().slice(ledgerBefore);
		expect(charges).toHaveLength(ROWS);
		expect(charges.every((c) => c.operation === 'talking_video' && c.kind === 'charge')).toBe(true);
		expect(charges.map((c) => c.refId).sort()).toEqual([...ids].sort());

		const requests = ctx.emulator.requests({ origin: 'api' }).filter((r) => r.seq > lastRequest);
		expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/video')).toHaveLength(
			ROWS,
		);
		// Counted where the service sees them: creates and status reads (the budget's), never more than it in any second.
		// The avatar picked once before them is another node's call.
		const statusReads = requests.filter(
			(r) => r.method === 'GET' && (r.path === '/api/v1/video' || r.path === '/api/v1/videos'),
		);
		const creates = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/video');
		expect(peakPerSecond([...creates, ...statusReads])).toBe(DEFAULT_BUDGET);
		// Status read from the list of videos: fewer status requests than videos.
		expect(statusReads.length).toBeLessThan(ROWS / 2);
	}, 660_000);
}
