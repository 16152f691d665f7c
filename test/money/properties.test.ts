jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import fc from 'fast-check';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type { TaskJob } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import type { Emulator, FaultScript } from '../emulator';
import { startEmulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { virtualClock } from '../support/virtualTime';
import { createUndiciClient } from '../support/undiciTransport';
import { balanceFloor } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/balance';
import { AccountReservations, runTasks, SpendingClient, SpendLedger } from './support';

/**
 * Issue 25's invariants over a simulated service that varies within what the contract allows: when
 * cost_credit is filled in, which reads fail, which 429 bodies come, answers lost after the service
 * acted, deletes, failed renders; and issue 31's: status reads that lag k reads behind a create,
 * resets after the service took a request followed by another program spending on the account,
 * several credentials (Base URL spellings) for one account. The emulator's ledger is what the
 * service charged.
 */
const RENDER_MS = 20_000;
/** A talking video at 720p: the dearest call whose price is known only afterwards. */
const UNKNOWN_PRICE_MAX = 10;
const RUNS = Number(process.env.MONEY_RUNS ?? 60);

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40, maxAttempts: 3 };

let emu: Emulator;
let base: VisionStoryClient;
let avatarId: string;
/** Accounts made so far: a run that needs the process's book to itself takes a new one. */
let accounts = 0;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: RENDER_MS });
	virtualClock.target = emu;
	base = createUndiciClient(emu.apiKey, {
		baseUrl: emu.baseUrl,
		retry: FAST_RETRY,
	});
	avatarId = await firstPublicAvatarId(emu);
});
afterAll(async () => await emu.stop());

const charged = () =>
	emu.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);

/** 429 bodies a service may send: the concurrency cap's, a rate limit naming only its limit, none, details as text. */
const TOO_MANY = [
	{ error: { code: 429, message: 'Too many in flight', details: { limit: 3, in_flight: 3 } } },
	{ error: { code: 429, message: 'Rate limit exceeded', details: { limit: 100 } } },
	{ error: { code: 429, message: 'Slow down' } },
	{ error: { code: 429, message: 'Slow down', details: '{"limit":60}' } },
];

/** 429s enough to outlast an item's time limit (20 s here, a Retry-After of 1 s each). */
const LIMITED_FOR_GOOD = 40;

const tooMany = (path: string, body: number, count: number): FaultScript => ({
	method: 'POST',
	path,
	kind: 'respond',
	count,
	respond: { status: 429, headers: { 'Retry-After': '1' }, body: TOO_MANY[body] },
});

/** How many status reads a new task is missing from (a read replica behind): mostly none, now and then a few. */
const readLagArb = fc.constantFrom(0, 0, 0, 1, 2, 6);

const faultsArb = (createPath: string, readPath: string) =>
	fc
		.record({
			lost: fc.integer({ min: 0, max: 2 }),
			unavailable: fc.integer({ min: 0, max: 2 }),
			// A few, or more than an item's time limit outlasts (a rate limit that does not let up).
			limited: fc.constantFrom(0, 1, 2, LIMITED_FOR_GOOD),
			body: fc.integer({ min: 0, max: TOO_MANY.length - 1 }),
			failedReads: fc.integer({ min: 0, max: 7 }),
		})
		.map(({ lost, unavailable, limited, body, failedReads }): FaultScript[] => [
			...(unavailable
				? [{ method: 'POST', path: createPath, kind: 'http503' as const, count: unavailable }]
				: []),
			...(lost
				? [{ method: 'POST', path: createPath, kind: 'resetAfter' as const, count: lost }]
				: []),
			...(limited ? [tooMany(createPath, body, limited)] : []),
			...(failedReads
				? [{ method: 'GET', path: readPath, kind: 'http503' as const, count: failedReads }]
				: []),
		]);

type Step =
	| { kind: 'talking' }
	| { kind: 'ai' }
	| { kind: 'image'; unreadable: 'none' | 'noUrl' | 'zeroCost' }
	| { kind: 'speech' }
	| { kind: 'getAi' }
	| { kind: 'deleteLast' }
	| { kind: 'render' };

type ImageAnswer = Extract<Step, { kind: 'image' }>['unreadable'];
const IMAGE_ANSWERS: ImageAnswer[] = ['none', 'noUrl', 'zeroCost'];

/** Charged calls (videos, images) more often than reads: the cap is about them. */
const stepArb: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 3, arbitrary: fc.constant<Step>({ kind: 'talking' }) },
	{ weight: 3, arbitrary: fc.constant<Step>({ kind: 'ai' }) },
	{
		weight: 3,
		arbitrary: fc
			.constantFrom(...IMAGE_ANSWERS)
			.map((unreadable): Step => ({ kind: 'image', unreadable })),
	},
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'speech' }) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'getAi' }) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'deleteLast' }) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'render' }) },
);

const talkingJob = (client: SpendingClient, n: number, extra: Partial<TaskJob> = {}): TaskJob => ({
	request: client.validate('createTalkingVideo', {
		avatar_id: avatarId,
		text_script: { text: `Line ${n}`, voice_id: 'Alice' },
		resolution: '720p',
	}),
	call: { idempotencyContext: `property:${n}` },
	timeoutMs: 20_000,
	...extra,
});

const aiJob = (
	client: SpendingClient,
	n: number,
	prompt = `Scene ${n}`,
	extra: Partial<TaskJob> = {},
): TaskJob => ({
	request: client.validate('createAiVideo', {
		model_id: 'wan-2.5',
		prompt,
		duration_sec: 5,
		resolution: '480p',
	}),
	call: { idempotencyContext: `property:${n}` },
	timeoutMs: 20_000,
	...extra,
});

const noWait = { waitForCompletion: false, pollIntervalMs: 5000, atLimit: 'refuse' as const };

/** One call of the sequence; its failure is the item's failure, as an agent's tool call would see it. */
async function play(client: SpendingClient, step: Step, n: number, made: string[]): Promise<void> {
	const last = made[made.length - 1];
	const ignore = () => undefined;
	switch (step.kind) {
		case 'talking':
		case 'ai': {
			const kind = step.kind === 'talking' ? 'talkingVideo' : 'aiVideo';
			const job = kind === 'talkingVideo' ? talkingJob(client, n) : aiJob(client, n);
			const [outcome] = await runTasks(client, kind, [job], noWait);
			if (outcome.ok) made.push(outcome.value.task.video_id);
			return;
		}
		case 'image':
			if (step.unreadable !== 'none')
				emu.setFaults({
					failNext: [
						...emu.faults().failNext,
						{
							method: 'POST',
							path: '/api/v1/image',
							kind: 'rewriteAnswer',
							rewrite:
								step.unreadable === 'noUrl' ? { drop: ['url'] } : { set: { cost_credit: 0 } },
						},
					],
				});
			await client
				.send(
					'generateImage',
					client.validate('generateImage', { model_id: 'nano-banana-2', prompt: `Image ${n}` }),
				)
				.catch(ignore);
			return;
		case 'speech':
			await client.synthesizeSpeech({ text: `Line ${n}`, voice_id: 'Alice' }).catch(ignore);
			return;
		case 'getAi':
			if (last?.startsWith('aiv')) await client.getAiVideo({ video_id: last }).catch(ignore);
			return;
		case 'deleteLast':
			if (last?.startsWith('aiv'))
				await client
					.send('deleteAiVideo', client.validate('deleteAiVideo', { video_id: last }))
					.catch(ignore);
			else if (last)
				await client
					.send('deleteTalkingVideo', client.validate('deleteTalkingVideo', { video_id: last }))
					.catch(ignore);
			return;
		case 'render':
			emu.advance(RENDER_MS + 1000);
	}
}

test('the service never charges an execution more than its cap plus the price of one call whose price was unknown', async () => {
	await fc.assert(
		fc.asyncProperty(
			// Caps of a call or two as often as any up to a few calls: where one call too many shows.
			fc.oneof(fc.integer({ min: 5, max: 15 }), fc.integer({ min: 5, max: 40 })),
			// cost_credit 0 until a task finishes (the contract's default allows it) in two runs of three.
			fc.constantFrom(true, true, false),
			// A service whose image answers all come one way (as lateCost is one way), or each its own.
			fc.constantFrom<ImageAnswer | 'mixed'>('mixed', ...IMAGE_ANSWERS),
			faultsArb('/api/v1/video', '/api/v1/video'),
			faultsArb('/api/v1/ai_video', '/api/v1/ai_video'),
			fc.array(stepArb, { minLength: 2, maxLength: 10 }),
			readLagArb,
			async (cap, lateCost, imageAnswers, talkingFaults, aiFaults, sequence, readLag) => {
				const steps = sequence.map((step) =>
					step.kind === 'image' && imageAnswers !== 'mixed'
						? { ...step, unreadable: imageAnswers }
						: step,
				);
				emu.reset();
				emu.setConfig({ lateCost });
				emu.setFaults({ failNext: [...talkingFaults, ...aiFaults], readLag });
				const client = new SpendingClient(base, new SpendLedger(), { cap });
				const made: string[] = [];
				for (const [n, step] of steps.entries()) await play(client, step, n, made);
				emu.clearFaults();
				expect(charged()).toBeLessThanOrEqual(cap + UNKNOWN_PRICE_MAX);
			},
		),
		{ numRuns: RUNS },
	);
});

test('a charged call that may have succeeded counts, whatever it was answered: images whose answer lacks url or says cost 0, AI videos whose answer was lost and whose resend was refused', async () => {
	type Call =
		| Extract<Step, { kind: 'image' }>
		| { kind: 'ai'; lost: boolean; refusal: 'cap' | 'unavailable' };
	// Mostly calls that may have been charged; now and then one answered as it should be.
	const callArb: fc.Arbitrary<Call> = fc.oneof(
		{
			weight: 1,
			arbitrary: fc
				.constantFrom<ImageAnswer>('noUrl', 'zeroCost', 'none')
				.map((unreadable): Call => ({ kind: 'image', unreadable })),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('ai' as const),
				lost: fc.constantFrom(true, true, true, false),
				refusal: fc.constantFrom<'cap' | 'unavailable'>('cap', 'unavailable'),
			}),
		},
	);
	await fc.assert(
		fc.asyncProperty(
			// Caps of a few calls (an AI video costs 10 here): a call left uncounted shows at once.
			fc.integer({ min: 4, max: 16 }),
			// A service whose image answers all come one way, or each its own; whose AI-video answers
			// are all lost, or each its own.
			fc.constantFrom<ImageAnswer | 'mixed'>('noUrl', 'zeroCost', 'mixed'),
			fc.boolean(),
			fc.array(callArb, { minLength: 2, maxLength: 10 }),
			async (cap, imageAnswers, allLost, sequence) => {
				emu.reset();
				const client = new SpendingClient(base, new SpendLedger(), { cap });
				const calls = sequence.map((call): Call => {
					if (call.kind === 'image')
						return imageAnswers === 'mixed' ? call : { ...call, unreadable: imageAnswers };
					return allLost ? { ...call, lost: true } : call;
				});
				for (const [n, call] of calls.entries()) {
					if (call.kind === 'image') {
						await play(client, call, n, []);
						continue;
					}
					const path = '/api/v1/ai_video';
					emu.setFaults({
						failNext: [
							...(call.lost ? [{ method: 'POST', path, kind: 'resetAfter' as const }] : []),
							call.refusal === 'cap'
								? tooMany(path, 0, 2)
								: { method: 'POST', path, kind: 'http503' as const, count: 2 },
						],
					});
					await runTasks(client, 'aiVideo', [aiJob(client, n)], noWait);
				}
				emu.clearFaults();
				expect(charged()).toBeLessThanOrEqual(cap + UNKNOWN_PRICE_MAX);
			},
		),
		// Cheap runs (no waiting on renders): three times as many, so a missed count shows every time.
		{ numRuns: RUNS * 3 },
	);
});

test('one intent never makes two paid videos, never gets a failed or deleted task back, gets a live one when called again, and never leaves a paid video without its id or key', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom<'talkingVideo' | 'aiVideo'>('talkingVideo', 'aiVideo'),
			fc.boolean(),
			fc.boolean(),
			fc.constantFrom<'none' | 'render' | 'delete' | 'renderThenDelete'>(
				'none',
				'render',
				'delete',
				'renderThenDelete',
			),
			fc.boolean(),
			faultsArb('/api/v1/video', '/api/v1/video'),
			faultsArb('/api/v1/ai_video', '/api/v1/ai_video'),
			readLagArb,
			async (kind, willFail, lateCost, between, secondFaults, talkingFaults, aiFaults, readLag) => {
				emu.reset();
				emu.setConfig({ lateCost });
				const faults = kind === 'talkingVideo' ? talkingFaults : aiFaults;
				emu.setFaults({ failNext: faults, readLag });
				const deleted = new Set<string>();
				const client = new SpendingClient(base, new SpendLedger(), {});
				// Sent without an execution id (as an MCP tool call): the same call again carries the same key.
				const job = () =>
					kind === 'talkingVideo'
						? talkingJob(client, 1, {
								request: client.validate('createTalkingVideo', {
									avatar_id: avatarId,
									text_script: { text: willFail ? 'Line [fail]' : 'Line', voice_id: 'Alice' },
								}),
								call: {},
								keyMayRepeat: true,
							})
						: aiJob(client, 1, willFail ? 'Scene [fail]' : 'Scene', {
								call: {},
								keyMayRepeat: true,
							});
				const attempt = async () => {
					const before = new Set(emu.tasks().map((t) => t.video_id));
					const [outcome] = await runTasks(client, kind, [job()], noWait);
					const now = emu.tasks();
					if (outcome.ok) {
						// Handed back alive: it exists and has not failed. Only while reads lag may it come back
						// unread: then nothing tells a new task from a failed or deleted one, and making another
						// could pay twice.
						const id = outcome.value.task.video_id;
						const task = now.find((t) => t.video_id === id);
						if (!('status' in outcome.value.task)) expect(readLag).toBeGreaterThan(0);
						else {
							expect(task).toBeDefined();
							expect(task!.status).not.toBe('failed');
						}
					}
					// Every video this try made (and the service kept) is named: by its id, or the key that returns it.
					for (const task of now.filter((t) => !before.has(t.video_id) && t.status !== 'failed')) {
						if (outcome.ok) {
							expect(outcome.value.task.video_id).toBe(task.video_id);
							continue;
						}
						const { error } = outcome as { error: VisionStoryError };
						const named =
							error.videoIds?.includes(task.video_id) ||
							error.idempotencyKey === task.client_request_id;
						expect(named).toBe(true);
					}
					return outcome;
				};
				const first = await attempt();
				if (between === 'render' || between === 'renderThenDelete') emu.advance(RENDER_MS + 1000);
				if ((between === 'delete' || between === 'renderThenDelete') && first.ok) {
					const id = first.value.task.video_id;
					if (kind === 'aiVideo') await base.deleteAiVideo({ video_id: id });
					else await base.deleteTalkingVideo({ video_id: id });
					deleted.add(id);
				}
				if (!secondFaults) emu.clearFaults();
				const second = await attempt();
				// With the service behaving, the call made again gets a video: the one made before while it
				// lives (or while no read has shown it), else a new attempt (a failed or deleted task a read
				// showed is never the end of it).
				if (!secondFaults) expect(second.ok).toBe(true);
				emu.clearFaults();
				// Paid and kept: not failed (refunded) and not deleted. One intent, at most one.
				const paid = emu.tasks().filter((t) => t.status !== 'failed');
				expect(paid.length).toBeLessThanOrEqual(1);
				// A second paid video only after the first was seen failed (refunded) or deleted.
				const charges = emu.ledger().filter((e) => e.kind === 'charge');
				const refunds = emu.ledger().filter((e) => e.kind === 'refund');
				expect(charges.length).toBeLessThanOrEqual(1 + refunds.length + deleted.size);
			},
		),
		{ numRuns: RUNS },
	);
});

test('a 429 that is not the AI-video concurrency cap (no in_flight) never refuses an item: it is a rate limit, sent again', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 1, max: TOO_MANY.length - 1 }),
			fc.integer({ min: 1, max: 2 }),
			async (body, count) => {
				emu.reset();
				emu.setFaults({ failNext: [tooMany('/api/v1/ai_video', body, count)] });
				const client = new SpendingClient(base, new SpendLedger(), {});
				const [outcome] = await runTasks(client, 'aiVideo', [aiJob(client, 1)], noWait);
				expect(outcome.ok).toBe(true);
				expect(emu.tasks()).toHaveLength(1);
			},
		),
		{ numRuns: Math.ceil(RUNS / 4) },
	);
});

test('Keep at Least N Credits: executions and MCP calls side by side never take the balance below it by more than one unknown price', async () => {
	await fc.assert(
		fc.asyncProperty(
			// The balance within a call or two of the floor (where it binds) as often as anywhere above
			// it, or below it already.
			fc.oneof(fc.integer({ min: -5, max: 12 }), fc.integer({ min: -5, max: 40 })),
			fc.integer({ min: 0, max: 30 }),
			fc.array(
				// Talking videos (price known only after) as often as the calls of known price together.
				fc.array(fc.constantFrom('speech', 'talking', 'talking', 'image'), {
					minLength: 1,
					maxLength: 3,
				}),
				{ minLength: 1, maxLength: 4 },
			),
			// Each execution's credential spells the account's Base URL its own way.
			fc.array(fc.constantFrom('', '/', '//'), { minLength: 4, maxLength: 4 }),
			async (headroom, keepAtLeast, executions, spellings) => {
				const balance = Math.max(0, keepAtLeast + headroom);
				emu.reset();
				// An account of its own per run: the process's book outlives the run.
				const apiKey = `sk-vs-emulator-property-floor-${++accounts}`;
				emu.addAccount(apiKey, balance);
				const account = createUndiciClient(apiKey, { baseUrl: emu.baseUrl, retry: FAST_RETRY });
				// Every execution (or MCP call) has its own ledger and credential; all share the account and the process.
				await Promise.all(
					executions.map(async (calls, e) => {
						const floor = balanceFloor(
							emu.baseUrl + spellings[e],
							apiKey,
							keepAtLeast,
							'the test credential',
						);
						const client = new SpendingClient(account, new SpendLedger(), { floor });
						await Promise.all(
							calls.map(async (call, c) => {
								const n = e * 10 + c;
								if (call === 'speech')
									await client
										.synthesizeSpeech({ text: `Line ${n}`, voice_id: 'Alice' })
										.catch(() => undefined);
								else if (call === 'image')
									await client
										.send(
											'generateImage',
											client.validate('generateImage', {
												model_id: 'nano-banana-2',
												prompt: `Image ${n}`,
											}),
										)
										.catch(() => undefined);
								else await runTasks(client, 'talkingVideo', [talkingJob(client, n)], noWait);
							}),
						);
					}),
				);
				expect(emu.balance(apiKey)).toBeGreaterThanOrEqual(
					Math.min(balance, keepAtLeast - UNKNOWN_PRICE_MAX),
				);
			},
		),
		// Cheap runs (speech, images, creates without waiting): twice as many.
		{ numRuns: RUNS * 2 },
	);
});

test('Keep at Least N Credits reserves calls under way in the process: a balance that does not show them yet cannot let them all through', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 0, max: 50 }),
			fc.integer({ min: 0, max: 20 }),
			fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 8 }),
			async (balance, keepAtLeast, prices) => {
				const floor = new AccountReservations().floor(keepAtLeast, 'the test credential');
				// The balance is read while every admitted call is still under way: none of them shows in it.
				const admitted = await Promise.all(
					prices.map(async (price) =>
						floor
							.admit('call', price, async () => balance)
							.then(
								() => price,
								() => 0,
							),
					),
				);
				const held = admitted.reduce((sum, credits) => sum + credits, 0);
				if (held > 0) expect(balance - held).toBeGreaterThanOrEqual(keepAtLeast);
			},
		),
		{ numRuns: RUNS },
	);
});

test('Keep at Least N Credits before every send: creates whose answers are lost, sent again while another program spends on the account, never take the balance below it, and no intent pays twice', async () => {
	type Hit = { kind: 'resetBefore' | 'resetAfter' | 'http429' | 'http503'; elsewhere: number };
	// What each attempt of a create meets; another program spends while an attempt is refused or reset
	// before the service took it (a send the service took is charged as it arrives, checked or not).
	const hitArb: fc.Arbitrary<Hit> = fc
		.record({
			kind: fc.constantFrom<Hit['kind']>('resetBefore', 'resetAfter', 'http429', 'http503'),
			elsewhere: fc.constantFrom(0, 0, 5, 10, 20),
		})
		.map((hit) => (hit.kind === 'resetAfter' ? { ...hit, elsewhere: 0 } : hit));
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 0, max: 30 }),
			fc.integer({ min: 0, max: 40 }),
			fc.array(fc.array(hitArb, { maxLength: 4 }), { minLength: 1, maxLength: 3 }),
			readLagArb,
			async (keepAtLeast, headroom, intents, readLag) => {
				emu.reset();
				const apiKey = `sk-vs-emulator-property-resend-${++accounts}`;
				emu.addAccount(apiKey, keepAtLeast + headroom);
				const account = createUndiciClient(apiKey, { baseUrl: emu.baseUrl, retry: FAST_RETRY });
				const floor = balanceFloor(emu.baseUrl, apiKey, keepAtLeast, 'the test credential');
				const client = new SpendingClient(account, new SpendLedger(), { floor });
				const path = '/api/v1/ai_video';
				for (const [n, hits] of intents.entries()) {
					emu.setFaults({
						readLag,
						failNext: hits.map(
							(hit): FaultScript => ({
								method: 'POST',
								path,
								kind: hit.kind,
								...(hit.kind === 'http429' ? { retryAfter: 1 } : {}),
								...(hit.elsewhere ? { spendElsewhere: hit.elsewhere } : {}),
							}),
						),
					});
					await runTasks(client, 'aiVideo', [aiJob(client, n)], noWait);
				}
				emu.clearFaults();
				const ours = emu.ledger(apiKey).filter((e) => e.operation !== 'elsewhere');
				// Known prices, one call at a time: every charge of ours leaves the floor standing.
				for (const charge of ours.filter((e) => e.kind === 'charge'))
					expect(charge.balance).toBeGreaterThanOrEqual(keepAtLeast);
				// One paid video per intent at most, whatever was sent again.
				const keys = emu.tasks(apiKey).map((t) => t.client_request_id);
				expect(new Set(keys).size).toBe(keys.length);
				expect(keys.length).toBeLessThanOrEqual(intents.length);
			},
		),
		// Cheap runs (creates without waiting): twice as many.
		{ numRuns: RUNS * 2 },
	);
});
