// Issue 25, defects 13 and 14: the trigger against list endpoints that cannot be used (404, entries
// without status, failing) and against created_at values a few seconds out of order.
jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { IDataObject, INode } from 'n8n-workflow';

import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import type { Harness, PollOptions, PollResult } from '../harness';
import { createHarness } from '../harness';
import { logListeners } from '../harness/logger';
import { createUndiciClient } from '../support/undiciTransport';
import { virtualClock } from '../support/virtualTime';

const RENDER_MS = 60_000;
const FINISH = RENDER_MS + 5_000;

type Kind = 'talkingVideo' | 'aiVideo';

let emu: Emulator;
let harness: Harness;
let client: ReturnType<typeof createUndiciClient>;
let credentials: NonNullable<PollOptions['credentials']>;
let modelId: string;
let avatarId: string;
let warnings: string[] = [];
const listen = (level: string, message: string) => {
	if (level === 'warn') warnings.push(message);
};

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: RENDER_MS });
	virtualClock.target = emu;
	harness = await createHarness();
	client = createUndiciClient(emu.apiKey, {
		baseUrl: emu.baseUrl,
		retry: { baseDelayMs: 5, maxDelayMs: 40 },
	});
	credentials = { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } };
	modelId = (await client.listAiVideoModels()).models[0].model_id;
	avatarId = (await client.listAvatars({ is_public: true, limit: 1 })).avatars[0].avatar_id;
	logListeners.add(listen);
});
afterAll(async () => {
	logListeners.delete(listen);
	await harness.shutdown();
	await emu.stop();
});
beforeEach(() => {
	emu.reset();
	emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 1000 });
	warnings = [];
});

function triggerNode(parameters: IDataObject = {}): INode {
	return {
		id: 'trigger-node-1',
		name: 'VisionStory Trigger',
		type: 'n8n-nodes-visionstory.visionStoryTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			events: ['talkingVideo', 'aiVideo'],
			statuses: ['created'],
			downloadResult: false,
			...parameters,
		},
		credentials: { visionStoryApi: { id: 'vsTriggerCred001', name: 'VisionStory account' } },
	};
}

async function poll(
	staticData: IDataObject | undefined,
	parameters: IDataObject = {},
): Promise<PollResult> {
	return await harness.poll(triggerNode(parameters), { credentials, staticData, mode: 'trigger' });
}

function emittedIds(result: PollResult): string[] {
	return (result.items?.[0] ?? []).map((item) => String(item.json.video_id));
}

let serial = 0;
async function make(kind: Kind): Promise<string> {
	const text = `Clip ${++serial}`;
	return kind === 'talkingVideo'
		? (
				await client.createTalkingVideo({
					avatar_id: avatarId,
					text_script: { text, voice_id: 'Alice' },
				})
			).video_id
		: (await client.createAiVideo({ model_id: modelId, prompt: text })).video_id;
}

/** Polls until one poll emits nothing, collecting every id emitted on the way. */
async function drain(staticData: IDataObject, parameters: IDataObject = {}) {
	const all: string[] = [];
	let data = staticData;
	for (let i = 0; i < 10; i++) {
		const result = await poll(data, parameters);
		data = result.staticData;
		if (!result.items) break;
		all.push(...emittedIds(result));
	}
	return { all, staticData: data };
}

describe('defect 13: each kind is watched on its own, with a fallback when its list cannot be used', () => {
	test('GET /api/v1/videos answering 404: AI videos are still announced, and the log says talking videos cannot be seen', async () => {
		emu.setConfig({ talkingVideoList: 'absent' });
		const activation = await poll(undefined);
		expect(activation.items).toBeNull();
		const ai = [await make('aiVideo'), await make('aiVideo')];
		await make('talkingVideo');
		emu.advance(FINISH);
		const next = await poll(activation.staticData);
		expect(emittedIds(next).sort()).toEqual(ai.sort());
		expect(warnings.join('\n')).toMatch(/talking videos.*GET \/api\/v1\/videos.*404/is);
		expect((await poll(next.staticData)).items).toBeNull();
	});

	test('list entries without status: talking videos finishing after activation are announced, each read on its own, with a warning', async () => {
		emu.setConfig({ talkingVideoList: 'idsOnly' });
		const before = await make('talkingVideo');
		emu.advance(FINISH);
		const rendering = await make('talkingVideo');
		emu.advance(1_000);
		const activation = await poll(undefined, { events: ['talkingVideo'] });
		expect(activation.items).toBeNull();
		const later = [await make('talkingVideo'), await make('talkingVideo')];
		emu.advance(FINISH);
		const { all } = await drain(activation.staticData, { events: ['talkingVideo'] });
		expect(all.sort()).toEqual([rendering, ...later].sort());
		expect(all).not.toContain(before);
		expect(
			emu.requests({ method: 'GET', path: '/api/v1/video' }).map((r) => r.query.video_id),
		).toEqual(expect.arrayContaining([rendering, ...later]));
		expect(warnings.join('\n')).toMatch(/talking videos.*no status.*one by one/is);
	});

	test('the AI list failing past the retries does not hold back talking videos; the AI backlog follows', async () => {
		const activation = await poll(undefined);
		const talking = [await make('talkingVideo'), await make('talkingVideo')];
		const ai = [await make('aiVideo'), await make('aiVideo')];
		emu.advance(FINISH);
		emu.setFaults({
			failNext: [{ method: 'GET', path: '/api/v1/ai_videos', kind: 'http500', count: 3 }],
		});
		const first = await poll(activation.staticData);
		expect(emittedIds(first).sort()).toEqual(talking.sort());
		expect(warnings.join('\n')).toMatch(/AI videos/);
		const second = await poll(first.staticData);
		expect(emittedIds(second).sort()).toEqual(ai.sort());
		expect((await poll(second.staticData)).items).toBeNull();
	});

	test('a list that stops answering (404): the renders the trigger already watched are still announced, read by id', async () => {
		const activation = await poll(undefined);
		const talking = await make('talkingVideo');
		const ai = [await make('aiVideo'), await make('aiVideo')];
		emu.advance(1_000);
		const watching = await poll(activation.staticData);
		expect(watching.items).toBeNull();
		emu.setConfig({ talkingVideoList: 'absent' });
		emu.advance(FINISH);
		emu.setFaults({
			failNext: [
				{
					method: 'GET',
					path: '/api/v1/ai_videos',
					kind: 'respond',
					respond: { status: 404, body: { error: { code: 404, message: 'Not Found' } } },
					count: 10,
				},
			],
		});
		const next = await poll(watching.staticData);
		expect(emittedIds(next).sort()).toEqual([talking, ...ai].sort());
		expect(emu.requests({ method: 'GET', path: '/api/v1/video' }).length).toBeGreaterThan(0);
		expect(
			emu.requests({ method: 'GET', path: '/api/v1/ai_video' }).some((r) => r.query.video_ids),
		).toBe(true);
		expect((await poll(next.staticData)).items).toBeNull();
	});

	test('Fetch test event with GET /api/v1/videos answering 404 returns the newest finished AI video', async () => {
		emu.setConfig({ talkingVideoList: 'absent' });
		const ai = await make('aiVideo');
		emu.advance(FINISH);
		const manual = await harness.poll(triggerNode(), { credentials, mode: 'manual' });
		expect(manual.items?.[0]?.[0]?.json).toMatchObject({ video_id: ai, kind: 'aiVideo' });
	});
});

describe('defect 14: tasks whose created_at is a few seconds older than the newest seen', () => {
	test.each([['talkingVideo'], ['aiVideo']] as Array<[Kind]>)(
		'%s: every one created after activation is announced once (created_at up to 5 s early, a poll every second)',
		async (kind) => {
			const params = { events: [kind] };
			emu.setConfig({ createdAtSkewSeconds: 5 });
			await make(kind);
			emu.advance(FINISH);
			const activation = await poll(undefined, params);
			let staticData = activation.staticData;
			const made: string[] = [];
			const emitted: string[] = [];
			// A poll every second: each finds the tasks of the second before, some reporting an older time.
			for (let round = 0; round < 8; round++) {
				for (let i = 0; i < 2; i++) made.push(await make(kind));
				emu.advance(1_000);
				const result = await poll(staticData, params);
				staticData = result.staticData;
				emitted.push(...emittedIds(result));
			}
			emu.advance(FINISH);
			const rest = await drain(staticData, params);
			emitted.push(...rest.all);
			const reported = new Map(
				(
					await Promise.all(
						made.map(async (id) =>
							kind === 'talkingVideo'
								? await client.getTalkingVideo({ video_id: id })
								: await client.getAiVideo({ video_id: id }),
						),
					)
				).map((t) => [t.video_id, Number(t.created_at)]),
			);
			// The switch did put later tasks before earlier ones.
			expect(made.some((id, i) => i > 0 && reported.get(id)! < reported.get(made[i - 1])!)).toBe(
				true,
			);
			expect(emitted).toHaveLength(new Set(emitted).size);
			expect(emitted.sort()).toEqual([...made].sort());
		},
	);
});
