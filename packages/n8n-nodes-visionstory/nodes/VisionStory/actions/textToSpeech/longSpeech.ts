import { z } from 'zod/v3';

import type { Draft } from '../../../shared/api/client';
import { fieldIssues } from '../../../shared/api/client';
import { Slots } from '../../../shared/api/concurrency';
import type { SpeechHeaders } from '../../../shared/api/contract/index';
import { SynthesizeSpeechRequest, TTS_TEXT_MAX } from '../../../shared/api/contract/index';
import { invalidInput, isAborted, VisionStoryError } from '../../../shared/api/errors';
import { speechPrice } from '../../../shared/api/spend';
import type { ByteStream } from '../../../shared/api/http';
import type { OperationContext } from '../../../shared/framework/action';
import { joinMp3, Mp3Error } from './mp3';
import type { ScriptPart } from './textParts';
import { SCRIPT_MAX_CHARS, ScriptSplitError, splitScript } from './textParts';

/** Parts synthesized at once: enough to overlap the calls, few enough to stay polite. */
const PART_CONCURRENCY = 3;

function partsOf(text: string, locale?: string): { parts: ScriptPart[] } | { problem: string } {
	try {
		return { parts: splitScript(text, TTS_TEXT_MAX, { locale }) };
	} catch (error) {
		return { problem: error instanceof ScriptSplitError ? error.message : String(error) };
	}
}

/**
 * The Synthesize request: the API's, but with text of any length up to the script cap. The parts a
 * longer text is spoken in are cut here, while checking, so a text that cannot be cut (a "word"
 * longer than one call takes) is refused before anything is sent.
 */
export const SpeechRequest = SynthesizeSpeechRequest.extend({
	text: z
		.string()
		.trim()
		.min(1, 'must not be empty')
		.max(
			SCRIPT_MAX_CHARS,
			`must be at most ${SCRIPT_MAX_CHARS.toLocaleString('en-US')} characters`,
		),
}).transform((request, ctx) => {
	const split = partsOf(request.text, request.locale ?? undefined);
	if ('parts' in split) return { ...request, parts: split.parts };
	ctx.addIssue({
		code: z.ZodIssueCode.custom,
		path: ['text'],
		message: `cannot be spoken in parts: ${split.problem}`,
	});
	return z.NEVER;
});
export type SpeechRequest = z.output<typeof SpeechRequest>;

/** Checks a request read from the parameters; an issue names the request field, which the router labels with its parameter. */
export function checkedSpeech(
	draft: Draft<z.input<typeof SynthesizeSpeechRequest>>,
): SpeechRequest {
	const parsed = SpeechRequest.safeParse(draft);
	if (!parsed.success) throw invalidInput('synthesize', fieldIssues(parsed.error));
	return parsed.data;
}

interface PartAudio {
	bytes: Buffer;
	metadata: SpeechHeaders;
}

async function readAll(stream: ByteStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
	return Buffer.concat(chunks);
}

export const sum = (values: Array<number | null | undefined>) =>
	values.reduce<number>((total, v) => total + (v ?? 0), 0);

/** Which parts were made (and so charged) when another failed; nothing is sent again. */
function partFailedError(
	failedIndex: number,
	error: VisionStoryError,
	parts: ScriptPart[],
	done: Array<PartAudio | undefined>,
): VisionStoryError {
	const made = done.flatMap((audio, i) => (audio ? [i + 1] : []));
	const credits = sum(done.map((audio) => audio?.metadata.cost_credit));
	const madeText = made.length
		? `Part${made.length === 1 ? '' : 's'} ${made.join(', ')} ${made.length === 1 ? 'was' : 'were'} produced and charged (${credits} credits) but not kept.`
		: 'No part was produced.';
	return new VisionStoryError({
		category: error.category,
		status: error.status,
		code: error.code,
		details: error.details,
		issues: error.issues,
		operation: 'synthesize',
		message: `Part ${failedIndex + 1} of ${parts.length} of the text failed and was not sent again: ${error.message}`,
		hint: `${madeText} ${error.hint ?? ''} Running the node again synthesizes and charges every part again.`.trim(),
	});
}

/** Every part, several at a time, kept in order; after a failure no further part is started. */
export async function synthesizeParts(
	ctx: OperationContext,
	request: SpeechRequest,
): Promise<PartAudio[]> {
	const { parts, ...base } = request;
	const done = new Array<PartAudio | undefined>(parts.length);
	let failure: { index: number; error: unknown } | undefined;
	const slots = new Slots(PART_CONCURRENCY);
	await Promise.all(
		parts.map(async (part, index) => {
			await slots.take();
			try {
				if (failure) return;
				const audio = await ctx.client.synthesizeSpeech(
					{ ...base, text: part.text },
					{ signal: ctx.signal },
				);
				done[index] = { bytes: await readAll(audio.stream), metadata: audio.metadata };
			} catch (error) {
				failure ??= { index, error };
			} finally {
				slots.give();
			}
		}),
	);
	if (failure) {
		if (isAborted(failure.error) || !(failure.error instanceof VisionStoryError))
			throw failure.error;
		throw partFailedError(failure.index, failure.error, parts, done);
	}
	return done as PartAudio[];
}

/** What the whole text costs: every part is charged on its own, rounded up. */
export function speechEstimate(request: SpeechRequest): number {
	return sum(request.parts.map((part) => speechPrice(part.text.length)));
}

/** The parts' MP3s as one track: frames joined, the parts' tags and VBR headers replaced by one header. */
export function joinParts(audios: PartAudio[]): ReturnType<typeof joinMp3> {
	let joined: ReturnType<typeof joinMp3> | undefined;
	let problem = '';
	try {
		joined = joinMp3(audios.map((a) => a.bytes));
	} catch (error) {
		problem = error instanceof Mp3Error ? error.message : String(error);
	}
	if (joined) return joined;
	throw new VisionStoryError({
		category: 'response',
		operation: 'synthesize',
		message: `The audio parts could not be joined: ${problem}`,
		hint: 'VisionStory answered with audio this node cannot join. Please report this to the n8n-nodes-visionstory maintainers.',
	});
}
