import { join, resolve, sep } from 'node:path';

import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import type { WalkFigures } from '../support/readerWalk';
import { describeWalk, readerWalk, REPO, whatRan } from '../support/readerWalk';
import { ALL_NODES, credentials, flowWith, helper, run } from './support';

/**
 * What a newcomer reads to follow the Node-RED talking video node's Create with waiting (the same
 * counting as n8n's `test/engine/callPath.test.ts`, docs/architecture.md): from the node's constructor,
 * every function the run executed that go-to-definition reaches, the core's included.
 */

const SRC = resolve(REPO, 'packages/node-red-visionstory/src') + sep;
const CORE = resolve(REPO, 'packages/n8n-nodes-visionstory/nodes/shared/api') + sep;
const rel = (path: string) => `packages/node-red-visionstory/src/${path}`;
const core = (path: string) => `packages/n8n-nodes-visionstory/nodes/shared/api/${path}`;

/** Outer first: the node's folder, the runtime and the config node every action node shares, the door to the core, the core. */
function layerOf(file: string): number {
	if (file.startsWith(join(SRC, 'nodes/talking-video'))) return 0;
	if (file === join(SRC, 'api.ts')) return 2;
	if (file.startsWith(CORE)) return 3;
	return 1;
}

let emulator: Emulator;
let avatarId: string;
beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
afterEach(async () => await helper.unload());

async function walkOf(handedDown: ReadonlySet<string>): Promise<WalkFigures> {
	const { result, ran } = await whatRan(
		async () => {
			await helper.load(
				ALL_NODES,
				flowWith(
					{
						type: 'visionstory-talking-video',
						operation: 'create',
						avatarId,
						voiceId: 'Alice',
						scriptType: 'text',
						waitForCompletion: true,
						pollIntervalSeconds: 5,
						downloadResult: true,
					},
					emulator.baseUrl,
				),
				credentials(emulator.apiKey),
			);
			return await run({ payload: 'Our spring sale starts today!' });
		},
		(file) => file.startsWith(SRC) || file.startsWith(CORE),
	);
	expect(result.output).toBe('out1');
	const walk = readerWalk(
		{ file: join(SRC, 'nodes/talking-video/talking-video.ts'), name: 'registerTalkingVideo' },
		ran,
		{ inScope: (file) => file.startsWith(SRC) || file.startsWith(CORE), layerOf, handedDown },
	);
	console.log(describeWalk('Node-RED talking video → Create (text, waiting)', walk));
	return walk;
}

/**
 * Where the path steps into what an outer file handed down, as the design has it: the node's operations
 * it hands its runtime (`startAction(…, spec)`), the host's file store and progress it hands the core's
 * pipeline, and the HTTP channel and sleep the config node hands the core's exchange.
 */
const HANDED_DOWN = new Set([
	`${rel('runtime.ts')} → ${rel('nodes/talking-video/talking-video.ts')}`,
	`${core('videoPipeline.ts')} → ${rel('videos.ts')}`,
	`${core('exchange.ts')} → ${rel('channel.ts')}`,
	`${core('exchange.ts')} → ${rel('nodes/config/config.ts')}`,
]);

/** The figures docs/architecture.md states, as ceilings (the aim, 12 files and 3,500 lines, is not met: the page says why). */
const CEILING = { files: 31, lines: 6050 };

test('Talking Video → Create with waiting in Node-RED: the files a reader opens, read top to bottom', async () => {
	const walk = await walkOf(HANDED_DOWN);
	expect(walk.files[0]).toBe(rel('nodes/talking-video/talking-video.ts'));
	expect(walk.files.length).toBeLessThanOrEqual(CEILING.files);
	expect(walk.lines).toBeLessThanOrEqual(CEILING.lines);
	// The request goes out through the channel the config node hands the core.
	expect(walk.interfaces).toContain(`${core('http.ts')}:HttpChannel.send`);
	expect(walk.files).toContain(rel('channel.ts'));
	// The core's own files come after Node-RED's and never call into them but through what was handed down.
	expect(walk.returns).toEqual([]);
	expect(walk.backUp).toEqual([]);
});
