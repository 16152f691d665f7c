import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../shared/api/client';
import { withBinary } from '../shared/n8n/binary';
import { optional, optionsOf, outputFieldOf } from '../shared/framework/mapping';
import type { Prepared, Scope } from '../shared/framework/operation';

/** Transcription; with SRT on, the subtitles also come as a .srt file. */
export async function transcribeAudio(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.send('transcribeAudio', item.request as Checked<'transcribeAudio'>, {
		signal: scope.signal,
		media: scope.media(item),
	});
	const output: INodeExecutionData = { json: result as IDataObject };
	if (!result.srt) return [output];
	const fileName = optional(optionsOf(item.params).fileName) ?? 'transcript.srt';
	const binary = await scope.context.helpers.prepareBinaryData(
		Buffer.from(result.srt, 'utf8'),
		fileName.endsWith('.srt') ? fileName : `${fileName}.srt`,
		'application/x-subrip',
	);
	return [withBinary(output, outputFieldOf(item.params), binary)];
}

