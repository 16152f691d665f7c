/**
 * Text to Speech of any length up to the script cap, for every host: a text longer than one call
 * takes is cut into parts (textParts.ts), priced and admitted whole (the spend cap and the balance
 * floor) before the first part is sent, spoken part by part with the same voice, and joined into one
 * MP3 (mp3.ts). Audio a part was charged for is never thrown away: when a later part fails or is
 * refused, the parts made come back joined, in a `PartialSpeechError`.
 */
import { z } from 'zod/v3';

import type { Draft } from '../client';
import { fieldIssues, fieldsOf } from '../client';
import { Slots } from '../concurrency';
import type { SpeechHeaders } from '../contract/index';
import { SynthesizeSpeechRequest, TTS_TEXT_MAX } from '../contract/index';
import { invalidInput, isAborted, VisionStoryError } from '../errors';
import type { ByteStream } from '../http';
import type { Kept } from '../instantCalls';
import { describeCall, instantCalls, intentKey } from '../instantCalls';
import { speechPrice } from '../spend';
import type { SpendingClient } from '../spendingClient';
import type { AudioResult, CallOptions } from '../exchange';
import type { JoinedMp3 } from './mp3';
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

/** Checks a request read from the host's fields; an issue names the request field, which the host labels. */
export function checkedSpeech(
	draft: Draft<z.input<typeof SynthesizeSpeechRequest>>,
): SpeechRequest {
	const parsed = SpeechRequest.safeParse(draft);
	if (!parsed.success) throw invalidInput('synthesize', fieldIssues(parsed.error));
	return parsed.data;
}

const sum = (values: Array<number | null | undefined>) =>
	values.reduce<number>((total, v) => total + (v ?? 0), 0);

/** What the whole text costs: every part is charged on its own, rounded up. */
export function speechEstimate(request: SpeechRequest): number {
	return sum(request.parts.map((part) => speechPrice(part.text.length)));
}

/** What a spoken text says of itself, as both hosts put it out. */
export type SpeechDetails = Record<string, unknown>;

/**
 * A text spoken: a text of one part is the service's answer as it streams in; several parts are
 * their MP3s joined into one.
 */
export type SpokenText =
	| { audio: AudioResult; mp3?: undefined; details: SpeechDetails }
	| { audio?: undefined; mp3: Buffer; details: SpeechDetails };

/**
 * A part failed or was refused after others were made and charged: the error of the failed part,
 * with the parts made joined into one MP3 (`spoken`) so the audio paid for is not lost.
 */
export class PartialSpeechError extends VisionStoryError {
	constructor(
		error: VisionStoryError,
		readonly spoken: { mp3: Buffer; details: SpeechDetails },
	) {
		super({
			category: error.category,
			status: error.status,
			code: error.code,
			details: error.details,
			issues: error.issues,
			operation: error.operation,
			message: error.message,
			hint: error.hint,
		});
		this.name = 'PartialSpeechError';
	}
}

interface PartAudio {
	bytes: Buffer;
	mimeType: string;
	metadata: SpeechHeaders;
}

/**
 * The audio of an answer read whole. The service charged it once it answered: a body that breaks off
 * is an answer that could not be read (charged), never a call to send again.
 */
async function readAll(stream: ByteStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	const broken = await (async () => {
		for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
	})().then(
		() => undefined,
		(error: unknown) => error,
	);
	if (broken === undefined) return Buffer.concat(chunks);
	if (broken instanceof VisionStoryError) throw broken;
	throw new VisionStoryError({
		category: 'response',
		operation: 'synthesizeSpeech',
		message: `VisionStory answered with the audio, but it broke off while it was read (${broken instanceof Error ? broken.message : String(broken)})`,
		hint: 'It was most likely charged. Check your credits before running it again.',
	});
}

/** A part's audio kept for a later try of the same intent: the bytes are never changed, so they are shared. */
function keptPart(part: PartAudio): Kept<PartAudio> {
	return {
		bytes: part.bytes.length,
		copy: () => ({ ...part, metadata: { ...part.metadata } }),
	};
}

/**
 * One call's audio, read whole. Within `scope` (the host's execution, node and item, or message and
 * node) it is sent at most once: a later try gets the audio already charged for, or is refused when
 * the earlier one may have been charged without an answer (`instantCalls.ts`).
 */
async function spokenPart(
	client: SpendingClient,
	request: SynthesizeSpeechRequest,
	options: CallOptions,
	scope: string | undefined,
): Promise<PartAudio> {
	const send = async (): Promise<PartAudio> => {
		const audio = await client.synthesizeSpeech(request, options);
		return {
			bytes: await readAll(audio.stream),
			mimeType: audio.mimeType,
			metadata: audio.metadata,
		};
	};
	if (!scope) return await send();
	const fields = fieldsOf(request);
	return await instantCalls.once(
		intentKey(scope, 'synthesizeSpeech', fields),
		'synthesizeSpeech',
		describeCall('synthesizeSpeech', fields),
		send,
		keptPart,
	);
}

const milliseconds = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The figures of a joined MP3 and the parts in it. */
function joinedDetails(
	request: SpeechRequest,
	audios: PartAudio[],
	joined: JoinedMp3,
): SpeechDetails {
	return {
		duration_sec: milliseconds(joined.durationSec),
		characters: sum(audios.map((a) => a.metadata.characters)),
		cost_credit: sum(audios.map((a) => a.metadata.cost_credit)),
		audio_ids: audios.map((a) => a.metadata.audio_id ?? null),
		voice_id: request.voice_id,
		mime_type: 'audio/mpeg',
		parts: request.parts.length,
		part_durations_sec: joined.partDurationsSec.map(milliseconds),
	};
}

/** The parts' MP3s as one track: frames joined, the parts' tags and VBR headers replaced by one header. */
function joinParts(audios: PartAudio[]): JoinedMp3 {
	let joined: JoinedMp3 | undefined;
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
		hint: 'VisionStory answered with audio that cannot be joined. Please report this to the n8n-nodes-visionstory maintainers.',
	});
}

/**
 * Which parts were made (and so charged) when another failed; nothing is sent again. With parts
 * made, their audio joined comes with the error.
 */
function partFailedError(
	request: SpeechRequest,
	failedIndex: number,
	error: VisionStoryError,
	done: Array<PartAudio | undefined>,
): VisionStoryError {
	const { parts } = request;
	const madeIndexes = done.flatMap((audio, i) => (audio ? [i] : []));
	const made = madeIndexes.map((i) => done[i]!);
	const failure = new VisionStoryError({
		category: error.category,
		status: error.status,
		code: error.code,
		details: error.details,
		issues: error.issues,
		operation: 'synthesize',
		message: `Part ${failedIndex + 1} of ${parts.length} of the text failed and was not sent again: ${error.message}`,
		hint: `No part was produced. ${error.hint ?? ''} Running it again synthesizes every part.`.trim(),
	});
	if (!made.length) return failure;
	const numbers = madeIndexes.map((i) => i + 1);
	const credits = sum(made.map((audio) => audio.metadata.cost_credit));
	const characters = sum(madeIndexes.map((i) => parts[i].text.length));
	let joined: JoinedMp3;
	try {
		joined = joinParts(made);
	} catch {
		// Audio that cannot be joined cannot be handed back: the error still says what was charged.
		return failure.with({
			hint: `Part${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')} ${numbers.length === 1 ? 'was' : 'were'} produced and charged (${credits} credits) but could not be joined. ${error.hint ?? ''}`.trim(),
		});
	}
	return new PartialSpeechError(
		failure.with({
			message: `${failure.message} The audio of the ${characters.toLocaleString('en-US')} characters spoken before it is kept.`,
			hint: `Part${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')} ${numbers.length === 1 ? 'was' : 'were'} produced and charged (${credits} credits): ${numbers.length === 1 ? 'its' : 'their'} audio is in the result, as one MP3. ${error.hint ?? ''} Running it again synthesizes and charges every part again.`.trim(),
		}),
		{
			mp3: joined.mp3,
			details: {
				...joinedDetails(request, made, joined),
				partial: true,
				charged: true,
				charactersSpoken: characters,
				parts_spoken: numbers,
			},
		},
	);
}

/** Every part, several at a time, kept in order; after a failure no further part is started. */
async function synthesizeParts(
	client: SpendingClient,
	request: SpeechRequest,
	holds: Array<() => void>,
	options: CallOptions,
	scope: string | undefined,
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
				done[index] = await spokenPart(
					client,
					{ ...base, text: part.text },
					{ ...options, floorHold: holds[index] },
					scope,
				);
			} catch (error) {
				failure ??= { index, error };
			} finally {
				// A part never sent (or refused) gives its hold on the floor back; a sent one did already.
				holds[index]();
				slots.give();
			}
		}),
	);
	if (failure) {
		if (isAborted(failure.error) || !(failure.error instanceof VisionStoryError))
			throw failure.error;
		throw partFailedError(request, failure.index, failure.error, done);
	}
	return done as PartAudio[];
}

/**
 * Speaks a checked text. One part goes as one call and streams back. Several are admitted whole
 * first (refused before the first is sent when their total would pass the cap or the floor), then
 * sent and joined into one MP3. A failure after parts were charged throws a `PartialSpeechError`
 * holding their audio. Within `scope` (the host's execution, node and item, or message and node)
 * each call is sent at most once: its audio is read whole and kept for a later try, which gets it
 * back instead of paying again (`instantCalls.ts`).
 */
export async function speak(
	client: SpendingClient,
	request: SpeechRequest,
	options: CallOptions = {},
	scope?: string,
): Promise<SpokenText> {
	const { parts, ...single } = request;
	if (parts.length <= 1) {
		const details = (audio: Omit<PartAudio, 'bytes'>): SpeechDetails => ({
			...audio.metadata,
			voice_id: request.voice_id,
			mime_type: audio.mimeType,
			parts: 1,
		});
		if (scope) {
			const part = await spokenPart(client, single, options, scope);
			return { mp3: part.bytes, details: details(part) };
		}
		const audio = await client.synthesizeSpeech(single, options);
		return { audio, details: details(audio) };
	}
	const holds = await client.admitAll(
		'synthesizeSpeech',
		parts.map((part) => speechPrice(part.text.length)),
		options,
	);
	const audios = await synthesizeParts(client, request, holds, options, scope);
	const joined = joinParts(audios);
	return { mp3: joined.mp3, details: joinedDetails(request, audios, joined) };
}
