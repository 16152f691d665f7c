jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { SpendLedger } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
import { SpendingClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spendingClient';
import type { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type {
	HttpChannel,
	HttpRequest,
	HttpResponse,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';
import { NetworkError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';
import type { Grant } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';
import { RequestBudget } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';
import type {
	RunOptions,
	TaskJob,
	TaskKind,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import { runTasks } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/taskRun';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { RunGuard } from '../support/runGuard';
import { createUndiciClient } from '../support/undiciTransport';
import { virtualClock } from '../support/virtualTime';

const RENDER_MS = 120_000;
const POLL_MS = 10_000;

let emu: Emulator;
// The client the nodes hand `runTasks`, with no cap and no floor: it sends as the plain client does.
let client: SpendingClient;
// What the client sends, run by run: a request that reaches the emulator after its run returned is a
// video no item knows of (and a task that turns up in a later test).
let guard: RunGuard;
let network: Network;
let modelId: string;
let avatarId: string;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: RENDER_MS });
	virtualClock.target = emu;
	const plain = createUndiciClient(emu.apiKey, {
		baseUrl: emu.baseUrl,
		retry: { baseDelayMs: 5, maxDelayMs: 40 },
		channel: (undici) => (guard = new RunGuard((network = new Network(undici)))),
	});
	client = new SpendingClient(plain, new SpendLedger(), {});
	modelId = (await client.listAiVideoModels()).models[0].model_id;
	avatarId = (await client.listAvatars({ is_public: true, limit: 1 })).avatars[0].avatar_id;
});
afterAll(async () => await emu.stop());
beforeEach(() => {
	emu.reset();
	emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 100 });
});
afterEach(() => {
	virtualClock.onSleep = undefined;
	network.onCreateAnswered = undefined;
	const late = guard.late.splice(0);
	expect(late).toEqual([]);
});

/**
 * The network between the client and the emulator, where a cancel can come while a create's answer
 * is on its way back: the service has made the video, and a request still listening to the signal is
 * cut short there, as a real channel cuts it (undici, n8n's helpers).
 */
class Network implements HttpChannel {
	/** Runs once the service has answered a create, before the answer reaches the client (which waits for it). */
	onCreateAnswered?: () => Promise<void> | void;

	constructor(private readonly inner: HttpChannel) {}

	async send(request: HttpRequest): Promise<HttpResponse> {
		if (request.method !== 'POST' || !this.onCreateAnswered) return await this.inner.send(request);
		const response = await this.inner.send({ ...request, signal: undefined });
		await this.onCreateAnswered();
		if (request.signal?.aborted) throw new NetworkError('ABORTED', 'cancelled', true);
		return response;
	}
}

/** `runTasks` with the test's client, watched by the guard. */
async function run(kind: TaskKind, jobs: TaskJob[], options: RunOptions) {
	return await guard.run(async () => await runTasks(client, kind, jobs, options));
}

const TIMEOUT_MS = 30 * 60_000;

function aiSubmissions(
	count: number,
	prompt = (i: number) => `Shot ${i}`,
	timeoutMs = TIMEOUT_MS,
): TaskJob[] {
	return Array.from({ length: count }, (_, i) => ({
		request: client.validate('createAiVideo', { model_id: modelId, prompt: prompt(i) }),
		timeoutMs,
	}));
}

function talkingSubmissions(count: number, timeoutMs = TIMEOUT_MS, first = 0): TaskJob[] {
	return Array.from({ length: count }, (_, i) => ({
		request: client.validate('createTalkingVideo', {
			avatar_id: avatarId,
			text_script: { text: `Line ${first + i}`, voice_id: 'Alice' },
		}),
		timeoutMs,
	}));
}

const wait = { waitForCompletion: true, pollIntervalMs: POLL_MS, atLimit: 'queue' as const };

test('45 AI videos are polled 20 ids a request and finish together', async () => {
	const start = emu.now();
	const outcomes = await run('aiVideo', aiSubmissions(45), wait);
	expect(
		outcomes.every((o) => o.ok && 'status' in o.value.task && o.value.task.status === 'created'),
	).toBe(true);
	// Each create is read back once by its id; the waiting reads go 20 ids at a time.
	const polls = emu
		.requests({ method: 'GET', path: '/api/v1/ai_video' })
		.filter((p) => p.query.video_ids !== undefined);
	const rounds = new Map<number, number>();
	for (const p of polls) rounds.set(p.at, (rounds.get(p.at) ?? 0) + 1);
	// Every round asks for all pending ids, 20 at a time.
	expect([...rounds.values()].every((n) => n === 3)).toBe(true);
	expect(polls.every((p) => p.query.video_ids.split(',').length <= 20)).toBe(true);
	// All finished within one poll interval of a single render.
	expect(emu.now() - start).toBeLessThanOrEqual(RENDER_MS + POLL_MS);
});

test('talking videos are polled concurrently and 10 take one render time, not ten', async () => {
	const start = emu.now();
	const outcomes = await run('talkingVideo', talkingSubmissions(10), wait);
	expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
	const tasks = emu.tasks();
	expect(Math.max(...tasks.map((t) => t.finishedAt!)) - start).toBeLessThanOrEqual(
		RENDER_MS + 1000,
	);
	expect(emu.now() - start).toBeLessThanOrEqual(RENDER_MS + POLL_MS);
});

test('with a concurrency cap of 2, six AI videos queue for slots and all get made', async () => {
	emu.setConfig({ aiConcurrencyCap: 2 });
	const outcomes = await run('aiVideo', aiSubmissions(6), wait);
	expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true, true]);
	expect(emu.tasks()).toHaveLength(6);
	const refusals = emu
		.requests({ method: 'POST', path: '/api/v1/ai_video' })
		.filter((r) => r.status === 429);
	// A refusal is answered by waiting for our own tasks, not by hammering the endpoint.
	expect(refusals.length).toBeLessThanOrEqual(3);
});

test('failed tasks yield an error with the service reason and the refund', async () => {
	const outcomes = await run(
		'aiVideo',
		aiSubmissions(2, (i) => (i === 1 ? 'Please [fail] this one' : 'fine')),
		wait,
	);
	expect(outcomes[0].ok).toBe(true);
	expect(outcomes[1].ok).toBe(false);
	const error = (outcomes[1] as { error: VisionStoryError }).error;
	expect(error.category).toBe('taskFailed');
	expect(error.message).toMatch(/failed: .+\(code 5001\)/);
	expect(error.hint).toMatch(/refunded/);
	expect(emu.ledger().filter((e) => e.kind === 'refund')).toHaveLength(1);
});

test('a timeout names the ids still rendering', async () => {
	const outcomes = await run('talkingVideo', talkingSubmissions(2, 30_000), wait);
	const ids = emu.tasks().map((t) => t.video_id);
	for (const [i, outcome] of outcomes.entries()) {
		expect(outcome.ok).toBe(false);
		const error = (outcome as { error: VisionStoryError }).error;
		expect(error.category).toBe('timeout');
		expect(error.videoIds).toEqual([ids[i]]);
		expect(error.message).toContain(ids[i]);
	}
});

test('without waiting, items return at once with their ids', async () => {
	const outcomes = await run('talkingVideo', talkingSubmissions(3), {
		...wait,
		waitForCompletion: false,
	});
	expect(outcomes.map((o) => (o.ok ? o.value.task.video_id : undefined))).toEqual(
		emu.tasks().map((t) => t.video_id),
	);
	// One read of each right after its create (a dead task in the answer would get a new attempt), no polls.
	expect(emu.requests({ method: 'GET', path: '/api/v1/video' })).toHaveLength(3);
});

test('cancelling stops the wait', async () => {
	const controller = new AbortController();
	let sleeps = 0;
	let sentBefore = 0;
	// The cancel comes while the run waits for its second read round (a virtual sleep, not a timer:
	// a cancel at a real time lands anywhere, in a create as well).
	virtualClock.onSleep = () => {
		if (++sleeps < 2) return undefined;
		sentBefore = emu.requests().length;
		controller.abort();
		return 'interrupted';
	};
	const error = await cancelled('aiVideo', aiSubmissions(2), controller);
	expect(error.category).toBe('aborted');
	expect(emu.requests().length).toBe(sentBefore);
	expect(sleeps).toBe(2);
});

/** Runs `jobs` under `controller`'s signal: the error the run ends with. */
async function cancelled(
	kind: TaskKind,
	jobs: TaskJob[],
	controller: AbortController,
): Promise<VisionStoryError> {
	return (await run(kind, jobs, { ...wait, signal: controller.signal }).catch(
		(e: unknown) => e,
	)) as VisionStoryError;
}

/** The cancel comes at the run's first wait of any kind (a poll interval, a backoff). */
function cancelAtFirstSleep(controller: AbortController): void {
	virtualClock.onSleep = () => {
		controller.abort();
		return 'interrupted';
	};
}

/** Every video the emulator made is named by the cancel's error with its key; the ids it names are all made. */
function expectEveryVideoNamed(error: VisionStoryError): void {
	const tasks = emu.tasks();
	expect(tasks.length).toBeGreaterThan(0);
	expect(error.category).toBe('aborted');
	for (const task of tasks) expect(error.message).toContain(task.client_request_id!);
	expect(tasks.map((t) => t.video_id)).toEqual(expect.arrayContaining(error.videoIds ?? []));
}

/** Every video made is named by its id too: each answer came back before the run ended. */
function expectEveryVideoNamedById(error: VisionStoryError): void {
	expectEveryVideoNamed(error);
	const ids = emu.tasks().map((t) => t.video_id);
	expect([...(error.videoIds ?? [])].sort()).toEqual(ids.sort());
	expect(error.hint).toMatch(/made and may be charged/);
}

test('a cancel while videos render names each with its key: made, may be charged, returned by the key', async () => {
	const controller = new AbortController();
	cancelAtFirstSleep(controller);
	const error = await cancelled('talkingVideo', talkingSubmissions(2), controller);
	expectEveryVideoNamedById(error);
});

test.each([
	['aiVideo', false],
	['talkingVideo', false],
	// A key sent before is read back after its create's answer: the cancel comes during that read.
	['aiVideo', true],
] as const)(
	'a cancel while a create is on its way (%s, key sent before: %s) waits for its answer: every video made is named with its key',
	async (kind, keyMayRepeat) => {
		const controller = new AbortController();
		network.onCreateAnswered = () => controller.abort();
		const jobs = (
			kind === 'aiVideo'
				? aiSubmissions(2, (i) => `On its way ${i}`)
				: talkingSubmissions(2, TIMEOUT_MS, 100)
		).map((job) => ({ ...job, keyMayRepeat }));
		const error = await cancelled(kind, jobs, controller);
		expectEveryVideoNamedById(error);
	},
);

test("a cancel in the backoff after a create's answer was lost names the key that returns its video", async () => {
	emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'resetAfter' }] });
	const controller = new AbortController();
	cancelAtFirstSleep(controller);
	const error = await cancelled('aiVideo', aiSubmissions(1), controller);
	expectEveryVideoNamed(error);
	expect(error.idempotencyKey).toBe(emu.tasks()[0].client_request_id);
	expect(error.hint).toMatch(/may have made it/);
});

test("talking videos sent side by side: a cancel in one create's backoff waits for the other's answer, and names both", async () => {
	// The first create's answer is lost (the video made); the second's is on its way when the cancel comes.
	emu.setFaults({ failNext: [{ method: 'POST', path: '/api/v1/video', kind: 'resetAfter' }] });
	const controller = new AbortController();
	const aborted = new Promise<void>((resolve) =>
		controller.signal.addEventListener('abort', () => resolve()),
	);
	// Held a turn of the event loop past the cancel: a run that ends on the first cancelled create
	// would return while this answer is still on its way.
	network.onCreateAnswered = async () => {
		await aborted;
		await new Promise((resolve) => setImmediate(resolve));
	};
	cancelAtFirstSleep(controller);
	const error = await cancelled('talkingVideo', talkingSubmissions(2, TIMEOUT_MS, 200), controller);
	expect(emu.tasks()).toHaveLength(2);
	expectEveryVideoNamed(error);
	// The one answered is named by its id; the one whose answer was lost, by the key that returns it.
	expect(error.videoIds).toHaveLength(1);
	expect(error.hint).toMatch(/made and may be charged/);
	expect(error.hint).toMatch(/may have made it/);
});

test('a cancel that comes as a create gets its slot in the request budget: the create is not sent', async () => {
	const controller = new AbortController();
	// The slot is granted, then the cancel comes before the request leaves.
	class CancelledOnGrant extends RequestBudget {
		override async acquire(...args: Parameters<RequestBudget['acquire']>): Promise<Grant> {
			const grant = await super.acquire(...args);
			controller.abort();
			return grant;
		}
	}
	const error = (await run(
		'aiVideo',
		aiSubmissions(1, (i) => `Granted ${i}`),
		{
			...wait,
			signal: controller.signal,
			budget: new CancelledOnGrant(),
		},
	).catch((e: unknown) => e)) as VisionStoryError;
	expect(error.category).toBe('aborted');
	expect(emu.requests({ method: 'POST' })).toEqual([]);
	expect(emu.tasks()).toEqual([]);
});

test('queued AI videos are resubmitted as soon as a render should have freed a slot', async () => {
	emu.setConfig({ aiConcurrencyCap: 2 });
	const start = emu.now();
	const outcomes = await run('aiVideo', aiSubmissions(6), wait);
	expect(outcomes.every((o) => o.ok)).toBe(true);
	const floor = 3 * RENDER_MS;
	// A fixed poll beat would lose up to one interval per wave (3 × 130 s here); learning the render time loses a few percent.
	expect(emu.now() - start).toBeLessThanOrEqual(floor * 1.08);
	const polls = emu.requests({ method: 'GET', path: '/api/v1/ai_video' });
	expect(polls.length).toBeLessThan(3 * (RENDER_MS / POLL_MS));
});

test('without waiting, AI videos over the cap are refused at once with the cap named, and nothing is charged for them', async () => {
	emu.setConfig({ aiConcurrencyCap: 2 });
	const start = emu.now();
	const outcomes = await run('aiVideo', aiSubmissions(6), {
		...wait,
		waitForCompletion: false,
		atLimit: 'refuse',
	});
	expect(emu.now() - start).toBeLessThan(POLL_MS);
	expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, false, false, false]);
	for (const outcome of outcomes.slice(2)) {
		const error = (outcome as { error: VisionStoryError }).error;
		expect(error.message).toMatch(/2 of 2 in progress/);
		expect(error.hint).toMatch(/Nothing was created or charged/);
	}
	expect(emu.tasks()).toHaveLength(2);
	expect(emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	// One refusal answers for all the items behind it.
	expect(
		emu.requests({ method: 'POST', path: '/api/v1/ai_video' }).filter((r) => r.status === 429),
	).toHaveLength(1);
});

test('without waiting, holding for a slot submits queued AI videos as renders finish, within the hold limit', async () => {
	emu.setConfig({ aiConcurrencyCap: 2 });
	const outcomes = await run('aiVideo', aiSubmissions(5, undefined, RENDER_MS + 3 * POLL_MS), {
		...wait,
		waitForCompletion: false,
	});
	// Two waves fit into the hold limit; the fifth item would need a third.
	expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, false]);
	expect((outcomes[4] as { error: VisionStoryError }).error.message).toMatch(
		/No AI video slot became free/,
	);
	expect(emu.tasks()).toHaveLength(4);
});

test('each item keeps its own time limit', async () => {
	const jobs = [
		...talkingSubmissions(1, RENDER_MS / 2),
		...talkingSubmissions(1, RENDER_MS * 2, 1),
	];
	const outcomes = await run('talkingVideo', jobs, wait);
	expect((outcomes[0] as { error: VisionStoryError }).error.category).toBe('timeout');
	expect(outcomes[1].ok).toBe(true);
});

test('two items that share a task (the same idempotency key) each get its outcome', async () => {
	const outcomes = await run(
		'talkingVideo',
		[...talkingSubmissions(1, RENDER_MS / 2), ...talkingSubmissions(1, RENDER_MS * 2)],
		wait,
	);
	expect(emu.tasks()).toHaveLength(1);
	expect((outcomes[0] as { error: VisionStoryError }).error.category).toBe('timeout');
	expect(outcomes[1]).toMatchObject({
		ok: true,
		value: { task: { status: 'created', video_id: emu.tasks()[0].video_id } },
	});
});

test('waves of AI videos a little longer than the poll interval: learned to within 8 %, not read a beat late every wave', async () => {
	// 5.5 s a task (0.5 s queued, 5 s rendering), polls at least 5 s apart: a fixed beat takes 10 s a wave.
	emu.setConfig({ aiConcurrencyCap: 2, renderMs: 5000, queueMs: 500 });
	const start = emu.now();
	const outcomes = await run('aiVideo', aiSubmissions(40), {
		...wait,
		pollIntervalMs: 5000,
	});
	expect(outcomes.every((o) => o.ok)).toBe(true);
	const waves = 20;
	const tasks = emu.tasks().sort((a, b) => a.submittedAt - b.submittedAt);
	// The last five waves each start within 8 % of a render after the one before (read just after the quickest finish seen).
	const starts = tasks.filter((_, i) => i % 2 === 0).map((t) => t.submittedAt);
	const gaps = starts.slice(1).map((at, i) => at - starts[i]);
	expect(Math.max(...gaps.slice(-5))).toBeLessThanOrEqual(5500 * 1.08);
	expect(emu.now() - start).toBeLessThan(waves * 5500 * 1.3);
});
