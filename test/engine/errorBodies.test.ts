jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import type { INodeParameters } from 'n8n-workflow';

import { TOP_UP_URL } from '../emulator/errors';
import type { FaultResponse } from '../emulator/types';
import type { RunResult } from '../harness';
import { useEngine } from '../support/engine';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';

/**
 * What the user reads when VisionStory (or something in front of it) answers with an error: the
 * service's own message and hint, its code, its per-field details whatever their shape, and plain
 * words for answers that are not the API's envelope (an HTML page, an empty body, a redirect). Every
 * case in each On Error setting: the error n8n shows (message and description) or the error item.
 */

const engine = useEngine({ clock: 'manual' });

beforeEach(() => engine.emu.reset());

type Mode = keyof typeof ON_ERROR;
const MODES: Mode[] = ['stop', 'continueRegularOutput', 'continueErrorOutput'];

interface Shown {
	message: string;
	hint: string;
	code?: unknown;
	status?: unknown;
}

/** The message and hint the user reads, in the On Error setting the run used. */
function shown(result: RunResult, mode: Mode): Shown {
	if (mode === 'stop') {
		expect(result.status).toBe('error');
		const error = result.error as unknown as
			| { message: string; description?: string | null; httpCode?: string }
			| undefined;
		expect(error).toBeDefined();
		return {
			message: error!.message,
			hint: error!.description ?? '',
			status: error!.httpCode === undefined ? undefined : Number(error!.httpCode),
		};
	}
	expect(result.error).toBeUndefined();
	if (mode === 'continueRegularOutput') {
		const [item] = result.output(NODE, 0);
		return {
			message: String(item.json.error),
			hint: String(item.json.hint ?? ''),
			code: item.json.code,
			status: item.json.status,
		};
	}
	expect(result.output(NODE, 0)).toHaveLength(0);
	const [item] = result.output(NODE, 1);
	const error = item.json.error as Record<string, unknown>;
	expect(item.json.message).toBe(error.message);
	return {
		message: String(error.message),
		hint: String(error.hint ?? ''),
		code: error.code,
		status: error.status,
	};
}

/** The next `count` requests to `path` get this answer instead of the service's. */
function answer(method: string, path: string, respond: FaultResponse, count = 1): void {
	engine.emu.setFaults({ failNext: [{ method, path, kind: 'respond', respond, count }] });
}

const speech: INodeParameters = {
	operation: 'synthesize',
	text: 'Hello there',
	voiceId: byId('Alice'),
};
const talkingVideo: INodeParameters = {
	operation: 'create',
	avatarId: byId('public_anna'),
	scriptType: 'text',
	text: 'Hello there',
	voiceId: byId('Alice'),
	waitForCompletion: false,
};
const credits: INodeParameters = { operation: 'getCredits' };
/** A read is sent this many times before giving up (the exchange's default policy). */
const ATTEMPTS = 5;

describe.each(MODES)('On Error %s', (mode) => {
	const run = (type: string, parameters: INodeParameters) =>
		engine.run(oneNode(type, parameters, ON_ERROR[mode]));

	test('Text to Speech 402: the service message and its top-up hint, not the raw envelope', async () => {
		engine.emu.addAccount(engine.emu.apiKey, 0);
		const error = shown(await run('textToSpeech', speech), mode);
		expect(error.message).toBe('Insufficient credits: this operation costs 2, the balance is 0');
		expect(error.hint).toBe(`Top up credits at ${TOP_UP_URL}`);
		expect(error.status).toBe(402);
		expect(engine.emu.ledger()).toEqual([]);
	});

	test('Text to Speech 403 moderation: the message, the code 37100 and the moderation hint', async () => {
		answer('POST', '/api/v1/tts', {
			status: 403,
			body: {
				error: { code: 37100, message: 'The text was refused by content moderation', hint: null },
			},
		});
		const error = shown(await run('textToSpeech', speech), mode);
		expect(error.message).toBe('The text was refused by content moderation');
		expect(error.hint).toMatch(/refused by content moderation\. Rephrase/);
		if (mode !== 'stop') expect(error.code).toBe(37100);
	});

	test('422 with details as an array of {loc, msg, type} and a null message and hint: every field, named as in the editor', async () => {
		answer('POST', '/api/v1/video', {
			status: 422,
			body: {
				error: {
					code: 422,
					message: null,
					hint: null,
					details: [
						{
							loc: ['body', 'text_script', 'voice_id'],
							msg: 'field required',
							type: 'value_error.missing',
						},
						{
							loc: ['body', 'aspect_ratio'],
							msg: "unexpected value; permitted: '9:16', '16:9', '1:1'",
							type: 'value_error.const',
						},
					],
				},
			},
		});
		const error = shown(await run('talkingVideo', talkingVideo), mode);
		expect(error.message).toMatch(/^VisionStory refused the request \(HTTP 422\)/);
		expect(error.message).toMatch(/"[^"]+" \(voiceId\): field required/);
		expect(error.message).toMatch(
			/"[^"]+" \(aspectRatio\): unexpected value; permitted: '9:16', '16:9', '1:1'/,
		);
		expect(error.hint).toBe('Fix the fields listed above and run again.');
		expect(error.status).toBe(422);
	});

	test('a proxy answers 502 with an HTML page: said plainly, with the page title, after the retries', async () => {
		const page =
			'<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>';
		answer(
			'GET',
			'/api/v1/billing/credits',
			{ status: 502, headers: { 'Content-Type': 'text/html' }, body: page },
			ATTEMPTS,
		);
		const error = shown(await run('account', credits), mode);
		expect(error.message).toBe(
			'VisionStory or a proxy in front of it answered HTTP 502 with an HTML page instead of an API answer ("502 Bad Gateway")',
		);
		expect(error.message).not.toMatch(/<|color:red/);
		expect(error.hint).toMatch(
			new RegExp(`temporary problem \\(the request was tried ${ATTEMPTS} times\\)`),
		);
		expect(error.hint).toMatch(/Try again in a few minutes/);
		expect(error.status).toBe(502);
	});

	test('an empty 503: temporarily unavailable, how often it was tried, what to do', async () => {
		answer('GET', '/api/v1/billing/credits', { status: 503 }, ATTEMPTS);
		const error = shown(await run('account', credits), mode);
		expect(error.message).toBe(
			'VisionStory is temporarily unavailable (HTTP 503, no details given)',
		);
		expect(error.hint).toBe(
			`VisionStory had a temporary problem (the request was tried ${ATTEMPTS} times). Try again in a few minutes.`,
		);
	});

	test('a redirect on an API call: the Base URL redirects, and where to', async () => {
		const target = engine.emu.baseUrl.replace(/^http:/, 'https:');
		answer('GET', '/api/v1/billing/credits', {
			status: 301,
			headers: { Location: `${target}/api/v1/billing/credits` },
		});
		const error = shown(await run('account', credits), mode);
		expect(error.message).toBe(
			`The Base URL redirects: VisionStory answered HTTP 301 pointing to ${target}`,
		);
		expect(error.hint).toMatch(/https:\/\/ instead of http:\/\//);
		expect(error.hint).toMatch(/Base URL in your VisionStory credential/);
	});
});

test('422 with details as a JSON string of an array: the service message and every field', async () => {
	const details = JSON.stringify([
		{
			loc: ['body', 'text_script', 'text'],
			msg: 'ensure this value has at most 3000 characters',
			type: 'value_error',
		},
	]);
	answer('POST', '/api/v1/video', {
		status: 422,
		body: {
			error: { code: 422, message: 'Validation failed', details, hint: 'Shorten the script' },
		},
	});
	const error = shown(await engine.run(oneNode('talkingVideo', talkingVideo)), 'stop');
	expect(error.message).toMatch(
		/^Validation failed \("[^"]+" \(text\): ensure this value has at most 3000 characters\)$/,
	);
	expect(error.hint).toBe('Shorten the script');
});

test('a 422 in FastAPI shape ({detail: [...]}, no envelope): every field', async () => {
	answer('POST', '/api/v1/video', {
		status: 422,
		body: { detail: [{ loc: ['body', 'avatar_id'], msg: 'field required', type: 'missing' }] },
	});
	const error = shown(await engine.run(oneNode('talkingVideo', talkingVideo)), 'stop');
	expect(error.message).toMatch(
		/^VisionStory refused the request \(HTTP 422\) \("[^"]+" \(avatarId\): field required\)$/,
	);
	expect(error.hint).toBe('Fix the fields listed above and run again.');
});

test('the API key never appears, even when the service echoes it', async () => {
	const key = engine.emu.apiKey;
	answer('POST', '/api/v1/tts', {
		status: 401,
		body: {
			error: {
				code: 401,
				message: `Key ${key} was revoked`,
				hint: `Create a new key; ${key} no longer works`,
				details: { api_key: key },
			},
		},
	});
	const result = await engine.run(oneNode('textToSpeech', speech, ON_ERROR.continueRegularOutput));
	expect(JSON.stringify(result.output(NODE))).not.toContain(key);
	const error = shown(result, 'continueRegularOutput');
	expect(error.message).toMatch(/^Key \S*\[redacted\] was revoked/);
	expect(error.hint).toBe('Create a new key; [redacted] no longer works');
});

test('a 200 with an HTML page (a captive portal or a proxy login) is named for what it is, with the Base URL advice', async () => {
	answer('GET', '/api/v1/billing/credits', {
		status: 200,
		headers: { 'Content-Type': 'text/html' },
		body: '<html><head><title>Sign in to Hotel Wi-Fi</title></head><body><form></form></body></html>',
	});
	const error = shown(await engine.run(oneNode('account', credits)), 'stop');
	expect(error.message).toBe(
		'VisionStory or a proxy in front of it answered HTTP 200 with an HTML page instead of an API answer ("Sign in to Hotel Wi-Fi")',
	);
	expect(error.hint).toBe(
		'Check the Base URL in your VisionStory credential: it should be https://openapi.visionstory.ai',
	);
});

test('long speech: a part refused with 402 keeps the service message and its top-up hint inside the part error', async () => {
	engine.emu.addAccount(engine.emu.apiKey, 0);
	const text = 'Hello there, this is a long script. '.repeat(150);
	const result = await engine.run(
		oneNode('textToSpeech', { ...speech, text }, ON_ERROR.continueRegularOutput),
	);
	const error = shown(result, 'continueRegularOutput');
	expect(error.message).toMatch(
		/^Part \d of 2 of the text failed and was not sent again: Insufficient credits: this operation costs \d+, the balance is 0$/,
	);
	expect(error.hint).toContain(`Top up credits at ${TOP_UP_URL}`);
	expect(error.status).toBe(402);
});
