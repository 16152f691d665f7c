import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/** What the nodes accept that the contract allows, and what they refuse before sending because the service would misbehave. */
const engine = useEngine();

beforeEach(() => engine.emu.reset());

const talkingText = (extra: IDataObject = {}) => ({
	operation: 'create',
	avatarId: byId('public_anna'),
	scriptType: 'text',
	text: 'Our spring sale starts today!',
	voiceId: byId('Alice'),
	waitForCompletion: false,
	...extra,
});

const posts = (path: string) => engine.emu.requests({ method: 'POST', path });

test('Talking Video: a legacy 480p request is sent (VisionStory renders and bills it as 720p)', async () => {
	const result = await engine.run(oneNode('talkingVideo', talkingText({ resolution: '=480p' })));
	expect(result.error).toBeUndefined();
	expect(posts('/api/v1/video').map((r) => r.settings?.resolution)).toEqual(['480p']);
	expect(engine.emu.tasks()).toHaveLength(1);
});

describe('Voice → Get Many, My Voices', () => {
	async function cloneOne(): Promise<string> {
		const response = await fetch(`${engine.emu.baseUrl}/api/v1/voice`, {
			method: 'POST',
			headers: { 'X-API-Key': engine.emu.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify({ audio_url: `${engine.emu.mediaBaseUrl}/media/sample.mp3` }),
		});
		return ((await response.json()) as { data: { voice_id: string } }).data.voice_id;
	}

	test('reads one page: own voices come whole on the first page', async () => {
		const voiceId = await cloneOne();
		const result = await engine.run(
			oneNode('voice', { operation: 'getMany', library: 'own', returnAll: true }),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE).map((i) => i.json)).toEqual([
			expect.objectContaining({ voice_id: voiceId, library: 'own' }),
		]);
		const reads = engine.emu.requests({ method: 'GET', path: '/api/v1/voices' });
		expect(reads).toHaveLength(1);
		// The public part of that page is not wanted: the smallest page is asked for.
		expect(reads[0].query.limit).toBe('1');
	});

	test('with no own voices and a small limit, still one page, not the whole public library', async () => {
		const result = await engine.run(
			oneNode('voice', {
				operation: 'getMany',
				library: 'own',
				returnAll: false,
				limit: 2,
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toHaveLength(0);
		expect(engine.emu.requests({ method: 'GET', path: '/api/v1/voices' })).toHaveLength(1);
	});
});

describe('a custom Idempotency Key', () => {
	const items = [{ n: 1 }, { n: 2 }, { n: 3 }];

	test('that is the same for every item is refused before anything is sent', async () => {
		const result = await engine.run(
			oneNode('talkingVideo', talkingText({ options: { idempotencyKey: 'order-1234' } })),
			items,
		);
		expect(result.error?.message).toMatch(
			/"Idempotency Key" \(idempotencyKey\):? "order-1234" is the same for items 1, 2 and 3; VisionStory would return one video for all of them/,
		);
		expect(result.error?.description).toMatch(/differs per item.*\$json/);
		expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
	});

	test('that differs per item makes one video per item', async () => {
		const result = await engine.run(
			oneNode(
				'talkingVideo',
				talkingText({ options: { idempotencyKey: '={{ "order-" + $json.n }}' } }),
			),
			items,
		);
		expect(result.error).toBeUndefined();
		expect(
			engine.emu
				.tasks()
				.map((t) => t.client_request_id)
				.sort(),
		).toEqual(['order-1', 'order-2', 'order-3']);
	});
});

test('Understand: a number field whose allowed values are words is refused, not sent as NaN', async () => {
	const parameters = {
		operation: 'analyze',
		inputs: { input: [{ source: 'url', url: `${engine.emu.mediaBaseUrl}/media/sample.png` }] },
		prompt: 'Rate the photo',
		schemaMode: 'fields',
		fields: { field: [{ name: 'score', type: 'number', allowedValues: 'low, high' }] },
	};
	const result = await engine.run(oneNode('understand', parameters));
	expect(result.error?.message).toMatch(
		/"Fields" \(fields entry 1\):? "score" is a number field but its allowed value "low" is not a number; .*type String/,
	);
	expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
});

test('Understand: an integer field keeps whole-number allowed values as numbers', async () => {
	const parameters = {
		operation: 'analyze',
		inputs: { input: [{ source: 'url', url: `${engine.emu.mediaBaseUrl}/media/sample.png` }] },
		prompt: 'Rate the photo',
		schemaMode: 'fields',
		fields: { field: [{ name: 'stars', type: 'integer', allowedValues: '1, 2, 3' }] },
	};
	const result = await engine.run(oneNode('understand', parameters));
	expect(result.error).toBeUndefined();
	expect([1, 2, 3]).toContain((result.output(NODE)[0].json.output as IDataObject).stars);
});

describe('Base URL', () => {
	const port = () => new URL(engine.emu.baseUrl).port;

	test('http:// to a host that is not loopback is refused before the key is sent', async () => {
		// 0.0.0.0 reaches this machine's listeners, so without the check the call would go through.
		const credentials = {
			visionStoryApi: { apiKey: engine.emu.apiKey, baseUrl: `http://0.0.0.0:${port()}` },
		};
		const result = await engine.run(oneNode('account', { operation: 'getCredits' }), [{}], {
			credentials,
		});
		expect(result.error?.message).toMatch(
			/Base URL .*http:\/\/0\.0\.0\.0.* would send the API key in clear text/,
		);
		expect(result.error?.description).toMatch(/https:\/\/.*localhost, 127\.0\.0\.1 or ::1/);
		expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
	});

	test.each(['127.0.0.1', 'localhost'])('http:// on loopback (%s) is accepted', async (host) => {
		const credentials = {
			visionStoryApi: { apiKey: engine.emu.apiKey, baseUrl: `http://${host}:${port()}` },
		};
		const result = await engine.run(oneNode('account', { operation: 'getCredits' }), [{}], {
			credentials,
		});
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.credits).toBe(engine.emu.balance());
	});

	test('the credential test never sends the key over http:// to a host that is not loopback', async () => {
		let sentTo = '';
		const result = await engine.harness.testCredential(
			'visionStoryApi',
			{ apiKey: engine.emu.apiKey, baseUrl: `http://0.0.0.0:${port()}` },
			{
				beforeSend: (request) => {
					sentTo = `${request.baseURL ?? ''}${request.url}`;
					throw new Error('stopped before sending');
				},
			},
		);
		expect(result.status).toBe('Error');
		expect(sentTo).toMatch(/^https:\/\/.*\.invalid\//);
		expect(sentTo).not.toContain('0.0.0.0');
	});

	test('the credential test does not follow a redirect with the key', async () => {
		// A Base URL that answers with a redirect to another origin (here the emulator itself).
		const redirector = createServer((req, res) => {
			res.writeHead(301, { Location: `${engine.emu.baseUrl}${req.url ?? '/'}` });
			res.end();
		});
		await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
			const result = await engine.harness.testCredential('visionStoryApi', {
				apiKey: engine.emu.apiKey,
				baseUrl,
			});
			expect(result.status).toBe('Error');
			expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
		} finally {
			await new Promise((resolve) => redirector.close(resolve));
		}
	});
});

describe('Align: audio over 30 minutes', () => {
	/** A PCM WAV header for `seconds` of 8 kHz mono 8-bit audio (8,000 bytes a second), then that many bytes. */
	function wav(seconds: number): Buffer {
		const bytes = seconds * 8000;
		const header = Buffer.alloc(44);
		header.write('RIFF', 0);
		header.writeUInt32LE(36 + bytes, 4);
		header.write('WAVEfmt ', 8);
		header.writeUInt32LE(16, 16);
		header.writeUInt16LE(1, 20);
		header.writeUInt16LE(1, 22);
		header.writeUInt32LE(8000, 24);
		header.writeUInt32LE(8000, 28);
		header.writeUInt16LE(1, 32);
		header.writeUInt16LE(8, 34);
		header.write('data', 36);
		header.writeUInt32LE(bytes, 40);
		return Buffer.concat([header, Buffer.alloc(bytes, 0x80)]);
	}

	/** A constant-bitrate MP3 of `seconds`: MPEG-1 Layer III frames at 32 kbit/s, 32 kHz (144 bytes, 36 ms each). */
	function mp3(seconds: number): Buffer {
		const frame = Buffer.alloc(144);
		frame.writeUInt32BE(0xfffb18c4, 0);
		return Buffer.concat(Array.from({ length: Math.ceil((seconds * 1000) / 36) }, () => frame));
	}

	const run = async (file: Buffer, mimeType: string, fileName: string, operation = 'align') =>
		await engine.harness.run(
			oneNode('align', {
				operation,
				audioSource: 'binary',
				audioBinaryProperty: 'data',
				...(operation === 'align' ? { text: 'Hello there' } : {}),
			}),
			{
				credentials: engine.credentials,
				pinData: {
					'When clicking ‘Execute workflow’': [
						{ json: {}, binary: { data: { data: file.toString('base64'), mimeType, fileName } } },
					],
				},
			},
		);

	test.each([
		['a WAV', () => wav(31 * 60), 'audio/wav', 'long.wav', 'align'],
		['an MP3', () => mp3(31 * 60), 'audio/mpeg', 'long.mp3', 'align'],
	])(
		'%s of 31 minutes is refused before sending',
		async (_, make, mimeType, fileName, operation) => {
			const result = await run(make(), mimeType, fileName, operation);
			expect(result.error?.message).toMatch(
				/"Audio Input Binary Field" \(audioBinaryProperty\):? is 31 min(utes)? long; at most 30 minutes/,
			);
			expect(result.error?.description).toMatch(/Nothing was sent/);
			expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
		},
	);

	test('a WAV of 29 minutes is sent', async () => {
		const result = await run(wav(29 * 60), 'audio/wav', 'short.wav');
		expect(result.error).toBeUndefined();
		expect(engine.emu.requests({ method: 'POST', path: '/api/v1/audio/align' })).toHaveLength(1);
	});
});
