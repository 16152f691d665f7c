import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../shared/api/client';
import { binaryFromDownload, withBinary } from '../shared/n8n/binary';
import { optional, optionsOf, outputFieldOf } from '../shared/framework/mapping';
import type { Prepared, Scope } from '../shared/framework/operation';

/** The MP3 goes to binary; duration, characters and cost (from the response headers) to JSON. */
export async function synthesizeSpeech(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const request = item.request as Checked<'synthesizeSpeech'>;
	const audio = await scope.client.sendSpeech(request, { signal: scope.signal });
	const name = optional(optionsOf(item.params).fileName) ?? `speech-${audio.metadata.audio_id ?? request.voice_id}`;
	const binary = await binaryFromDownload(scope.context, { stream: audio.stream, mimeType: audio.mimeType }, name.replace(/\.mp3$/i, ''), 'audio/mpeg');
	const json: IDataObject = {
		...audio.metadata,
		voice_id: request.voice_id,
		mime_type: audio.mimeType,
		file_name: binary.fileName,
	};
	return [withBinary({ json }, outputFieldOf(item.params), binary)];
}

