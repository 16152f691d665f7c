/**
 * One balance floor book per account in a process, whichever host names it: the n8n node (the n8n
 * package's source, run by n8n's engine) and the Node-RED config node of the built bundle
 * (`dist/visionstory.js`, which carries its own copy of the core) loaded in one process. Needs
 * `npm run build` first, as the part that runs this suite does.
 */
import { join } from 'node:path';

import helper from 'node-red-node-test-helper';

import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

helper.init(require.resolve('node-red'));

interface Bundle {
	nodes: Record<string, (red: unknown) => void>;
}
interface ConfigNode {
	clientFor(msgId: string): {
		client: { createAiVideo(request: Record<string, unknown>): Promise<{ video_id: string }> };
	};
}

const bundle = require(join(NODE_RED_PACKAGE_DIR, 'dist', 'visionstory.js')) as Bundle;
const engine = useEngine();
const KEY = 'sk-vs-emulator-shared-book-00000000';

afterEach(async () => await helper.unload());

test('the n8n node and a Node-RED config node of the built bundle each send a 20-credit AI video at once from 130, floor 100: one is refused, balance 110', async () => {
	engine.emu.addAccount(KEY, 130);
	// Both creates are slow to be handled while balance reads are not: they are under way at once.
	engine.emu.setFaults({
		failNext: [{ method: 'POST', path: '/api/v1/ai_video', kind: 'slow', delayMs: 3000, count: 2 }],
	});
	await helper.load(
		bundle.nodes['visionstory-config'],
		[
			{
				id: 'cfg',
				type: 'visionstory-config',
				name: 'shared',
				// Another spelling of the same address: the account is the same.
				baseUrl: `${engine.emu.baseUrl}/`,
				keepAtLeastCredits: '100',
			},
		] as Array<{ id: string; type: string; [key: string]: unknown }>,
		{ cfg: { apiKey: KEY } },
	);
	const config = helper.getNode('cfg') as unknown as ConfigNode;
	const fromNodeRed = config
		.clientFor('m1')
		.client.createAiVideo({
			model_id: 'wan-2.5',
			prompt: 'A kite from Node-RED',
			duration_sec: 5,
			resolution: '720p',
		})
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
					modelId: byId('wan-2.5'),
					prompt: 'A kite from n8n',
					duration: 5,
					resolution: '720p',
					waitForCompletion: false,
				},
				{ onError: 'continueRegularOutput' },
			),
			[{}],
			{ credentials },
		)
		.then((result) => result.output(NODE)[0].json.error as string | undefined);
	const errors = await Promise.all([fromNodeRed, fromN8n]);
	expect(errors.filter((error) => error === undefined)).toHaveLength(1);
	expect(errors.find((error) => error !== undefined)).toMatch(
		/Keep at Least 100 Credits would be passed: the account has 1[13]0 credits/,
	);
	expect(engine.emu.balance(KEY)).toBe(110);
});
