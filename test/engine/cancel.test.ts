jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { RunResult } from '../harness';
import { useEngine } from '../support/engine';
import { virtualClock } from '../support/virtualTime';

/**
 * The user stops an execution while a node waits (on renders, on a slot, on a retry): the node stops
 * at once, the execution ends canceled, nothing more is sent and nothing more is charged. The videos
 * already submitted keep rendering; the user can fetch them later.
 */

const RENDER_MS = 10 * 60_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS });
	virtualClock.onSleep = undefined;
});
afterAll(() => {
	virtualClock.onSleep = undefined;
});

interface Stopped {
	result: RunResult;
	/** The last request the emulator logged before the cancel. */
	lastSeq: number;
	/** Emulator time at the cancel. */
	at: number;
	/** Sleeps the code under test started after the cancel. */
	sleepsAfter: number;
}

/** Runs the workflow and presses stop the first time the node starts a wait while `when()` holds. */
async function runAndStop(
	file: string,
	items: Array<Record<string, unknown>>,
	when: () => boolean,
): Promise<Stopped> {
	let cancel: (() => void) | undefined;
	let stopped: Omit<Stopped, 'result'> | undefined;
	virtualClock.onSleep = () => {
		if (stopped) {
			stopped.sleepsAfter++;
			return undefined;
		}
		if (!cancel || !when()) return undefined;
		const log = engine.emu.requests();
		stopped = { lastSeq: log[log.length - 1]?.seq ?? 0, at: engine.emu.now(), sleepsAfter: 0 };
		cancel();
		return 'interrupted';
	};
	const result = await engine.run(file, items, {
		onStart: (execution) => (cancel = execution.cancel),
	});
	virtualClock.onSleep = undefined;
	if (!stopped) throw new Error('The run ended before the stop was pressed');
	return { result, ...stopped };
}

function expectStoppedCleanly(stopped: Stopped): void {
	// n8n records a stopped execution as canceled only when the error the node ends with says
	// "canceled" (US spelling): "cancelled" makes it a failed execution, which runs the error workflow.
	expect(stopped.result.status).toBe('canceled');
	expect(stopped.result.error?.message).toMatch(/cancell?ed/i);
	// Promptly: no more waiting, no time passing, no request after the stop.
	expect(stopped.sleepsAfter).toBe(0);
	expect(engine.emu.now()).toBe(stopped.at);
	expect(engine.emu.requests().filter((r) => r.seq > stopped.lastSeq)).toEqual([]);
}

const avatarId = 'public_anna';
const polls = () => engine.emu.requests({ method: 'GET', path: '/api/v1/video' }).length;

test('talking videos: stopped while waiting on renders, no more status polls, charged only for what was submitted', async () => {
	const items = [1, 2, 3].map((n) => ({ avatarId, text: `Greeting ${n}` }));
	// After two rounds of status polls (three videos each).
	const stopped = await runAndStop(
		'test/workflows/talking-video-batch.json',
		items,
		() => polls() >= 6,
	);
	expectStoppedCleanly(stopped);
	expect(polls()).toBe(6);
	const tasks = engine.emu.tasks();
	expect(tasks).toHaveLength(3);
	expect(tasks.every((t) => t.status !== 'created')).toBe(true);
	expect(
		engine.emu
			.ledger()
			.filter((e) => e.kind === 'charge')
			.map((e) => e.refId)
			.sort(),
	).toEqual(tasks.map((t) => t.video_id).sort());
	// Nothing was deleted or refunded: the videos keep rendering for the user to fetch later.
	expect(engine.emu.requests({ method: 'DELETE' })).toEqual([]);
	engine.emu.advance(RENDER_MS);
	expect(engine.emu.tasks().map((t) => t.status)).toEqual(['created', 'created', 'created']);
});

test('AI videos: stopped while items wait for a concurrency slot, the waiting ones are never submitted or charged', async () => {
	engine.emu.setConfig({ aiConcurrencyCap: 2 });
	const items = [1, 2, 3, 4].map((n) => ({ modelId: 'seedance-1.0-pro', prompt: `Clip ${n}` }));
	const creates = () => engine.emu.requests({ method: 'POST', path: '/api/v1/ai_video' });
	// Once two are rendering and the third was refused by the cap.
	const stopped = await runAndStop('test/workflows/ai-video-batch.json', items, () =>
		creates().some((r) => r.status === 429),
	);
	expectStoppedCleanly(stopped);
	expect(engine.emu.tasks()).toHaveLength(2);
	expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
});

test('a read waiting to retry after a 503: stopped without sending it again', async () => {
	engine.emu.setFaults({
		failNext: [{ path: '/api/v1/billing/credits', kind: 'http503', count: 5 }],
	});
	const stopped = await runAndStop('test/workflows/account.json', [{}], () => true);
	expectStoppedCleanly(stopped);
	expect(engine.emu.requests({ path: '/api/v1/billing/credits' })).toHaveLength(1);
});
