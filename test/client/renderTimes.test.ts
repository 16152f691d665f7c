import { RenderTimes } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/renderTimes';

/** Bounds (10 s, 12.5 s]: a task seen rendering at 10 s, another seen finished at 12.5 s. */
function bounded(): RenderTimes {
	const renders = new RenderTimes();
	renders.unfinished({ submittedAt: 0 }, 10_000);
	renders.finished({ submittedAt: 0, unfinishedAt: 10_000 }, 12_500);
	return renders;
}

const POLL_MS = 5000;

test('without a cap to weigh it against, the wide bounds are narrowed at their midpoint', () => {
	expect(bounded().estimate()).toBe(11_250);
});

test('with one render to come, a read too early (a whole poll interval) is not risked: it reads after the quickest finish', () => {
	const at = bounded().estimate({ renders: 1, earlyCostMs: POLL_MS })!;
	expect(at).toBeGreaterThan(12_500);
	expect(at).toBeLessThanOrEqual(12_500 + 500);
});

test('with many renders to come, it reads below the quickest finish: narrowing pays for each of them', () => {
	const at = bounded().estimate({ renders: 20, earlyCostMs: POLL_MS })!;
	expect(at).toBeGreaterThan(10_000);
	expect(at).toBeLessThan(12_500);
	// Never at the midpoint or below: a read too early costs more than a late one.
	expect(at).toBeGreaterThan(11_250);
});

test('bounds within 5 % are taken as known: read just after them, whatever is to come', () => {
	const renders = new RenderTimes();
	renders.unfinished({ submittedAt: 0 }, 12_000);
	renders.finished({ submittedAt: 0, unfinishedAt: 12_000 }, 12_400);
	for (const worth of [undefined, { renders: 50, earlyCostMs: POLL_MS }]) {
		const at = renders.estimate(worth)!;
		expect(at).toBeGreaterThan(12_400);
		// The margin a real service's jitter needs: 3 % of the render, at least 250 ms, at most 1 s.
		expect(at).toBeLessThanOrEqual(12_400 + 12_400 * 0.03 + 1);
	}
});
