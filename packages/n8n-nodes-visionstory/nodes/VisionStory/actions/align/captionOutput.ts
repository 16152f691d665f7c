import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { VisionStoryError } from '../../../shared/api/errors';
import { invalidInput } from '../../../shared/api/errors';
import { withBinary } from '../../../shared/n8n/binary';
import type { Prepared, OperationContext } from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';
import type { CaptionOptions, WordTiming } from './captions';
import { buildCaptions, CAPTION_DEFAULTS, CaptionError, captionOptions } from './captions';

/** The caption format an item asks for; an absent parameter means none. */
function formatOf(ctx: OperationContext, index: number): string {
	return param.string(ctx.n8n, 'captions', index) || 'none';
}

/** The parameter names of the limits, in the terms of the caption builder. */
function limitsOf(options: IDataObject): CaptionOptions {
	const limits: CaptionOptions = {};
	for (const key of Object.keys(CAPTION_DEFAULTS) as Array<keyof CaptionOptions>) {
		if (options[key] !== undefined && options[key] !== null && options[key] !== '')
			(limits as IDataObject)[key] = options[key];
	}
	return limits;
}

function limitsProblem(options: IDataObject): CaptionError | undefined {
	try {
		captionOptions(limitsOf(options));
		return undefined;
	} catch (error) {
		// The builder reports bad limits as CaptionError; anything else is a bug and surfaces as one.
		return error instanceof CaptionError ? error : new CaptionError('words', String(error));
	}
}

/** Caption limits are checked with everything else, before anything is sent. */
export async function checkCaptionOptions(
	ctx: OperationContext,
	items: Array<Prepared<unknown>>,
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	for (const item of items) {
		if (formatOf(ctx, item.index) === 'none') continue;
		const problem = limitsProblem(param.collection(ctx.n8n, 'captionOptions', item.index));
		if (problem)
			rejected.set(
				item.index,
				invalidInput('captions', [
					{ field: problem.option, message: problem.message.replace(`${problem.option} `, '') },
				]),
			);
	}
	return rejected;
}

/** The item with the captions the user asked for: text in `captions`, files in their binary fields. */
export async function withCaptions(
	ctx: OperationContext,
	index: number,
	output: INodeExecutionData,
	words: WordTiming[],
): Promise<INodeExecutionData> {
	const format = formatOf(ctx, index);
	if (format === 'none') return output;
	const options = param.collection(ctx.n8n, 'captionOptions', index);
	const built = buildCaptions(words, limitsOf(options));
	const base = String(options.fileName || 'captions').replace(/\.(srt|vtt)$/i, '');
	const text: IDataObject = { cues: built.cues.length };
	let result: INodeExecutionData = output;
	if (format === 'srt' || format === 'both') {
		text.srt = built.srt;
		const file = await ctx.n8n.helpers.prepareBinaryData(
			Buffer.from(built.srt, 'utf8'),
			`${base}.srt`,
			'application/x-subrip',
		);
		result = withBinary(result, String(options.srtBinaryProperty || 'srt'), file);
	}
	if (format === 'vtt' || format === 'both') {
		text.vtt = built.vtt;
		const file = await ctx.n8n.helpers.prepareBinaryData(
			Buffer.from(built.vtt, 'utf8'),
			`${base}.vtt`,
			'text/vtt',
		);
		result = withBinary(result, String(options.vttBinaryProperty || 'vtt'), file);
	}
	return { ...result, json: { ...result.json, captions: text } };
}
