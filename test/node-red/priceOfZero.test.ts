/**
 * Issue 38, defect 3, in Node-RED: the AI video cost endpoint answering `credit: 0` is an unknown
 * price, not a free call. Max credits per message then passes by at most one call: with the cap at 30
 * and AI videos at 20 credits, at most 40 charged for a batch of five, whether the node waits or not.
 * The emulator's ledger is the judge.
 */
import { AI_VIDEO_PRICE, COST_OF_ZERO } from '../support/priceOfZero';
import { ALL_NODES, credentials, flowWith, helper, next, useEmulator } from './support';

const env = useEmulator();

const CAP = 30;
const PRICE = AI_VIDEO_PRICE;

const charged = () =>
	env.emulator.ledger().reduce((sum, e) => sum + (e.kind === 'charge' ? e.credits : -e.credits), 0);

const aiVideos = (waitForCompletion: boolean) => ({
	type: 'visionstory-ai-video',
	operation: 'create',
	modelId: 'wan-2.5',
	duration: '5',
	resolution: '720p',
	waitForCompletion,
	pollIntervalSeconds: 5,
	downloadResult: false,
});

it.each([
	['waiting, tasks reporting their cost from submission on', true, false],
	['not waiting, tasks reporting cost_credit 0 until they finish', false, true],
])(
	'five 20-credit AI videos in one message, cap 30, the cost endpoint answering credit 0 (%s): at most one call past the cap',
	async (_, wait, lateCost) => {
		env.emulator.setConfig({ lateCost });
		env.emulator.setFaults({ failNext: [COST_OF_ZERO] });
		await helper.load(
			ALL_NODES,
			flowWith(aiVideos(wait), env.emulator.baseUrl, { maxCreditsPerMessage: String(CAP) }),
			credentials(env.emulator.apiKey),
		);
		const failed = next('failed').then((m) => m.errors as Array<{ message: string }>);
		const delivered = next('out1');
		helper.getNode('n1').receive({
			_msgid: `zero-${String(wait)}`,
			payload: Array.from({ length: 5 }, (__, i) => `A kite, take ${i + 1}`),
		});
		// A batch charged whole leaves by output 1 alone; otherwise its refused items leave by output 2.
		const errors = await Promise.race([
			failed,
			delivered.then(async (m) => ((m.payload as unknown[]).length === 5 ? [] : await failed)),
		]);
		// The cap admits calls while the known spend is under it: the one that crosses it is the last.
		expect(charged()).toBeLessThanOrEqual(2 * PRICE);
		expect(charged()).toBeGreaterThanOrEqual(PRICE);
		expect(errors.length).toBeGreaterThanOrEqual(3);
		for (const error of errors) expect(error.message).toMatch(/Max credits per message \(30\)/);
	},
);
