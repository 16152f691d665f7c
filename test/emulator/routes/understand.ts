import { ApiError, upstreamFailure } from '../errors';
import { newId } from '../ids';
import { mediaRef, MIME, type MediaPolicy } from '../mediaRef';
import { understandPrice } from '../pricing';
import { jsonBody, ok, type Route, type RouteContext } from '../router';
import { sampleFromSchema } from '../schemaSample';
import { Validator } from '../validation';
import { hasMarker } from './common';

const INPUT_POLICY: MediaPolicy = { mimes: MIME.general, kinds: ['image', 'audio', 'video'] };
const MAX_INPUTS = 8;

async function understand(ctx: RouteContext) {
	const body = jsonBody(ctx);
	const v = new Validator();
	const inputs = v.array(body, 'inputs', 'inputs', { required: true, min: 1, max: MAX_INPUTS });
	if (inputs)
		for (const [i, input] of inputs.entries())
			await mediaRef(v, input, `inputs[${i}]`, INPUT_POLICY, ctx.account);
	const prompt = v.string(body, 'prompt', 'prompt', { required: true });
	const schema = v.object(body, 'schema', 'schema', true);
	if (schema && schema.type !== 'object')
		v.fail('schema', 'top level must be an object schema ("type": "object")');
	v.throwIfAny();
	if (hasMarker(prompt, 'moderate')) {
		throw new ApiError(403, 37100, 'The request was refused by content moderation', {
			hint: 'Change the prompt or the inputs',
		});
	}
	if (hasMarker(prompt, 'fail')) throw upstreamFailure('Media understanding');
	const output = sampleFromSchema(schema);
	const count = (inputs as unknown[]).length;
	const price = understandPrice(count);
	ctx.state.ledger.charge(ctx.account, ctx.now, 'understand', price, newId('mu'));
	return ok({
		output,
		usage: {
			input_tokens: 258 * count + Math.ceil((prompt as string).length / 4),
			output_tokens: Math.ceil(JSON.stringify(output).length / 4) + 64,
		},
		cost_credit: price,
	});
}

export const understandRoutes: Route[] = [
	{ method: 'POST', path: '/api/v1/media/understand', handler: understand },
];
