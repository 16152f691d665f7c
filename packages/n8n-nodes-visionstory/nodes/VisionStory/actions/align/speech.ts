import type { MediaRef } from '../../../shared/api/contract/index';
import { HttpUrl, MEDIA_MIME_TYPES, MIB } from '../../../shared/api/contract/index';
import { invalidInput } from '../../../shared/api/errors';
import type { MediaInput } from '../../../shared/n8n/binary';
import type { OperationContext } from '../../../shared/framework/action';
import { ItemMedia } from '../../../shared/framework/mediaParams';
import { param } from '../../../shared/framework/params';

/** Alignment and transcription take WAV or MP3, up to 15 MB as a file in the workflow. */
const AUDIO_RULES = { mimeTypes: MEDIA_MIME_TYPES.audio, maxBytes: { audio: 15 * MIB } };

/** The recording of one item, read from its source parameters; every problem names the parameter the user sees. */
export async function readAudio(
	ctx: OperationContext,
	index: number,
	endpoint: string,
): Promise<{ audio: MediaRef; media: MediaInput[] }> {
	const media = new ItemMedia(ctx.n8n, index);
	const audio = await media.one('audio', AUDIO_RULES);
	media.check(endpoint);
	// The source has no None choice, and a value outside its choices is refused before this.
	if (!audio) throw invalidInput(endpoint, [{ field: 'audioSource', message: 'is required' }]);
	// The request calls it `audio.url`: checked here, so the error names Audio URL.
	if (audio.url !== undefined && audio.url !== null) param.checked('audioUrl', audio.url, HttpUrl);
	return { audio, media: media.inputs };
}
