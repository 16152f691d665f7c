import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../shared/api/client';
import { withBinary } from '../shared/n8n/binary';
import { optional, optionsOf, outputFieldOf } from '../shared/framework/mapping';
import type { Prepared, Scope } from '../shared/framework/operation';
import { withCaptions } from './captionOutput';

/** Word timings for a known text, with captions built from them when asked. */
export async function alignAudio(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.send('alignAudio', item.request as Checked<'alignAudio'>, { signal: scope.signal, media: scope.media(item) });
	return [await withCaptions(scope, item, { json: result as IDataObject }, result.words)];
}

/** Transcription; VisionStory's own SRT also comes as a .srt file, and captions built from the word timings when asked. */
export async function transcribeAudio(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.send('transcribeAudio', item.request as Checked<'transcribeAudio'>, {
		signal: scope.signal,
		media: scope.media(item),
	});
	let output: INodeExecutionData = { json: result as IDataObject };
	if (result.srt) {
		const fileName = optional(optionsOf(item.params).fileName) ?? 'transcript.srt';
		const binary = await scope.context.helpers.prepareBinaryData(
			Buffer.from(result.srt, 'utf8'),
			fileName.endsWith('.srt') ? fileName : `${fileName}.srt`,
			'application/x-subrip',
		);
		output = withBinary(output, outputFieldOf(item.params), binary);
	}
	return [await withCaptions(scope, item, output, result.words ?? [])];
}
