import fc from 'fast-check';

import type {
	ErrorAnswer,
	ErrorReadOptions,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errorBody';
import { readErrorAnswer } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errorBody';
import { redactText } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';

/**
 * The one error parser: examples of each shape a real service or what stands in front of it sends,
 * then properties over arbitrary bodies. Whatever arrives, it never throws and always says
 * something; what the contract states (error.code integer, error.message string, error.hint string
 * or null, error.details string or null) is read exactly whenever it is present with those types.
 */

const KEY = 'sk-vs-unit-test-key-123456';
const read = (
	status: number,
	body: unknown,
	options: ErrorReadOptions = {},
	headers: ErrorAnswer['headers'] = {},
) => readErrorAnswer({ status, headers, body }, { secrets: [KEY], ...options });

describe('shapes of details', () => {
	test.each([
		[
			'an object of field → message',
			{ 'text_script.text': 'must not be empty', aspect_ratio: 'must be one of 9:16, 16:9, 1:1' },
		],
		[
			'a JSON string of that object',
			JSON.stringify({
				'text_script.text': 'must not be empty',
				aspect_ratio: 'must be one of 9:16, 16:9, 1:1',
			}),
		],
		[
			'an array of {loc, msg, type}',
			[
				{ loc: ['body', 'text_script', 'text'], msg: 'must not be empty', type: 'value_error' },
				{
					loc: ['body', 'aspect_ratio'],
					msg: 'must be one of 9:16, 16:9, 1:1',
					type: 'literal_error',
					input: '4:3',
					ctx: { expected: '…' },
				},
			],
		],
		[
			'a JSON string of that array',
			JSON.stringify([
				{ loc: ['body', 'text_script', 'text'], msg: 'must not be empty' },
				{ loc: 'aspect_ratio', msg: 'must be one of 9:16, 16:9, 1:1' },
			]),
		],
		[
			'an array of {field, message}',
			[
				{ field: 'text_script.text', message: 'must not be empty' },
				{ field: 'aspect_ratio', message: 'must be one of 9:16, 16:9, 1:1' },
			],
		],
		[
			'an object of field → list of messages',
			{
				'text_script.text': ['must not be empty'],
				aspect_ratio: ['must be one of 9:16, 16:9, 1:1'],
			},
		],
	])('%s: one line per field', (_, details) => {
		const error = read(422, {
			error: { code: 422, message: 'Validation failed', details, hint: null },
		});
		expect(error).toMatchObject({
			message: 'Validation failed',
			code: 422,
			hint: 'Fix the fields listed above and run again.',
		});
		expect(error.issues).toEqual([
			{ field: 'text_script.text', message: 'must not be empty' },
			{ field: 'aspect_ratio', message: 'must be one of 9:16, 16:9, 1:1' },
		]);
	});

	test('a plain string and null: a line without a field, and nothing', () => {
		expect(
			read(400, {
				error: {
					code: 400,
					message: 'Bad request',
					details: 'resolution 4k is not offered by this model',
				},
			}).issues,
		).toEqual([{ field: '', message: 'resolution 4k is not offered by this model' }]);
		expect(
			read(400, { error: { code: 400, message: 'Bad request', details: null } }).issues,
		).toEqual([]);
		// A details that repeats the message adds nothing.
		expect(
			read(400, { error: { code: 400, message: 'Bad request', details: 'Bad request' } }).issues,
		).toEqual([]);
	});

	test('nested objects name the path; long lists are cut with a count', () => {
		expect(
			read(422, {
				error: { message: 'x', details: { text_script: { voice_id: 'unknown voice' } } },
			}).issues,
		).toEqual([{ field: 'text_script.voice_id', message: 'unknown voice' }]);
		const many = Array.from({ length: 30 }, (_, i) => ({
			loc: ['body', 'inputs', i],
			msg: 'unreadable',
		}));
		const issues = read(422, { error: { message: 'x', details: many } }).issues;
		expect(issues).toHaveLength(20);
		expect(issues[19]).toEqual({ field: '', message: 'and 11 more' });
	});

	test('a concurrency 429: the cap and the slots in use, not field lines', () => {
		for (const details of [{ limit: 2, in_flight: 2 }, '{"limit":"2","in_flight":2}']) {
			const error = read(429, {
				error: { code: 429, message: 'Too many AI video tasks in flight', details },
			});
			expect(error.concurrency).toEqual({ limit: 2, inFlight: 2 });
			expect(error.issues).toEqual([]);
		}
	});
});

describe('answers that are not the envelope', () => {
	test('null message and hint keep the code and details; the status says what happened', () => {
		const error = read(422, {
			error: {
				code: 42201,
				message: null,
				hint: null,
				details: [{ loc: ['body', 'prompt'], msg: 'too long' }],
			},
		});
		expect(error).toMatchObject({
			message: 'VisionStory refused the request (HTTP 422)',
			code: 42201,
			issues: [{ field: 'prompt', message: 'too long' }],
		});
		expect(error.hint).toBe('Fix the fields listed above and run again.');
	});

	test('FastAPI shapes and bare {message} / {error: text}', () => {
		expect(read(404, { detail: 'Not Found' })).toMatchObject({ message: 'Not Found', code: 404 });
		expect(
			read(422, {
				detail: [{ loc: ['query', 'video_id'], msg: 'field required', type: 'missing' }],
			}).issues,
		).toEqual([{ field: 'video_id', message: 'field required' }]);
		expect(read(400, { message: 'bad thing', hint: 'do this' })).toMatchObject({
			message: 'bad thing',
			hint: 'do this',
		});
		expect(read(401, { error: 'Unauthorized' })).toMatchObject({
			message: 'Unauthorized',
			code: 401,
		});
	});

	test('the envelope as text or bytes (audio and file endpoints read their error body raw)', () => {
		const envelope = {
			error: {
				code: 402,
				message: 'Insufficient credits',
				hint: 'Top up at https://example.test/pricing',
			},
		};
		for (const body of [
			JSON.stringify(envelope),
			Buffer.from(JSON.stringify(envelope)),
			new Uint8Array(Buffer.from(`\uFEFF ${JSON.stringify(envelope)}\n`)),
		]) {
			expect(read(402, body)).toMatchObject({
				message: 'Insufficient credits',
				hint: 'Top up at https://example.test/pricing',
				code: 402,
			});
		}
	});

	test('an HTML page: who answered, the status, the cleaned title, never the markup', () => {
		const page =
			'<html><head><script>var a = "<b>";</script><title>\n  Service &amp; Gateway\n  Error </title></head><body><h1>Oops</h1></body></html>';
		const error = read(502, page, { attempts: 3 }, { 'content-type': 'text/html; charset=utf-8' });
		expect(error.message).toBe(
			'VisionStory or a proxy in front of it answered HTTP 502 with an HTML page instead of an API answer ("Service & Gateway Error")',
		);
		expect(error.hint).toBe(
			'VisionStory had a temporary problem (the request was tried 3 times). Try again in a few minutes.',
		);
		expect(read(502, JSON.stringify(page)).message).toMatch(
			/HTML page instead of an API answer \("Service & Gateway Error"\)$/,
		);
		const noTitle = read(404, '<body><p>Page   not found</p></body>');
		expect(noTitle.message).toBe(
			'VisionStory or a proxy in front of it answered HTTP 404 with an HTML page instead of an API answer ("Page not found")',
		);
		expect(noTitle.hint).toMatch(/Check the Base URL in your VisionStory credential/);
		expect(read(403, '<html><body>Access denied</body></html>', { source: 'file' }).message).toBe(
			'The file host answered HTTP 403 with an HTML page instead of the file ("Access denied")',
		);
	});

	test('empty, plain text and binary bodies', () => {
		expect(read(503, '', { attempts: 5 })).toMatchObject({
			message: 'VisionStory is temporarily unavailable (HTTP 503, no details given)',
			hint: 'VisionStory had a temporary problem (the request was tried 5 times). Try again in a few minutes.',
			code: 503,
		});
		expect(read(500, undefined, { replayable: false }).hint).toMatch(
			/not sent again because VisionStory may have processed and charged it/,
		);
		expect(read(429, null).message).toBe(
			'VisionStory is limiting requests (HTTP 429, no details given)',
		);
		expect(read(500, 'upstream   connect error\nor disconnect')).toMatchObject({
			message: 'VisionStory answered HTTP 500: upstream connect error or disconnect',
		});
		expect(read(500, Buffer.from([0, 159, 146, 150, 1, 2, 3]))).toMatchObject({
			message: 'VisionStory answered HTTP 500 with 7 bytes that are not text',
		});
	});

	test('a redirect names the Base URL and where it points, with the https advice when that is the change', () => {
		const error = read(
			301,
			'',
			{ baseUrl: 'http://openapi.visionstory.ai' },
			{ location: 'https://openapi.visionstory.ai/api/v1/video?x=1' },
		);
		expect(error.message).toBe(
			'The Base URL redirects: VisionStory answered HTTP 301 pointing to https://openapi.visionstory.ai',
		);
		expect(error.hint).toBe(
			'API calls do not follow redirects, so the API key is never sent to another address. Set the Base URL in your VisionStory credential to https://openapi.visionstory.ai (https:// instead of http://).',
		);
		expect(read(308, '', { baseUrl: 'https://proxy.example' }).message).toBe(
			'The Base URL redirects: VisionStory answered HTTP 308 without saying where to',
		);
	});

	test('the moderation code keeps its hint; business codes are kept as given', () => {
		expect(read(403, { error: { code: 37100, message: 'Refused', hint: null } })).toMatchObject({
			code: 37100,
			hint: expect.stringMatching(/content moderation/),
		});
		expect(read(403, { error: { code: '37100', message: 'Refused' } }).code).toBe(37100);
		expect(read(400, { error: { code: 'E_MODEL', message: 'x' } }).code).toBe('E_MODEL');
	});

	test('a service message or hint longer than 2,000 characters is cut, marked with an ellipsis', () => {
		const error = read(400, {
			error: { message: 'word '.repeat(1000), hint: 'next '.repeat(1000) },
		});
		expect([error.message.length, error.message.endsWith('…'), error.hint?.length]).toEqual([
			2000,
			true,
			2000,
		]);
	});

	test('the API key is removed from every part', () => {
		const error = read(401, {
			error: {
				code: KEY,
				message: `bad key ${KEY}`,
				hint: `replace ${KEY}`,
				details: { api_key: KEY, [KEY]: `x ${KEY}` },
			},
		});
		expect(JSON.stringify(error)).not.toContain(KEY);
	});
});

// ---------------------------------------------------------------------------------------------
// Properties

const STATUS = fc.integer({ min: 300, max: 599 });
const HEADERS = fc.record(
	{
		'content-type': fc.constantFrom(
			'application/json',
			'text/html',
			'text/plain',
			'application/octet-stream',
			'',
		),
		location: fc.oneof(fc.webUrl(), fc.string(), fc.constant('/api/v1/video')),
		'retry-after': fc.string(),
	},
	{ requiredKeys: [] },
);
const OPTIONS: fc.Arbitrary<ErrorReadOptions> = fc.record(
	{
		source: fc.constantFrom('api' as const, 'file' as const),
		attempts: fc.integer({ min: 1, max: 10 }),
		replayable: fc.boolean(),
		download: fc.boolean(),
		baseUrl: fc.constantFrom(
			'https://openapi.visionstory.ai',
			'http://127.0.0.1:8080',
			'not a url',
		),
	},
	{ requiredKeys: [] },
);
const HTML = fc
	.tuple(fc.string(), fc.string(), fc.string())
	.map(
		([title, heading, text]) =>
			`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${heading}</h1>${text}</body></html>`,
	);
/** A plausible value of any type for one field of the envelope. */
const ANY_FIELD = fc.oneof(
	fc.jsonValue(),
	fc.string(),
	fc.constant(null),
	fc.constant(undefined),
	HTML,
);
const LOOSE_ENVELOPE = fc.record(
	{
		code: ANY_FIELD,
		message: ANY_FIELD,
		hint: ANY_FIELD,
		details: ANY_FIELD,
		detail: ANY_FIELD,
		errors: ANY_FIELD,
		extra: ANY_FIELD,
	},
	{ requiredKeys: [] },
);
/** Every kind of body: random JSON, envelopes with fields of any type, text, HTML, empty, bytes. */
const BODY = fc.oneof(
	fc.jsonValue(),
	fc.record({ error: fc.oneof(LOOSE_ENVELOPE, ANY_FIELD) }, { requiredKeys: [] }),
	LOOSE_ENVELOPE,
	fc.string(),
	fc.string({ unit: 'binary' }),
	HTML,
	fc.constantFrom('', '   ', '\n', undefined, null),
	fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
	fc.jsonValue().map((value) => JSON.stringify(value) ?? ''),
	fc.record({ error: LOOSE_ENVELOPE }).map((value) => Buffer.from(JSON.stringify(value))),
);

const nonBlank = fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0);
/** API field names and what a service says about them (read as written: one line, no JSON-looking text). */
const field = fc.stringMatching(/^f_[a-z0-9_]{0,12}$/);
const sentence = fc.stringMatching(/^[A-Za-z]{1,12}( [A-Za-z0-9,.'-]{1,12}){0,8}$/);

describe('properties', () => {
	test('any body, status, headers and options: never throws, always a non-empty message, a usable result', () => {
		fc.assert(
			fc.property(STATUS, BODY, HEADERS, OPTIONS, (status, body, headers, options) => {
				const error = readErrorAnswer({ status, headers, body }, options);
				expect(typeof error.message).toBe('string');
				expect(error.message.trim().length).toBeGreaterThan(0);
				expect(error.hint === undefined || error.hint.trim().length > 0).toBe(true);
				expect(
					typeof error.code === 'number' ||
						(typeof error.code === 'string' && error.code.length > 0),
				).toBe(true);
				for (const issue of error.issues) {
					expect(typeof issue.field).toBe('string');
					expect(issue.message.trim().length).toBeGreaterThan(0);
				}
				expect(error.issues.length).toBeLessThanOrEqual(20);
			}),
			{ numRuns: 2000 },
		);
	});

	test('what the contract states is read exactly, beside any extra fields', () => {
		fc.assert(
			fc.property(
				STATUS,
				fc.integer(),
				nonBlank,
				fc.option(nonBlank, { nil: null }),
				fc.dictionary(field, sentence, { maxKeys: 5 }),
				fc.dictionary(
					fc.string().filter((k) => !['code', 'message', 'hint', 'details'].includes(k)),
					fc.jsonValue(),
					{ maxKeys: 4 },
				),
				fc.boolean(),
				(status, code, message, hint, fieldErrors, extra, asString) => {
					const details = Object.keys(fieldErrors).length
						? asString
							? JSON.stringify(fieldErrors)
							: fieldErrors
						: null;
					const body = {
						error: { ...extra, code, message, details, hint },
						...extra,
						request_id: 'r1',
					};
					const error = readErrorAnswer({ status, body }, { secrets: [KEY] });
					expect(error.code).toBe(code);
					expect(error.message).toBe(redactText(message.trim(), [KEY]));
					if (hint !== null) expect(error.hint).toBe(redactText(hint.trim(), [KEY]));
					if (status !== 429)
						for (const [name, text] of Object.entries(fieldErrors))
							expect(error.issues).toContainEqual({ field: name, message: text });
				},
			),
			{ numRuns: 1000 },
		);
	});

	test('an array of {loc, msg, type} (or its JSON string) gives each field and message, in order', () => {
		const entry = fc.record({
			loc: fc
				.array(fc.oneof(field, fc.nat({ max: 20 })), { minLength: 1, maxLength: 4 })
				.map((path) => ['body', ...path]),
			msg: sentence,
			type: fc.string(),
		});
		fc.assert(
			fc.property(
				fc.array(entry, { minLength: 1, maxLength: 19 }),
				fc.boolean(),
				(entries, asString) => {
					const error = readErrorAnswer({
						status: 422,
						body: {
							error: {
								code: 422,
								message: null,
								details: asString ? JSON.stringify(entries) : entries,
								hint: null,
							},
						},
					});
					expect(error.issues).toEqual(
						entries.map((e) => ({ field: e.loc.slice(1).join('.'), message: e.msg })),
					);
					expect(error.message).toBe('VisionStory refused the request (HTTP 422)');
				},
			),
		);
	});

	test('an HTML page never becomes the message: no markup, the status named', () => {
		fc.assert(
			fc.property(fc.integer({ min: 400, max: 599 }), HTML, OPTIONS, (status, page, options) => {
				const error = readErrorAnswer(
					{ status, body: page, headers: { 'content-type': 'text/html' } },
					options,
				);
				expect(error.message).not.toMatch(/<[a-z!/]/i);
				expect(error.message).toContain(`HTTP ${status} with an HTML page`);
				expect(error.message.length).toBeLessThan(250);
			}),
		);
	});

	test('the API key never comes out, wherever it sits in the body', () => {
		const withKey = fc.oneof(
			fc.constant(KEY),
			fc.string().map((s) => `${s}${KEY}${s}`),
		);
		const body = fc.oneof(
			fc.record({
				error: fc.record({
					code: fc.oneof(fc.integer(), withKey),
					message: withKey,
					hint: withKey,
					details: fc.oneof(
						withKey,
						fc.dictionary(withKey, withKey),
						fc.array(fc.record({ loc: fc.array(withKey), msg: withKey })),
					),
				}),
			}),
			withKey,
			withKey.map((s) => `<html><title>${s}</title></html>`),
			withKey.map((s) => Buffer.from(JSON.stringify({ error: { message: s, hint: s } }))),
		);
		fc.assert(
			fc.property(STATUS, body, HEADERS, OPTIONS, (status, answer, headers, options) => {
				const error = readErrorAnswer(
					{ status, headers, body: answer },
					{ ...options, secrets: [KEY] },
				);
				expect(JSON.stringify(error)).not.toContain(KEY);
			}),
		);
	});
});
