jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';

/**
 * n8n's Retry of a failed execution starts a new execution (new id, mode `retry`) from the failed
 * one's saved data. A create that failed while waiting (here: its Timeout) must, when retried, get
 * back the videos it already made instead of creating and charging new ones; a new run creates anew.
 */
const RENDER_MS = 150_000;
const FILE = 'test/workflows/talking-video-timeout.json';
const NODE = 'Create Talking Videos';
const engine = useEngine({ clock: 'manual', renderMs: RENDER_MS });
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
});

const scripts = () =>
	['First welcome', 'Second welcome', 'Third welcome'].map((text) => ({ avatarId, text }));
const charges = () => engine.emu.ledger().filter((e) => e.kind === 'charge');

test("n8n's Retry of a create that timed out, and a retry of that retry, find the videos already made", async () => {
	const failed = await engine.run(FILE, scripts());
	expect(failed.error?.message ?? failed.nodeError(NODE)?.message).toMatch(
		/still rendering after 1 minute/,
	);
	const made = engine.emu.tasks().map((t) => t.video_id);
	expect(made).toHaveLength(3);
	expect(
		charges()
			.map((c) => c.refId)
			.sort(),
	).toEqual([...made].sort());

	// Rendering takes 150 s: the first retry times out again a minute later, the second sees them done.
	const retried = await engine.run(FILE, scripts(), { retryOf: failed });
	expect(retried.executionId).not.toBe(failed.executionId);
	expect(retried.nodeError(NODE)?.message).toMatch(/still rendering after 1 minute/);
	const again = await engine.run(FILE, scripts(), { retryOf: retried });
	expect(again.error).toBeUndefined();
	expect(again.output(NODE).map((i) => i.json.video_id)).toEqual(made);
	expect(again.output(NODE).every((i) => i.json.status === 'created')).toBe(true);
	expect(engine.emu.tasks()).toHaveLength(3);
	expect(charges()).toHaveLength(3);

	// A new run of the same workflow with the same input is a new order: new videos, new charges.
	await engine.run(FILE, scripts());
	expect(engine.emu.tasks()).toHaveLength(6);
	expect(charges()).toHaveLength(6);
});

test("n8n's Retry after a failed render gets the finished videos back and makes a new attempt for the failed one, charging nothing twice", async () => {
	engine.emu.reset();
	engine.emu.setConfig({ renderMs: 30_000 });
	const items = [
		{ avatarId, text: 'Fine one' },
		{ avatarId, text: 'Fine two' },
		{ avatarId, text: 'Broken one [fail]' },
	];
	const failed = await engine.run(FILE, items);
	expect(failed.nodeError(NODE)?.message).toMatch(/failed/);
	const made = engine.emu.tasks().map((t) => t.video_id);
	expect(made).toHaveLength(3);
	const charged = () =>
		engine.emu.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);
	expect(charged()).toBe(20);

	// The service answers the failed one's key with the failed task: a new key makes a new attempt, which
	// renders (and fails again: the script still says so), refunded like the first.
	const retried = await engine.run(FILE, items, { retryOf: failed });
	const tasks = engine.emu.tasks();
	expect(tasks).toHaveLength(4);
	expect(tasks.filter((t) => made.includes(t.video_id))).toHaveLength(3);
	const fresh = tasks.find((t) => !made.includes(t.video_id))!;
	expect(retried.nodeError(NODE)?.message).toBe(`Talking video ${fresh.video_id} failed`);
	expect(fresh.client_request_id).toMatch(/\.a1$/);
	expect(charged()).toBe(20);
});
