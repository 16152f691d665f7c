import { audioDurationSec, DURATION_HEADER_BYTES } from '../../../shared/api/audioDuration';
import { invalidInput } from '../../../shared/api/errors';
import type { VisionStoryError } from '../../../shared/api/errors';
import type { Prepared, OperationContext } from '../../../shared/framework/action';
import type { MediaInput } from '../../../shared/n8n/binary';
import { binaryHead } from '../../../shared/n8n/binary';

/** The contract's limit on alignment audio. */
export const ALIGN_MAX_SECONDS = 30 * 60;

function minutes(seconds: number): string {
	const whole = Math.floor(seconds / 60);
	const rest = Math.round(seconds - whole * 60);
	return rest ? `${whole} min ${rest} s` : `${whole} min`;
}

/**
 * Audio files whose headers show them longer than alignment takes are refused before sending. Only
 * files in the workflow are measured (WAV and MP3 headers); for URLs and assets the service decides.
 */
export async function checkAlignDuration(
	ctx: OperationContext,
	items: Array<Prepared<{ media: readonly MediaInput[] }>>,
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	for (const item of items) {
		for (const input of item.request.media) {
			if (input.source !== 'binary') continue;
			const head = await binaryHead(ctx.n8n, input.binary, DURATION_HEADER_BYTES);
			const seconds = audioDurationSec(input.mimeType, head, input.size);
			if (seconds !== undefined && seconds > ALIGN_MAX_SECONDS) {
				rejected.set(
					item.index,
					invalidInput('alignAudio', [
						{
							field: input.parameter,
							message: `is ${minutes(seconds)} long; at most 30 minutes of audio can be aligned`,
						},
					]),
				);
			}
		}
	}
	return rejected;
}

/** The length of an item's audio when it is a file in the workflow (WAV or MP3 headers): prices an alignment. */
export async function audioSecondsOf(
	ctx: OperationContext,
	media: readonly MediaInput[],
): Promise<number | undefined> {
	const input = media.find((m) => m.source === 'binary');
	if (input?.source !== 'binary') return undefined;
	const head = await binaryHead(ctx.n8n, input.binary, DURATION_HEADER_BYTES);
	return audioDurationSec(input.mimeType, head, input.size);
}
