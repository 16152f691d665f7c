import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CaptionFormat } from '../../../shared/api/captions/captionFiles';
import { captionFiles, captionLimitsIssue } from '../../../shared/api/captions/captionFiles';
import type { VisionStoryError } from '../../../shared/api/errors';
import { invalidInput } from '../../../shared/api/errors';
import { withBinary } from '../../../shared/n8n/binary';
import type { Prepared, OperationContext } from '../../../shared/framework/action';
import { param } from '../../../shared/framework/params';

/** The caption format an item asks for; an absent parameter means none (its options are declared). */
function formatOf(ctx: OperationContext, index: number): CaptionFormat {
	return (param.string(ctx.n8n, 'captions', index) || 'none') as CaptionFormat;
}

/** Caption limits are checked with everything else, before anything is sent. */
export async function checkCaptionOptions(
	ctx: OperationContext,
	items: Array<Prepared<unknown>>,
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	for (const item of items) {
		if (formatOf(ctx, item.index) === 'none') continue;
		const issue = captionLimitsIssue(param.collection(ctx.n8n, 'captionOptions', item.index));
		if (issue) rejected.set(item.index, invalidInput('captions', [issue]));
	}
	return rejected;
}

/**
 * The item with the captions the user asked for: text in `captions`, files in their binary fields. The
 * answer was paid for: what stood in the captions' way (words without times, none at all) is said in
 * `captionWarning`, and the item goes on.
 */
export async function withCaptions(
	ctx: OperationContext,
	index: number,
	output: INodeExecutionData,
	words: unknown,
): Promise<INodeExecutionData> {
	const format = formatOf(ctx, index);
	if (format === 'none') return output;
	const options = param.collection(ctx.n8n, 'captionOptions', index);
	const built = captionFiles(words, format, options, String(options.fileName || ''));
	const text: IDataObject = { cues: built.cues };
	let result: INodeExecutionData = output;
	for (const file of built.files) {
		text[file.format] = file.text;
		const binary = await ctx.n8n.helpers.prepareBinaryData(
			Buffer.from(file.text, 'utf8'),
			file.fileName,
			file.mimeType,
		);
		const field = options[`${file.format}BinaryProperty`] || file.format;
		result = withBinary(result, String(field), binary);
	}
	const warning = built.warning ? { captionWarning: built.warning } : {};
	return { ...result, json: { ...result.json, captions: text, ...warning } };
}
