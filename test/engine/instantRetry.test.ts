jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INodeParameters } from 'n8n-workflow';

import { useEngine } from '../support/engine';
import type { NodeSettings } from '../support/workflow';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

/**
 * Issue 38, defect 7: n8n's Retry On Fail runs the node again. A charged call answered with success
 * is charged; one whose answer was lost after it reached VisionStory may have been. Within one
 * execution, node and item, the retry returns the answer it already has, and refuses to send again
 * what may have been charged, saying why; the emulator's ledger and its processed requests judge.
 */
const engine = useEngine({ clock: 'manual' });

beforeEach(() => engine.emu.reset());

const url = (file: string) => `${engine.emu.mediaBaseUrl}/media/${file}`;
// n8n waits a second between tries when told 0; 1 ms keeps the test quick.
const RETRY: NodeSettings = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 };

interface Case {
	name: string;
	resource: string;
	path: string;
	parameters: () => INodeParameters;
}

const INSTANT: Case[] = [
	{
		name: 'Image → Generate',
		resource: 'image',
		path: '/api/v1/image',
		parameters: () => ({
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: '={{ $json.text }}',
			downloadResult: false,
		}),
	},
	{
		name: 'Text to Speech → Synthesize',
		resource: 'textToSpeech',
		path: '/api/v1/tts',
		parameters: () => ({
			operation: 'synthesize',
			text: '={{ $json.text }}',
			voiceId: byId('Alice'),
		}),
	},
	{
		name: 'Align → Align',
		resource: 'align',
		path: '/api/v1/audio/align',
		parameters: () => ({
			operation: 'align',
			audioSource: 'url',
			audioUrl: url('sample.mp3'),
			text: '={{ $json.text }}',
		}),
	},
	{
		name: 'Align → Transcribe',
		resource: 'align',
		path: '/api/v1/audio/transcribe',
		parameters: () => ({
			operation: 'transcribe',
			audioSource: 'url',
			audioUrl: `={{ "${url('sample.mp3')}?" + $json.text.length }}`,
		}),
	},
	{
		name: 'Understand → Analyze',
		resource: 'understand',
		path: '/api/v1/media/understand',
		parameters: () => ({
			operation: 'analyze',
			inputs: { input: [{ source: 'url', url: url('sample.png') }] },
			prompt: '={{ $json.text }}',
			schemaMode: 'fields',
			fields: { field: [{ name: 'mood', type: 'string', required: true }] },
		}),
	},
	{
		name: 'Voice → Clone',
		resource: 'voice',
		path: '/api/v1/voice',
		parameters: () => ({
			operation: 'clone',
			sampleSource: 'url',
			sampleUrl: url('sample.mp3'),
			previewText: '={{ $json.text }}',
		}),
	},
	{
		name: 'Avatar → Create',
		resource: 'avatar',
		path: '/api/v1/avatar',
		parameters: () => ({
			operation: 'create',
			imageSource: 'url',
			imageUrl: `={{ "${url('sample.png')}?" + $json.text.length }}`,
		}),
	},
];

/** Requests VisionStory processed at `path` (answered or not): each one made something, and may have charged. */
const processed = (path: string) =>
	engine.emu.requests({ method: 'POST', path }).filter((r) => r.status === 200);
const charges = () => engine.emu.ledger().filter((e) => e.kind === 'charge');

describe.each(INSTANT)('$name under Retry On Fail', ({ resource, path, parameters }) => {
	test('an answer lost after processing is not sent again: the retries are refused, saying why', async () => {
		engine.emu.setFaults({ failNext: [{ method: 'POST', path, kind: 'resetAfter', count: 2 }] });
		const result = await engine.run(oneNode(resource, parameters(), RETRY), [
			{ text: 'Good morning' },
		]);
		expect(processed(path)).toHaveLength(1);
		expect(charges().length).toBeLessThanOrEqual(1);
		const error = result.nodeError(NODE) as { message: string; description?: string | null };
		expect(error.message).toMatch(/earlier try .* may have been charged/i);
		expect(error.description).toMatch(/credits/i);
		expect(error.description).toMatch(/new execution|run the workflow again/i);
	});

	test('an item answered in a failed try is not sent again: its answer comes back, the failed item is sent again', async () => {
		// The second item's first call is answered 500 (not processed): the node fails, n8n runs it again.
		engine.emu.setFaults({
			failNext: [{ method: 'POST', path, kind: 'respond', respond: { status: 500 } }],
		});
		const workflow = oneNode(resource, parameters(), RETRY);
		// One at a time, so the first item is answered before the second is sent.
		const result = await engine.run(workflow, [{ text: 'Good morning' }, { text: 'Good night' }]);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toHaveLength(2);
		expect(processed(path)).toHaveLength(2);
		expect(charges().length).toBeLessThanOrEqual(2);
	});
});

test('a new execution sends the same item again: the record is per execution', async () => {
	const [image] = INSTANT;
	const workflow = oneNode(image.resource, image.parameters(), ON_ERROR.stop);
	await engine.run(workflow, [{ text: 'Good morning' }]);
	await engine.run(workflow, [{ text: 'Good morning' }]);
	expect(processed(image.path)).toHaveLength(2);
});
