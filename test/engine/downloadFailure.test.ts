jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { FaultKind } from '../emulator/types';
import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * A charged result whose file cannot be fetched from the media origin (a CDN refusing, missing or
 * cutting the file) is kept: the item goes on with its id, URL and cost and says how to get the file
 * again, even with On Error = Stop, and never claims that nothing was charged.
 */
const RENDER_MS = 60_000;
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS }, { binaryMode: 'filesystem' });

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: RENDER_MS });
});

/** Enough media faults to outlast the client's download retries. */
function mediaFails(kind: FaultKind): void {
	engine.emu.setFaults({ failNext: [{ origin: 'media', kind, count: 50 }] });
}

const charges = () => engine.emu.ledger().filter((e) => e.kind === 'charge');

test.each<FaultKind>(['http403', 'http404', 'resetBefore', 'truncateBody'])(
	'Image: a generated image whose download fails (%s) is kept with its URL, cost and a way to get it',
	async (kind) => {
		mediaFails(kind);
		const workflow = oneNode('image', {
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: 'A red bottle on a beach',
		});
		const result = await engine.run(workflow);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.binary?.data).toBeUndefined();
		expect(item.json).toMatchObject({
			model_id: 'nano-banana-2',
			cost_credit: 4,
			url: expect.stringMatching(/\/media\/images\/.+\.png$/),
		});
		const failure = String(item.json.downloadError);
		expect(failure).toMatch(
			/^The image was generated and charged \(4 credits\), but its file could not be downloaded: .+\. Nothing is lost: download it from url/,
		);
		expect(JSON.stringify(item.json)).not.toMatch(/nothing was charged/i);
		// One image, one charge: the generate call was not repeated.
		expect(charges()).toHaveLength(1);
		expect(engine.emu.requests({ method: 'POST', path: '/api/v1/image' })).toHaveLength(1);
	},
);

test.each<FaultKind>(['http403', 'truncateBody'])(
	'Talking Video: a finished video whose download fails (%s) is kept with its id, URL, cost and how to fetch it again',
	async (kind) => {
		const workflow = oneNode('talkingVideo', {
			operation: 'create',
			avatarId: byId('public_anna'),
			scriptType: 'text',
			text: 'Our spring sale starts today!',
			voiceId: byId('Alice'),
			pollIntervalSeconds: 5,
		});
		mediaFails(kind);
		const result = await engine.run(workflow);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		const [task] = engine.emu.tasks();
		expect(item.binary?.data).toBeUndefined();
		expect(item.json).toMatchObject({
			video_id: task.video_id,
			status: 'created',
			video_url: expect.stringContaining(task.video_id),
			cost_credit: expect.any(Number),
		});
		expect(item.json.cost_credit).toBeGreaterThan(0);
		const failure = String(item.json.downloadError);
		expect(failure).toMatch(
			new RegExp(
				`^The video was rendered and charged \\(${item.json.cost_credit} credits\\), but its file could not be downloaded: `,
			),
		);
		expect(failure).toMatch(
			new RegExp(
				`Nothing is lost: fetch the file later with Talking Video → Get with video ID ${task.video_id} and Download Result on`,
			),
		);
		expect(failure).toMatch(/7 days/);
		expect(JSON.stringify(item.json)).not.toMatch(/nothing was charged/i);
		expect(engine.emu.tasks()).toHaveLength(1);
	},
);

test('Image: a transfer cut off once is fetched again from the start', async () => {
	engine.emu.setFaults({ failNext: [{ origin: 'media', kind: 'truncateBody' }] });
	const result = await engine.run(
		oneNode('image', {
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: 'A red bottle on a beach',
		}),
	);
	expect(result.error).toBeUndefined();
	const [item] = result.output(NODE);
	expect(item.json.downloadError).toBeUndefined();
	expect(item.binary?.data).toMatchObject({ mimeType: 'image/png' });
	expect(engine.emu.requests({ origin: 'media' }).map((r) => r.outcome)).toEqual([
		'reset',
		'answered',
	]);
});

test('Talking Video: Get with Download Result keeps the task when the download fails', async () => {
	const created = await engine.run(
		oneNode('talkingVideo', {
			operation: 'create',
			avatarId: byId('public_anna'),
			scriptType: 'text',
			text: 'Hello',
			voiceId: byId('Alice'),
			downloadResult: false,
			pollIntervalSeconds: 5,
		}),
	);
	const videoId = String(created.output(NODE)[0].json.video_id);
	mediaFails('http404');
	const result = await engine.run(
		oneNode('talkingVideo', {
			operation: 'get',
			videoId: byId(videoId),
			downloadResult: true,
		}),
	);
	expect(result.error).toBeUndefined();
	const [item] = result.output(NODE);
	expect(item.json).toMatchObject({ video_id: videoId, status: 'created' });
	expect(item.json.downloadError).toMatch(/could not be downloaded: .*404/);
});

test('AI Video: a finished video whose download fails is kept with its id and how to fetch it again', async () => {
	const workflow = oneNode('aiVideo', {
		operation: 'create',
		modelId: byId('seedance-1.0-pro'),
		prompt: 'A red bottle spinning',
		pollIntervalSeconds: 5,
	});
	mediaFails('http403');
	const result = await engine.run(workflow);
	expect(result.error).toBeUndefined();
	const [item] = result.output(NODE);
	const [task] = engine.emu.tasks();
	expect(item.json).toMatchObject({ video_id: task.video_id, status: 'created' });
	expect(item.json.downloadError).toMatch(
		new RegExp(`AI Video → Get with video ID ${task.video_id} and Download Result on`),
	);
});
