/**
 * Issue 38 defect 4: messages sharing one `_msgid` (a Function node sending rows with node.send in a
 * loop gives each row the incoming one) never lose a paid video on a deploy. The first to finish
 * must not take the other's in-flight record with it: a deploy while the other renders logs it and
 * the node that starts next picks it up and sends it. Played with a context store configured (where
 * Node-RED keeps node context across a deploy) and with its default settings (none: it deletes a
 * closing node's context, so the records are kept in the process too). The emulator's clock is
 * manual, so which video renders when is the test's to say.
 */
import type { EventEmitter } from 'node:events';

import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, next } from './support';

let emulator: Emulator;
let avatarId: string;

beforeAll(async () => {
	emulator = await startEmulator({ clock: 'manual', renderMs: 1000 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
afterEach(async () => {
	await helper.unload();
	helper.settings({});
});

/** The helper's runtime, for a full deploy as the editor's Deploy button makes one (node context kept). */
const runtime = helper as unknown as {
	_redNodes: { setFlows(flow: unknown, credentials: unknown, type: string): Promise<unknown> };
	_events: EventEmitter;
};

async function deploy(flow: unknown[], creds: unknown): Promise<void> {
	const started = new Promise((resolve) => runtime._events.once('flows:started', resolve));
	await runtime._redNodes.setFlows(flow, creds, 'full');
	await started;
}

/** Waits (on the emulator's answers, not the clock) until `count` tasks exist. */
async function tasks(count: number): Promise<string[]> {
	for (;;) {
		const ids = emulator.tasks().map((t) => t.video_id);
		if (ids.length >= count) return ids;
		await new Promise((resolve) => setImmediate(resolve));
	}
}

it.each([
	['a context store configured', { default: { module: 'memory' } }],
	["Node-RED's default settings (no context store)", undefined],
])(
	'issue 38 defect 4, %s: two messages with one _msgid, a deploy while the second renders: it is logged, picked up and sent',
	async (_, contextStorage) => {
		emulator.reset();
		helper.settings(contextStorage ? { contextStorage } : {});
		const flow = flowWith(
			{
				type: 'visionstory-talking-video',
				operation: 'create',
				avatarId,
				voiceId: 'Alice',
				scriptType: 'text',
				waitForCompletion: true,
				pollIntervalSeconds: 5,
				downloadResult: false,
			},
			emulator.baseUrl,
		);
		const creds = credentials(emulator.apiKey);
		await helper.load(ALL_NODES, flow, creds);
		const node = () => helper.getNode('n1') as unknown as { receive(msg: object): void };
		const first = next('out1');
		node().receive({ _msgid: 'shared', payload: 'The quick one.' });
		const [quick] = await tasks(1);
		emulator.setConfig({ renderMs: 600_000 });
		node().receive({ _msgid: 'shared', payload: 'The slow one.' });
		const [, slow] = await tasks(2);
		emulator.advance(1000);
		expect(((await first).payload as { video_id: string }).video_id).toBe(quick);

		await deploy(flow, creds);
		const warned = (helper.getNode('n1').warn as unknown as { args: unknown[][] }).args.map((a) =>
			String(a[0]),
		);
		expect(warned.filter((line) => line.startsWith('Closed while'))).toEqual([
			expect.stringContaining(`talking video ${slow} renders (paid; message shared)`),
		]);

		const pickedUp = next('out1');
		emulator.advance(600_000);
		const sent = await pickedUp;
		expect(sent.payload).toMatchObject({ video_id: slow, status: 'created' });
		expect(sent.resumed).toMatchObject({ msgid: 'shared' });
		expect(emulator.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
	},
);
