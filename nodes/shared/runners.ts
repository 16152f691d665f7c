import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AvatarDto, AvatarFraming, ResponseOf, VoiceDto } from './contract';
import { VisionStoryError } from './errors';
import { binaryFromDownload, withBinary } from './media';
import type { SchemaField } from './outputSchema';
import { parseJsonSchema, schemaFromFields } from './outputSchema';
import type { Params, Prepared, Scope } from './operations';
import { optional, optionsOf } from './mapping';
import { toItems } from './operationKinds';
import { invalid } from './operations';
import { attachVideo, withDownload } from './videoTask';
import type { TaskKind, VideoTask } from './wait';

function outputProperty(params: Params): string {
	return String(params.outputBinaryProperty || optionsOf(params).outputBinaryProperty || 'data');
}

/** Get one video task; with Download Result, a finished video comes along as binary. */
export function getVideo(kind: TaskKind) {
	return async (scope: Scope, item: Prepared): Promise<INodeExecutionData[]> => {
		const videoId = String(item.request?.video_id ?? '');
		const task: VideoTask =
			kind === 'aiVideo'
				? await scope.client.getAiVideo({ video_id: videoId }, { signal: scope.signal })
				: await scope.client.getTalkingVideo({ video_id: videoId }, { signal: scope.signal });
		if (item.params.downloadResult === true && task.status === 'created') {
			return [await attachVideo(scope, task, outputProperty(item.params))];
		}
		return [{ json: task as IDataObject }];
	};
}

/** Many AI videos by id: 20 per status call. */
export async function getAiVideos(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const ids = (item.request?.video_ids as string[] | undefined) ?? [];
	const videos = await scope.client.getAiVideos({ video_ids: ids }, { signal: scope.signal });
	const missing = ids.filter((id) => !videos.some((v) => v.video_id === id));
	if (missing.length === ids.length) {
		throw new VisionStoryError({
			kind: 'api',
			status: 404,
			message: `None of the AI videos ${ids.join(', ')} was found`,
			hint: 'Check the ids: tasks of other accounts and deleted tasks are not returned.',
			videoIds: ids,
		});
	}
	return toItems(videos as IDataObject[]);
}

/** The image as binary (PNG) beside its URL and cost. */
export async function generateImage(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.call('generateImage', item.request as never, { signal: scope.signal, media: scope.media(item) });
	return [await withDownload(scope, { json: result as IDataObject }, result.url, outputProperty(item.params), 'image', 'image/png')];
}

/** The MP3 goes to binary; duration, characters and cost (from the response headers) to JSON. */
export async function synthesizeSpeech(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const request = item.request as { text: string; voice_id: string };
	const audio = await scope.client.synthesizeSpeech(request, { signal: scope.signal });
	const name = optional(optionsOf(item.params).fileName) ?? `speech-${audio.metadata.audio_id ?? request.voice_id}`;
	const binary = await binaryFromDownload(scope.context, { stream: audio.stream, mimeType: audio.mimeType }, name.replace(/\.mp3$/i, ''), 'audio/mpeg');
	const json: IDataObject = {
		...audio.metadata,
		voice_id: request.voice_id,
		mime_type: audio.mimeType,
		file_name: binary.fileName,
	};
	return [withBinary({ json }, outputProperty(item.params), binary)];
}

/** Transcription; with SRT on, the subtitles also come as a .srt file. */
export async function transcribeAudio(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = (await scope.client.call('transcribeAudio', item.request as never, {
		signal: scope.signal,
		media: scope.media(item),
	})) as ResponseOf<'transcribeAudio'>;
	const output: INodeExecutionData = { json: result as IDataObject };
	if (!result.srt) return [output];
	const fileName = optional(optionsOf(item.params).fileName) ?? 'transcript.srt';
	const binary = await scope.context.helpers.prepareBinaryData(
		Buffer.from(result.srt, 'utf8'),
		fileName.endsWith('.srt') ? fileName : `${fileName}.srt`,
		'application/x-subrip',
	);
	return [withBinary(output, outputProperty(item.params), binary)];
}

/** Own avatars are the only ones listed with their framing. */
async function findOwnAvatar(scope: Scope, avatarId: string): Promise<AvatarDto | undefined> {
	let cursor: number | undefined;
	do {
		const page = await scope.client.listAvatars({ is_public: false, cursor, limit: 100 }, { signal: scope.signal });
		const found = page.avatars.find((a) => a.avatar_id === avatarId);
		if (found) return found;
		cursor = page.next_cursor || undefined;
	} while (cursor !== undefined);
	return undefined;
}

/**
 * Update Framing: values the user left out keep their current value, read first, because the service
 * needs all three and a null sent back would be rejected.
 */
export async function updateFraming(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const changes = item.request as { avatar_id: string; aspect_ratio: string; zoom?: number; offset_x?: number; offset_y?: number };
	const avatar = await findOwnAvatar(scope, changes.avatar_id);
	if (!avatar) {
		throw new VisionStoryError({
			kind: 'api',
			status: 404,
			message: `Avatar ${changes.avatar_id} is not one of your own avatars`,
			hint: 'Only avatars you created can be reframed; public library avatars cannot.',
		});
	}
	const current: AvatarFraming | undefined = avatar.framing?.find((f) => f.aspect_ratio === changes.aspect_ratio);
	const request = {
		...changes,
		zoom: changes.zoom ?? current?.zoom ?? undefined,
		offset_x: changes.offset_x ?? current?.offset_x ?? undefined,
		offset_y: changes.offset_y ?? current?.offset_y ?? undefined,
	};
	const missing = (['zoom', 'offset_x', 'offset_y'] as const).filter((k) => request[k] === undefined);
	if (missing.length) {
		throw invalid('updateFraming', [
			{
				field: 'framing',
				message: `this avatar has no saved ${changes.aspect_ratio} framing (it predates framing), so set all of Zoom, Offset X and Offset Y; missing: ${missing.join(', ')}`,
			},
		]);
	}
	const valid = scope.client.validate('updateAvatarFraming', request as never);
	const result = await scope.client.updateAvatarFraming(valid, { signal: scope.signal });
	return [{ json: { ...result, previous: (current ?? null) as IDataObject | null } }];
}

/** Own voices and public voices as one list, each marked with its library. */
export function voiceItems(page: ResponseOf<'listVoices'>, library: string): IDataObject[] {
	const mark = (voices: VoiceDto[], from: 'own' | 'public') => voices.map((v) => ({ ...v, library: from }) as IDataObject);
	return [...(library === 'public' ? [] : mark(page.my_voices, 'own')), ...(library === 'own' ? [] : mark(page.public_voices, 'public'))];
}

/** The output schema of Understand, from the field list or the pasted JSON Schema. */
export function understandSchema(params: Params): IDataObject {
	const fields = ((params.fields as IDataObject | undefined)?.field as SchemaField[] | undefined) ?? [];
	const result = params.schemaMode === 'json' ? parseJsonSchema(params.jsonSchema) : schemaFromFields(fields);
	if (result.issues.length || !result.schema) throw invalid('analyze', result.issues);
	return result.schema;
}
