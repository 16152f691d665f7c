/** The request budget on its own, on a clock the test moves: slots, the cut on 429, the slow climb, order and cancel. */
import { RequestBudget } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';

function clock() {
	const c = {
		now: 0,
		sleeps: [] as number[],
		sleep: async (ms: number) => {
			c.sleeps.push(ms);
			c.now += ms;
			await Promise.resolve();
		},
	};
	return c;
}

test('a slot is held from the grant until a second after the answer', async () => {
	const c = clock();
	const budget = new RequestBudget(2, () => c.now);
	const a = await budget.acquire(c.sleep);
	const b = await budget.acquire(c.sleep);
	expect(c.now).toBe(0);
	// Both slots in flight: the third waits for an answer, then for a second after it.
	const third = budget.acquire(c.sleep);
	c.now = 300;
	a.answered();
	await third;
	expect(c.now).toBe(1300);
	b.answered();
	expect(budget.stats()).toMatchObject({ perSecond: 2, granted: 3, rateLimited: 0 });
});

test('a rate limit pauses for Retry-After and cuts the rate to 70 %, once per second; it climbs by one every 5 s without one', async () => {
	const c = clock();
	const budget = new RequestBudget(10, () => c.now);
	const grants = await Promise.all(Array.from({ length: 3 }, () => budget.acquire(c.sleep)));
	grants[0].answered({ retryAfterMs: 2000 });
	grants[1].answered({ retryAfterMs: 2000 });
	expect(budget.stats()).toMatchObject({ perSecond: 7, rateLimited: 2 });
	grants[2].answered();
	const next = await budget.acquire(c.sleep);
	expect(c.now).toBe(2000);
	next.answered({});
	expect(budget.stats().perSecond).toBe(4);
	// Five seconds of answers without a limit raise it by one, up to the ceiling.
	for (let i = 0; i < 30; i++) {
		c.now += 1000;
		(await budget.acquire(c.sleep)).answered();
	}
	expect(budget.stats().perSecond).toBe(10);
	budget.setCeiling(3);
	expect(budget.stats()).toMatchObject({ perSecond: 3, ceiling: 3 });
});

test('waiters are served in arrival order, and only the first waits on the clock', async () => {
	const c = clock();
	const budget = new RequestBudget(1, () => c.now);
	(await budget.acquire(c.sleep)).answered();
	const order: number[] = [];
	await Promise.all(
		[1, 2, 3].map(async (n) => {
			const grant = await budget.acquire(c.sleep);
			order.push(n);
			grant.answered();
		}),
	);
	expect(order).toEqual([1, 2, 3]);
	expect(c.now).toBe(3000);
	expect(c.sleeps).toEqual([1000, 1000, 1000]);
});

test('the rate is kept within 1 to 20 a second', () => {
	expect(new RequestBudget(0).stats().perSecond).toBe(1);
	expect(new RequestBudget(500).stats().perSecond).toBe(20);
});

test('a cancelled wait ends with the aborted error and gives its turn on', async () => {
	const c = clock();
	const budget = new RequestBudget(1, () => c.now);
	const held = await budget.acquire(c.sleep);
	const controller = new AbortController();
	const waiting = budget.acquire(c.sleep, controller.signal);
	controller.abort();
	await expect(waiting).rejects.toMatchObject({ category: 'aborted' });
	held.answered();
	c.now += 1000;
	await expect(budget.acquire(c.sleep)).resolves.toBeDefined();
});
