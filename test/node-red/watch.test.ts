/**
 * The watch node as an adapter of the core's watcher (issue 32 items 1-3, issue 31 defect 7): the
 * scenarios the n8n trigger's suites play (test/engine/triggerLists.test.ts, triggerIssue31.test.ts),
 * here in Node-RED's runtime (node-red-node-test-helper) against the emulator on a real clock. A poll
 * runs at deploy and then every 5 s (the node's shortest interval).
 */
import { startEmulator, type Emulator } from '../emulator';
import {
	LIMITS,
	readWatchState,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import { migrateWatchState } from '../../packages/node-red-visionstory/src/nodes/watch/watch';
import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, nodeOf } from './support';

let emulator: Emulator;
let avatarId: string;
let modelId: string;
const defaultLimits = { ...LIMITS };
/** An account rich enough for 1,500 AI videos. */
const KEY = 'sk-vs-watch-node-test-0001';

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
beforeEach(async () => {
	emulator.reset();
	emulator.addAccount(KEY, 1_000_000);
	emulator.setConfig({ aiConcurrencyCap: 5_000 });
	modelId = (
		(await api('GET', '/api/v1/ai_video/models')) as { models: Array<{ model_id: string }> }
	).models[0].model_id;
});
afterEach(async () => {
	await helper.unload();
	Object.assign(LIMITS, defaultLimits);
});

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
	const response = await fetch(`${emulator.baseUrl}${path}`, {
		method,
		headers: { 'content-type': 'application/json', 'x-api-key': KEY },
		...(body ? { body: JSON.stringify(body) } : {}),
	});
	return ((await response.json()) as { data: unknown }).data;
}

async function make(kind: 'talkingVideo' | 'aiVideo', text: string): Promise<string> {
	const created =
		kind === 'talkingVideo'
			? await api('POST', '/api/v1/video', {
					avatar_id: avatarId,
					text_script: { text, voice_id: 'Alice' },
				})
			: await api('POST', '/api/v1/ai_video', { model_id: modelId, prompt: text });
	const id = (created as { video_id?: string } | undefined)?.video_id;
	if (!id) throw new Error(`the emulator made no ${kind}: ${JSON.stringify(created)}`);
	return id;
}

/** `count` AI videos, 25 requests at a time. */
async function makeMany(count: number): Promise<string[]> {
	const made: string[] = [];
	for (let i = 0; i < count; i += 25)
		made.push(
			...(await Promise.all(
				Array.from(
					{ length: Math.min(25, count - i) },
					async (_, j) => await make('aiVideo', `Clip ${i + j}`),
				),
			)),
		);
	return made;
}

interface Watching {
	/** Ids sent so far, in order. */
	sent: string[];
	warnings: () => string[];
	/** Resolves once `count` ids were sent; a test that never gets there ends at jest's timeout. */
	until(count: number): Promise<void>;
	/** Resolves once `count` more polls have ended. */
	polls(count: number): Promise<void>;
}

/** Deploys a watch node and resolves once its first poll (the activation) is done. */
async function deploy(events: string[]): Promise<Watching> {
	await helper.load(
		ALL_NODES,
		flowWith(
			{ type: 'visionstory-watch', events, statuses: ['created'], pollIntervalSeconds: 5 },
			emulator.baseUrl,
		),
		credentials(KEY),
	);
	const node = nodeOf('n1');
	const out = nodeOf('out1') as unknown as {
		on(event: 'input', cb: (msg: { payload: { video_id: string } }) => void): void;
	};
	const sent: string[] = [];
	/** Who waits for the next message sent or poll ended. */
	let waiting: Array<() => void> = [];
	const wake = () => {
		const now = waiting;
		waiting = [];
		for (const resolve of now) resolve();
	};
	const next = () => new Promise<void>((resolve) => waiting.push(resolve));
	out.on('input', (msg) => {
		sent.push(msg.payload.video_id);
		wake();
	});
	let polled = 0;
	node.on('call:status', (call: { args: Array<{ text?: string }> }) => {
		if (!call.args[0]?.text?.startsWith('watching')) return;
		polled++;
		wake();
	});
	// The first poll (the activation) is done.
	while (polled === 0) await next();
	const warn = node.warn as unknown as { args: unknown[][] };
	return {
		sent,
		warnings: () => warn.args.map((args) => String(args[0])),
		polls: async (count) => {
			const target = polled + count;
			while (polled < target) await next();
		},
		until: async (count) => {
			while (sent.length < count) await next();
		},
	};
}

describe('issue 32 item 1: each kind on its own, with the fallback when its list cannot be used', () => {
	it('GET /api/v1/videos answering 404: a finished AI video is still sent, and a warning says talking videos cannot be seen', async () => {
		emulator.setConfig({ talkingVideoList: 'absent' });
		const watching = await deploy(['talkingVideo', 'aiVideo']);
		const ai = await make('aiVideo', 'A lighthouse at dusk');
		await watching.until(1);
		expect(watching.sent).toEqual([ai]);
		expect(watching.warnings().join('\n')).toMatch(
			/talking videos.*GET \/api\/v1\/videos.*cannot be used/s,
		);
	});

	it('list entries with ids only: the finished talking video is read by id and sent', async () => {
		emulator.setConfig({ talkingVideoList: 'idsOnly' });
		const watching = await deploy(['talkingVideo']);
		const talking = await make('talkingVideo', 'Hello there.');
		await watching.until(1);
		expect(watching.sent).toEqual([talking]);
		expect(watching.warnings().join('\n')).toMatch(/talking videos.*gives no status/s);
	});
});

it('issue 32 item 2: videos whose created_at is up to a minute early are sent, every one', async () => {
	const watching = await deploy(['talkingVideo']);
	const first = await make('talkingVideo', 'The first one.');
	await watching.until(1);
	emulator.setConfig({ createdAtSkewSeconds: 60 });
	const skewed: string[] = [];
	for (let i = 0; i < 5; i++) skewed.push(await make('talkingVideo', `Skewed ${i}.`));
	await watching.until(6);
	expect(watching.sent.sort()).toEqual([first, ...skewed].sort());
});

describe('issue 32 item 3: no walk that jumps to the newest entry', () => {
	it('1,500 AI videos finishing between two polls are all sent, each once', async () => {
		// 500 a poll instead of 200, so the test takes 4 polls rather than 8; the walk is the same.
		LIMITS.emitPerPoll = 500;
		const watching = await deploy(['aiVideo']);
		const made = await makeMany(1_500);
		await watching.until(1_500);
		// A whole poll after the one that sent the last: nothing more, nothing twice.
		await watching.polls(2);
		expect(watching.sent).toHaveLength(1_500);
		expect([...watching.sent].sort()).toEqual([...made].sort());
	});

	it('150 AI videos rendering at deploy are all sent when they finish', async () => {
		emulator.setConfig({ renderMs: 3_000 });
		const made = await makeMany(150);
		const watching = await deploy(['aiVideo']);
		await watching.until(150);
		expect([...watching.sent].sort()).toEqual([...made].sort());
	});
});

it('issue 31 defect 7: a talking-video list that ignores its cursor: its page is sent, and node.warn says what may have been missed', async () => {
	emulator.setConfig({ talkingVideoList: 'ignoresCursor', renderMs: 2_000 });
	const watching = await deploy(['talkingVideo']);
	const made: string[] = [];
	for (let i = 0; i < 60; i++) made.push(await make('talkingVideo', `Clip ${i}.`));
	await watching.until(20);
	expect([...watching.sent].sort()).toEqual(made.slice(-20).sort());
	expect(watching.warnings().join('\n')).toMatch(
		/20 new talking videos were read.*may have been missed/s,
	);
});

it("a state saved by the watch node's version 1 is carried over: its place, watched and sent ids", () => {
	const v1 = {
		version: 1,
		kinds: {
			aiVideo: { mark: { ids: ['a3', 'a2'], at: 1_700_000_300 }, pending: ['a1'], emitted: ['a0'] },
		},
	};
	const state = readWatchState(migrateWatchState(v1));
	expect(state.aiVideo).toEqual({
		head: {
			at: 1_700_000_300,
			from: 1_700_000_300,
			seen: [
				['a3', null],
				['a2', null],
			],
		},
		gaps: [],
		pending: [{ id: 'a1', at: null, misses: 0 }],
		emitted: ['a0'],
		list: 'full',
	});
});
