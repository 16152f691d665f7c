// Issue 25, defects 13 and 14: the trigger against list endpoints that cannot be used (404, entries
// without status, failing) and against created_at values a few seconds out of order.
jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { IDataObject } from 'n8n-workflow';

import type { Kind } from '../support/trigger';
import { emittedIds, FINISH, triggerNode, useTrigger, useWarnings } from '../support/trigger';

const engine = useTrigger();
const warnings = useWarnings();

let serial = 0;
async function make(kind: Kind): Promise<string> {
	return await engine.makeVideo(kind, `Clip ${++serial}`);
}

/** Polls until one poll emits nothing, collecting every id emitted on the way. */
async function drain(staticData: IDataObject, parameters: IDataObject = {}) {
	const all: string[] = [];
	let data = staticData;
	for (let i = 0; i < 10; i++) {
		const result = await engine.poll(data, parameters);
		data = result.staticData;
		if (!result.items) break;
		all.push(...emittedIds(result));
	}
	return { all, staticData: data };
}

describe('defect 13: each kind is watched on its own, with a fallback when its list cannot be used', () => {
	test('GET /api/v1/videos answering 404: AI videos are still announced, and the log says talking videos cannot be seen', async () => {
		engine.emu.setConfig({ talkingVideoList: 'absent' });
		const activation = await engine.poll(undefined);
		expect(activation.items).toBeNull();
		const ai = [await make('aiVideo'), await make('aiVideo')];
		await make('talkingVideo');
		engine.emu.advance(FINISH);
		const next = await engine.poll(activation.staticData);
		expect(emittedIds(next).sort()).toEqual(ai.sort());
		expect(warnings.join('\n')).toMatch(/talking videos.*GET \/api\/v1\/videos.*404/is);
		expect((await engine.poll(next.staticData)).items).toBeNull();
	});

	test('list entries without status: talking videos finishing after activation are announced, each read on its own, with a warning', async () => {
		engine.emu.setConfig({ talkingVideoList: 'idsOnly' });
		const before = await make('talkingVideo');
		engine.emu.advance(FINISH);
		const rendering = await make('talkingVideo');
		engine.emu.advance(1_000);
		const activation = await engine.poll(undefined, { events: ['talkingVideo'] });
		expect(activation.items).toBeNull();
		const later = [await make('talkingVideo'), await make('talkingVideo')];
		engine.emu.advance(FINISH);
		const { all } = await drain(activation.staticData, { events: ['talkingVideo'] });
		expect(all.sort()).toEqual([rendering, ...later].sort());
		expect(all).not.toContain(before);
		expect(
			engine.emu.requests({ method: 'GET', path: '/api/v1/video' }).map((r) => r.query.video_id),
		).toEqual(expect.arrayContaining([rendering, ...later]));
		expect(warnings.join('\n')).toMatch(/talking videos.*no status.*one by one/is);
	});

	test('the AI list failing past the retries does not hold back talking videos; the AI backlog follows', async () => {
		const activation = await engine.poll(undefined);
		const talking = [await make('talkingVideo'), await make('talkingVideo')];
		const ai = [await make('aiVideo'), await make('aiVideo')];
		engine.emu.advance(FINISH);
		engine.emu.setFaults({
			failNext: [{ method: 'GET', path: '/api/v1/ai_videos', kind: 'http500', count: 3 }],
		});
		const first = await engine.poll(activation.staticData);
		expect(emittedIds(first).sort()).toEqual(talking.sort());
		expect(warnings.join('\n')).toMatch(/AI videos/);
		const second = await engine.poll(first.staticData);
		expect(emittedIds(second).sort()).toEqual(ai.sort());
		expect((await engine.poll(second.staticData)).items).toBeNull();
	});

	test('a list that stops answering (404): the renders the trigger already watched are still announced, read by id', async () => {
		const activation = await engine.poll(undefined);
		const talking = await make('talkingVideo');
		const ai = [await make('aiVideo'), await make('aiVideo')];
		engine.emu.advance(1_000);
		const watching = await engine.poll(activation.staticData);
		expect(watching.items).toBeNull();
		engine.emu.setConfig({ talkingVideoList: 'absent' });
		engine.emu.advance(FINISH);
		engine.emu.setFaults({
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
		const next = await engine.poll(watching.staticData);
		expect(emittedIds(next).sort()).toEqual([talking, ...ai].sort());
		expect(engine.emu.requests({ method: 'GET', path: '/api/v1/video' }).length).toBeGreaterThan(0);
		expect(
			engine.emu
				.requests({ method: 'GET', path: '/api/v1/ai_video' })
				.some((r) => r.query.video_ids),
		).toBe(true);
		expect((await engine.poll(next.staticData)).items).toBeNull();
	});

	test('Fetch test event with GET /api/v1/videos answering 404 returns the newest finished AI video', async () => {
		engine.emu.setConfig({ talkingVideoList: 'absent' });
		const ai = await make('aiVideo');
		engine.emu.advance(FINISH);
		const manual = await engine.harness.poll(triggerNode(), {
			credentials: engine.credentials,
			mode: 'manual',
		});
		expect(manual.items?.[0]?.[0]?.json).toMatchObject({ video_id: ai, kind: 'aiVideo' });
	});
});

describe('defect 14: tasks whose created_at is a few seconds older than the newest seen', () => {
	test.each([['talkingVideo'], ['aiVideo']] as Array<[Kind]>)(
		'%s: every one created after activation is announced once (created_at up to 5 s early, a poll every second)',
		async (kind) => {
			const params = { events: [kind] };
			engine.emu.setConfig({ createdAtSkewSeconds: 5 });
			await make(kind);
			engine.emu.advance(FINISH);
			const activation = await engine.poll(undefined, params);
			let staticData = activation.staticData;
			const made: string[] = [];
			const emitted: string[] = [];
			// A poll every second: each finds the tasks of the second before, some reporting an older time.
			for (let round = 0; round < 8; round++) {
				for (let i = 0; i < 2; i++) made.push(await make(kind));
				engine.emu.advance(1_000);
				const result = await engine.poll(staticData, params);
				staticData = result.staticData;
				emitted.push(...emittedIds(result));
			}
			engine.emu.advance(FINISH);
			const rest = await drain(staticData, params);
			emitted.push(...rest.all);
			const reported = new Map(
				(
					await Promise.all(
						made.map(async (id) =>
							kind === 'talkingVideo'
								? await engine.client.getTalkingVideo({ video_id: id })
								: await engine.client.getAiVideo({ video_id: id }),
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
