/**
 * The same tolerance as the n8n nodes: against the emulator's drift mode (unknown fields, numbers as
 * text, a status this version does not know before the real one, odd model entries, extensionless
 * media), the nodes keep what is usable and finish.
 */
import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, run } from './support';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 300, drift: true });
});
afterAll(async () => await emulator.stop());
afterEach(async () => await helper.unload());

async function runNode(
	node: { type: string; [key: string]: unknown },
	msg: Record<string, unknown>,
) {
	await helper.unload();
	await helper.load(ALL_NODES, flowWith(node, emulator.baseUrl), credentials(emulator.apiKey));
	const result = await run(msg);
	if (result.output === 'failed') throw new Error(JSON.stringify(result.msg.error));
	return result.msg;
}

it('reads answers whose shape the contract leaves open, and waits through an unknown status', async () => {
	const avatarId = await firstPublicAvatarId(emulator);
	const video = await runNode(
		{
			type: 'visionstory-talking-video',
			operation: 'create',
			scriptType: 'text',
			avatarId,
			voiceId: 'Alice',
			waitForCompletion: true,
			pollIntervalSeconds: 5,
			downloadResult: true,
		},
		{ _msgid: 'drift', payload: ['One.', 'Two.'] },
	);
	expect((video.visionstory as Array<{ status: string }>).map((t) => t.status)).toEqual([
		'created',
		'created',
	]);
	for (const file of video.payload as Buffer[]) expect(file.length).toBeGreaterThan(1000);
	const models = await runNode(
		{ type: 'visionstory-image', operation: 'listModels' },
		{ payload: 1 },
	);
	expect(models.payload).toHaveLength(7);
	const voices = await runNode(
		{ type: 'visionstory-voice', operation: 'getMany', library: 'public', limit: 5 },
		{ payload: 1 },
	);
	expect(voices.payload).toHaveLength(5);
	const credits = await runNode(
		{ type: 'visionstory-account', operation: 'getCredits' },
		{ payload: 1 },
	);
	expect(credits.payload).toMatchObject({ credits: expect.any(Number) });
});
