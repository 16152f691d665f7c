jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { RequestBudget } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/requestBudget';
import { SpendLedger } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
import { SpendingClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spendingClient';
import { runTasks } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/taskRun';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { createUndiciClient } from '../support/undiciTransport';
import { virtualClock } from '../support/virtualTime';

const RENDER_MS = 4000;
const POLL_MS = 5000;

let emu: Emulator;
// The client the nodes hand `runTasks`, with no cap and no floor: it sends as the plain client does.
let client: SpendingClient;
let avatarId: string;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: RENDER_MS });
	virtualClock.target = emu;
	client = new SpendingClient(
		createUndiciClient(emu.apiKey, { baseUrl: emu.baseUrl }),
		new SpendLedger(),
		{},
	);
	avatarId = (await client.listAvatars({ is_public: true, limit: 1 })).avatars[0].avatar_id;
});
afterAll(async () => await emu.stop());

test('the last read of a batch waits for the last task due within half an interval: one read finds them all done, not a second a whole interval later', async () => {
	emu.reset();
	emu.setConfig({ renderMs: RENDER_MS });
	const jobs = Array.from({ length: 10 }, (_, i) => ({
		request: client.validate('createTalkingVideo', {
			avatar_id: avatarId,
			text_script: { text: `Line ${i}`, voice_id: 'Alice' },
		}),
		timeoutMs: 600_000,
	}));
	const start = emu.now();
	// Eight requests a second: the last submissions leave seconds after the first, so they are due after the first read.
	const outcomes = await runTasks(client, 'talkingVideo', jobs, {
		waitForCompletion: true,
		pollIntervalMs: POLL_MS,
		atLimit: 'queue',
		budget: new RequestBudget(8),
	});
	expect(outcomes.every((o) => o.ok)).toBe(true);
	const lastSubmitted = Math.max(...emu.tasks().map((t) => t.submittedAt)) - start;
	expect(lastSubmitted).toBeGreaterThan(1000);
	// Read when the last is due (a poll interval after its submission), not at the next beat after it.
	expect(emu.now() - start).toBeLessThanOrEqual(lastSubmitted + POLL_MS + 100);
	expect(emu.now() - start).toBeLessThan(2 * POLL_MS - 1000);
	// Two reads of the list: the first when the first tasks were due, the last for all the others.
	expect(emu.requests({ method: 'GET', path: '/api/v1/videos' }).length).toBeLessThanOrEqual(2);
});
