import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { createHarness } from '../harness';
import { firstPublicAvatarId } from '../support/avatars';
import { TRIGGER } from '../support/engine';

/**
 * The idempotency key of a create: the same within one execution (a resend returns the original
 * video), different across executions and across n8n installations (execution ids restart at 1 in
 * every n8n database, so they alone would make two installations share keys).
 */
let emu: Emulator;
let avatarId: string;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
	avatarId = await firstPublicAvatarId(emu);
});
afterAll(async () => await emu.stop());

async function runOnFreshInstallation(executionIds: string[]): Promise<void> {
	const harness = await createHarness();
	try {
		for (const executionId of executionIds) {
			const result = await harness.run('test/workflows/talking-video-retry.json', {
				credentials: { visionStoryApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
				executionId,
				pinData: { [TRIGGER]: [{ json: { avatarId, text: 'Same script every time' } }] },
			});
			if (result.error) throw result.error;
		}
	} finally {
		await harness.shutdown();
	}
}

test('one task per execution, even when two n8n installations number their executions alike', async () => {
	await runOnFreshInstallation(['1', '1']);
	expect(emu.tasks()).toHaveLength(1);
	await runOnFreshInstallation(['1']);
	expect(emu.tasks()).toHaveLength(2);
	expect(new Set(emu.tasks().map((t) => t.client_request_id)).size).toBe(2);
	await runOnFreshInstallation(['2']);
	expect(emu.tasks()).toHaveLength(3);
});
