import { z } from 'zod/v3';

import { dto, mediaRef } from './common';
import { nested, num } from './lenient';

export const UNDERSTAND_INPUTS_MAX = 8;

/** A JSON Schema whose top level is an object, as the service requires. */
export const OutputSchema = z
	.record(z.unknown())
	.refine(
		(schema) => schema.type === 'object',
		'must be a JSON Schema whose top level has "type": "object"',
	);

export const UnderstandMediaRequest = z
	.object({
		inputs: z
			.array(mediaRef())
			.min(1, 'needs at least 1 media input')
			.max(UNDERSTAND_INPUTS_MAX, `takes at most ${UNDERSTAND_INPUTS_MAX} media inputs`),
		prompt: z.string().trim().min(1, 'must not be empty'),
		schema: OutputSchema,
	})
	.strict();
export type UnderstandMediaRequest = z.input<typeof UnderstandMediaRequest>;

export const UnderstandResultDto = dto({
	output: z.record(z.unknown()),
	usage: nested(dto({ input_tokens: num(), output_tokens: num() })),
	cost_credit: num(),
});
export type UnderstandResultDto = z.infer<typeof UnderstandResultDto>;
