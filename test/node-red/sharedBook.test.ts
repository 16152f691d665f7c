/**
 * Keep at Least N Credits keeps one book per account within a package in a process: every config
 * node naming the account (its key trimmed as VisionStory trims it, its Base URL in any spelling)
 * shares it. The book is module state of the package: the n8n package's nodes, loaded in the same
 * process as the built Node-RED bundle (`dist/visionstory.js`, its own copy of the core), keep their
 * own and see the bundle's calls only through the balance. The cross-package test needs `npm run
 * build` first, as the part that runs this suite does.
 */
import { join } from 'node:path';

import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';
import { ALL_NODES, catchNodes, helper, type FlowNode } from './support';

interface Bundle {
	nodes: Record<string, (red: unknown) => void>;
}

const engine = useEngine();
const KEY = 'sk-vs-emulator-shared-book-00000000';
/** One 720p AI video of 5 s on wan-2.5: 20 credits. */
const aiVideo = { model_id: 'wan-2.5', duration_sec: 5, resolution: '720p' };

beforeEach(() => {
	engine.emu.reset();
	engine.emu.addAccount(KEY, 130);
	// Both creates are slow to be handled while balance reads are not: they are under way at once.
	engine.emu.setFaults({
		failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'slow', delayMs: 3000, count: 2 }],
	});
});
afterEach(async () => await helper.unload());

test('two config nodes for one account, one spelling the key with a trailing space and the Base URL with a slash, each send a 20-credit AI video at once from 130, floor 100: one is refused, balance 110', async () => {
	const config = (id: string, baseUrl: string): FlowNode => ({
		id,
		type: 'visionstory-config',
		// Not the id itself: Node-RED takes a property naming a config node's id for a reference to it.
		name: `account of ${id}`,
		baseUrl,
		keepAtLeastCredits: '100',
	});
	const video = (id: string, cfg: string, y: number): FlowNode => ({
		id,
		z: 'f1',
		x: 100,
		y,
		type: 'visionstory-ai-video',
		operation: 'create',
		config: cfg,
		modelId: aiVideo.model_id,
		duration: String(aiVideo.duration_sec),
		resolution: aiVideo.resolution,
		waitForCompletion: false,
		wires: [['out1'], ['failed']],
	});
	const flow: FlowNode[] = [
		{ id: 'f1', type: 'tab', label: 'test' },
		config('cfgA', engine.emu.baseUrl),
		config('cfgB', `${engine.emu.baseUrl}/`),
		video('a', 'cfgA', 100),
		video('b', 'cfgB', 200),
		// Nodes with x and y: Node-RED takes nodes without a position for config nodes.
		{ id: 'out1', z: 'f1', x: 300, y: 100, type: 'helper' },
		{ id: 'failed', z: 'f1', x: 300, y: 200, type: 'helper' },
		...catchNodes(),
	];
	await helper.load(ALL_NODES, flow, { cfgA: { apiKey: KEY }, cfgB: { apiKey: `${KEY} ` } });
	const outcomes: Array<{ output: string; msg: Record<string, unknown> }> = [];
	const both = new Promise<void>((resolve) => {
		for (const id of ['out1', 'failed', 'caught'])
			helper.getNode(id).on('input', (msg: Record<string, unknown>) => {
				outcomes.push({ output: id, msg });
				if (outcomes.length === 2) resolve();
			});
	});
	helper.getNode('a').receive({ _msgid: 'a', payload: 'A kite' });
	helper.getNode('b').receive({ _msgid: 'b', payload: 'Another kite' });
	await both;

	expect(outcomes.map((o) => o.output).sort()).toEqual(['failed', 'out1']);
	const refused = outcomes.find((o) => o.output === 'failed')!.msg.error as { message: string };
	expect(refused.message).toMatch(
		/Keep at Least 100 Credits would be passed: the account has 1[13]0 credits/,
	);
	expect(refused.message).not.toContain(KEY);
	expect(engine.emu.balance(KEY)).toBe(110);
});

test('the built Node-RED bundle and the n8n node in one process keep a book each: both 20-credit AI videos go from 130 with a floor of 100 (balance 90)', async () => {
	const bundle = require(join(NODE_RED_PACKAGE_DIR, 'dist', 'visionstory.js')) as Bundle;
	await helper.load(
		bundle.nodes['visionstory-config'],
		[
			{
				id: 'cfg',
				type: 'visionstory-config',
				name: 'bundle',
				baseUrl: engine.emu.baseUrl,
				keepAtLeastCredits: '100',
			},
		] as Array<{ id: string; type: string; [key: string]: unknown }>,
		{ cfg: { apiKey: KEY } },
	);
	const config = helper.getNode('cfg') as unknown as {
		clientFor(msgId: string): {
			client: {
				validate(name: 'createAiVideo', request: Record<string, unknown>): unknown;
				send(name: 'createAiVideo', request: unknown): Promise<unknown>;
			};
		};
	};
	const { client } = config.clientFor('m1');
	const fromNodeRed = client
		.send(
			'createAiVideo',
			client.validate('createAiVideo', { ...aiVideo, prompt: 'A kite from Node-RED' }),
		)
		.then(
			() => undefined,
			(error: Error) => error.message,
		);
	const credentials = {
		visionStoryApi: { apiKey: KEY, baseUrl: engine.emu.baseUrl, keepAtLeastCredits: 100 },
	};
	const fromN8n = engine
		.run(
			oneNode(
				'aiVideo',
				{
					operation: 'create',
					modelId: byId(aiVideo.model_id),
					prompt: 'A kite from n8n',
					duration: aiVideo.duration_sec,
					resolution: aiVideo.resolution,
					waitForCompletion: false,
				},
				{ onError: 'continueRegularOutput' },
			),
			[{}],
			{ credentials },
		)
		.then((result) => result.output(NODE)[0].json.error as string | undefined);
	// Each book sees only its own call under way, and the balance still shows 130 to both.
	expect(await Promise.all([fromNodeRed, fromN8n])).toEqual([undefined, undefined]);
	expect(engine.emu.balance(KEY)).toBe(90);
});
