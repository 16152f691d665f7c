import fc from 'fast-check';
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { readErrorAnswer } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errorBody';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import {
	errorItem,
	toNodeError,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/n8n/nodeErrors';

/**
 * From any error answer to what n8n shows: the NodeApiError's message is the parser's message (with
 * the field lines), its description the parser's hint, whatever the status; the error item says the same.
 */

const node: INode = {
	id: 'n1',
	name: 'VisionStory',
	type: 'n8n-nodes-visionstory.visionStory',
	typeVersion: 1,
	position: [0, 0],
	parameters: { resource: 'textToSpeech' },
};
const label = (field: string) => (field === 'voice_id' ? '"Voice" (voiceId)' : undefined);

const body = fc.oneof(
	fc.jsonValue(),
	fc.string(),
	fc.record({
		error: fc.record(
			{
				code: fc.oneof(fc.integer(), fc.string()),
				message: fc.oneof(fc.string(), fc.constant(null)),
				hint: fc.oneof(fc.string(), fc.constant(null)),
				details: fc.jsonValue(),
			},
			{ requiredKeys: [] },
		),
	}),
	fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

test('n8n shows the parser message and hint for any answer, status and body', () => {
	fc.assert(
		fc.property(fc.integer({ min: 300, max: 599 }), body, (status, answer) => {
			const read = readErrorAnswer({ status, body: answer });
			const error = new VisionStoryError({
				category: 'api',
				status,
				...read,
				issues: read.issues.length ? read.issues : undefined,
			});
			const shown = toNodeError(node, error, 0, label) as NodeApiError;
			expect(shown).toBeInstanceOf(NodeApiError);
			expect(shown.message.startsWith(read.message)).toBe(true);
			if (read.hint && read.hint !== shown.message) expect(shown.description).toBe(read.hint);
			const item = errorItem(error, 0, label).json;
			expect(item.error).toBe(shown.message);
			expect(item.hint).toBe(read.hint);
		}),
		{ numRuns: 500 },
	);
});

test('field lines use the editor label where there is one, the API name otherwise', () => {
	const read = readErrorAnswer({
		status: 422,
		body: {
			error: {
				code: 422,
				message: 'Invalid',
				details: [
					{ loc: ['body', 'voice_id'], msg: 'unknown' },
					{ loc: ['body', 'x_y'], msg: 'bad' },
					'plain line',
				],
			},
		},
	});
	const error = new VisionStoryError({ category: 'api', status: 422, ...read });
	expect(toNodeError(node, error, 0, label).message).toBe(
		'Invalid ("Voice" (voiceId): unknown; x_y: bad; plain line)',
	);
});
