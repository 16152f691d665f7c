import { ALL_NODES, credentials, flowWith, helper, run, useEmulator } from './support';

/**
 * Issue 38 in Node-RED. Defect 7: a message sent through a node again with its `_msgid` (a flow that
 * loops it back after a failure, a retry) must not pay twice for an instant charged call; the
 * emulator's processed requests and ledger judge. Defect 6 and item 7 below; defect 5 (no two results
 * on one path) is with the talking video's output files in talkingVideo.test.ts.
 */
const env = useEmulator();

const image = () => ({
	type: 'visionstory-image',
	operation: 'generate',
	modelId: 'nano-banana-2',
	downloadResult: false,
});
const processed = () =>
	env.emulator.requests({ method: 'POST', path: '/api/v1/image' }).filter((r) => r.status === 200);
const charges = () => env.emulator.ledger().filter((e) => e.kind === 'charge');

test('a message re-sent after its answer was lost is refused, not charged twice', async () => {
	await helper.load(
		ALL_NODES,
		flowWith(image(), env.emulator.baseUrl),
		credentials(env.emulator.apiKey),
	);
	env.emulator.setFaults({
		failNext: [{ method: 'POST', path: '/api/v1/image', kind: 'resetAfter' }],
	});
	const first = await run({ _msgid: 'order-7', payload: 'A red kite over a beach' });
	expect(first.output).toBe('failed');
	const again = await run({ _msgid: 'order-7', payload: 'A red kite over a beach' });
	expect(again.output).toBe('failed');
	const error = again.msg.error as { message: string };
	expect(error.message).toMatch(/Not sent again: an earlier try .* may have been charged/);
	expect(error.message).toMatch(/prompt "A red kite over a beach"/);
	expect(processed()).toHaveLength(1);
	expect(charges()).toHaveLength(1);
	// A new message is new work: it is sent.
	const fresh = await run({ _msgid: 'order-8', payload: 'A red kite over a beach' });
	expect(fresh.output).toBe('out1');
	expect(processed()).toHaveLength(2);
});

test('a message re-sent after its answer gets that answer back, charged once', async () => {
	await helper.load(
		ALL_NODES,
		flowWith(image(), env.emulator.baseUrl),
		credentials(env.emulator.apiKey),
	);
	const first = await run({ _msgid: 'order-9', payload: 'A blue kite' });
	const again = await run({ _msgid: 'order-9', payload: 'A blue kite' });
	expect(first.output).toBe('out1');
	expect(again.output).toBe('out1');
	expect((again.msg.payload as { url: string }).url).toBe(
		(first.msg.payload as { url: string }).url,
	);
	expect(processed()).toHaveLength(1);
	expect(charges()).toHaveLength(1);
});

/**
 * Issue 38, defect 6 in Node-RED: Align and Transcribe keep what was paid for whatever the word
 * timings (the emulator's `oddWordTimings`): a caption problem is a warning, once, and
 * msg.payload.captionWarning, never the failure output.
 */
describe('odd word timings', () => {
	const TEXT = 'Hello there, in 2024 we grew by a third. Thanks for watching.';
	const audio = () => `${env.emulator.mediaBaseUrl}/media/sample.mp3`;
	const align = (extra: Record<string, unknown>) => ({
		type: 'visionstory-align',
		audioSource: 'url',
		...extra,
	});
	beforeEach(() => env.emulator.setConfig({ oddWordTimings: true }));

	test('Align with captions: the words as answered, captions of every word, a warning', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(align({ operation: 'align', captions: 'srt' }), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const warnings: string[] = [];
		helper
			.getNode('n1')
			.on('call:warn', (call: { args: unknown[] }) => warnings.push(String(call.args[0])));
		const { output, msg } = await run({ audioUrl: audio(), text: TEXT });
		expect(output).toBe('out1');
		const payload = msg.payload as {
			words: Array<{ text: string; start_sec: number | null }>;
			captions: { cues: number; srt: string };
			captionWarning: string;
		};
		expect(payload.words.map((w) => w.text).join(' ')).toBe(TEXT);
		expect(payload.words[3]).toMatchObject({ text: '2024', start_sec: null });
		expect(payload.captions.cues).toBeGreaterThan(0);
		expect(payload.captions.srt).toContain('2024');
		expect(payload.captionWarning).toMatch(/^Captions: 2 of 12 words came without times/);
		expect(warnings).toEqual([payload.captionWarning]);
	});

	test('Transcribe without captions: words without times are kept', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(align({ operation: 'transcribe' }), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const { output, msg } = await run({ audioUrl: audio() });
		expect(output).toBe('out1');
		const payload = msg.payload as { text: string; words: Array<{ text: string }> };
		expect(payload.words.map((w) => w.text).join(' ')).toBe(payload.text);
	});
});

/** Issue 38 item 7: a result file named from what it is when its link and its type say nothing. */
test('an image downloaded into msg.payload is named after its kind when its link says nothing', async () => {
	env.emulator.setConfig({ drift: true });
	await helper.load(
		ALL_NODES,
		flowWith(
			{
				type: 'visionstory-image',
				operation: 'generate',
				modelId: 'nano-banana-2',
				downloadResult: true,
			},
			env.emulator.baseUrl,
		),
		credentials(env.emulator.apiKey),
	);
	const { output, msg } = await run({ payload: 'A red kite' });
	expect(output).toBe('out1');
	expect(Buffer.isBuffer(msg.payload)).toBe(true);
	expect(msg.mimetype).toBe('image/png');
	expect(msg.filename).toMatch(/\.png$/);
});
