jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INodeParameters } from 'n8n-workflow';

import { TOP_UP_URL } from '../emulator/errors';
import { useEngine } from '../support/engine';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

/**
 * An account without credits, with the emulator in drift mode: every charged endpoint answers 402
 * with the service's top-up hint, and every node shows that message and hint (never a generic one,
 * never the raw envelope), with nothing created or charged.
 */
const engine = useEngine({ clock: 'manual' });

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ drift: true });
	engine.emu.addAccount(engine.emu.apiKey, 0);
});

const url = (file: string) => `${engine.emu.mediaBaseUrl}/media/${file}`;

const CHARGED: Array<[string, string, () => INodeParameters]> = [
	[
		'Talking Video → Create',
		'talkingVideo',
		() => ({
			operation: 'create',
			avatarId: byId('public_anna'),
			scriptType: 'text',
			text: 'Hello there',
			voiceId: byId('Alice'),
			waitForCompletion: false,
		}),
	],
	[
		'AI Video → Create',
		'aiVideo',
		() => ({
			operation: 'create',
			modelId: byId('kling-3.0-omni'),
			prompt: 'A red kite over a beach',
			waitForCompletion: false,
		}),
	],
	[
		'Image → Generate',
		'image',
		() => ({ operation: 'generate', modelId: byId('nano-banana-2'), prompt: 'A red kite' }),
	],
	[
		'Text to Speech → Synthesize',
		'textToSpeech',
		() => ({ operation: 'synthesize', text: 'Hello there', voiceId: byId('Alice') }),
	],
	[
		'Align → Align',
		'align',
		() => ({
			operation: 'align',
			audioSource: 'url',
			audioUrl: url('sample.mp3'),
			text: 'Hello there',
		}),
	],
	[
		'Align → Transcribe',
		'align',
		() => ({ operation: 'transcribe', audioSource: 'url', audioUrl: url('sample.mp3') }),
	],
	[
		'Understand → Analyze',
		'understand',
		() => ({
			operation: 'analyze',
			inputs: { input: [{ source: 'url', url: url('sample.png') }] },
			prompt: 'Describe it',
			schemaMode: 'fields',
			fields: { field: [{ name: 'mood', type: 'string', required: true }] },
		}),
	],
];

test.each(CHARGED)(
	'%s: the 402 shows the service message and its top-up hint; nothing is charged',
	async (_name, type, parameters) => {
		const result = await engine.run(oneNode(type, parameters(), ON_ERROR.stop));
		expect(result.status).toBe('error');
		const error = result.error as unknown as {
			message: string;
			description?: string | null;
			httpCode?: string;
		};
		expect(error.message).toMatch(
			/^Insufficient credits: this operation costs \d+(\.\d+)?, the balance is 0$/,
		);
		expect(error.description).toBe(`Top up credits at ${TOP_UP_URL}`);
		expect(error.httpCode).toBe('402');
		expect(JSON.stringify(result.error)).not.toContain(engine.emu.apiKey);
		expect(engine.emu.ledger()).toEqual([]);
		expect(engine.emu.tasks()).toEqual([]);
	},
);

test.each(CHARGED)(
	'%s, On Error continue: the error item carries message, hint and status 402',
	async (_name, type, parameters) => {
		const result = await engine.run(oneNode(type, parameters(), ON_ERROR.continueRegularOutput));
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE, 0);
		expect(item.json).toMatchObject({ hint: `Top up credits at ${TOP_UP_URL}`, status: 402 });
		expect(String(item.json.error)).toMatch(/^Insufficient credits/);
		expect(engine.emu.ledger()).toEqual([]);
	},
);
