/**
 * Text to Speech beyond one call's 3,000 characters, and captions from word timings, through the
 * nodes in n8n's engine against the emulator.
 */
import fc from 'fast-check';

import { AccountReservations } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/balance';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type { BalanceFloor } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
import { SpendLedger } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spend';
import { SpendingClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/spendingClient';
import {
	checkedSpeech,
	PartialSpeechError,
	speak,
	speechEstimate,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/longSpeech';
import { parseMp3 } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { speechAudio } from '../emulator/speechAudio';
import { createUndiciClient } from '../support/undiciTransport';
import { useEngine } from '../support/engine';
import { byId, NODE, ON_ERROR, oneNode } from '../support/workflow';
import { cjkScript, englishScript } from '../unit/scripts';
import { parseSrt, parseVtt } from '../support/subtitles';

const engine = useEngine({}, { binaryMode: 'filesystem' });
beforeEach(() => engine.emu.reset());

const synthesize = (extra: Record<string, unknown> = {}) => ({
	operation: 'synthesize',
	text: '={{ $json.text }}',
	voiceId: byId('Alice'),
	speechRate: 'fast',
	options: { locale: '={{ $json.locale }}', fileName: 'voice-over.mp3' },
	...extra,
});

/** The texts VisionStory was asked to speak, in the order it was asked. */
function spokenParts(): string[] {
	return engine.emu.requests({ method: 'POST', path: '/api/v1/tts' }).map((r) => String(r.text));
}

const ttsCharges = () =>
	engine.emu.ledger().filter((e) => e.kind === 'charge' && e.operation === 'tts');

describe.each([
	['an English script with paragraphs', englishScript(10_000), 'en-US', /[.!?]$/],
	['a Japanese script without spaces', cjkScript(10_000, 'ja'), 'ja-JP', /[。！？」]$/],
])('%s of 10,000 characters', (_, text, locale, sentenceEnd) => {
	test('becomes one MP3 whose frames all parse and last as long as the parts together, cut at sentence ends, charged per part', async () => {
		const result = await engine.run(oneNode('textToSpeech', synthesize()), [{ text, locale }]);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		const parts = spokenParts();
		expect(parts.length).toBeGreaterThanOrEqual(4);
		expect(item.json.parts).toBe(parts.length);

		// Every part fits one call and ends at a sentence; together they are the script, in order.
		expect(parts.every((p) => p.length <= 3000 && sentenceEnd.test(p))).toBe(true);
		expect(parts.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
		expect(new Set(parts).size).toBe(parts.length);
		// The same voice, locale and speed for every part.
		const settings = engine.emu
			.requests({ method: 'POST', path: '/api/v1/tts' })
			.map((r) => r.settings);
		expect(
			settings.every(
				(s) => s?.voice_id === 'Alice' && s.locale === locale && s.speech_rate === 'fast',
			),
		).toBe(true);

		const mp3 = await result.binary(NODE);
		const stream = parseMp3(mp3);
		expect(stream.junk).toEqual([]);
		expect(stream.tags).toEqual([]);
		expect(stream.vbrHeaders.map((h) => h.frames)).toEqual([stream.frames.length]);
		const partSeconds = parts.reduce((sum, p) => sum + speechAudio(p.length).durationSec, 0);
		const frameSeconds = stream.samplesPerFrame / stream.sampleRate;
		expect(Math.abs(stream.durationSec - partSeconds)).toBeLessThanOrEqual(frameSeconds);
		expect(item.json.duration_sec).toBeCloseTo(stream.durationSec, 3);

		expect(item.json.characters).toBe(parts.reduce((sum, p) => sum + p.length, 0));
		expect(item.json.cost_credit).toBe(ttsCharges().reduce((sum, e) => sum + e.credits, 0));
		expect(ttsCharges()).toHaveLength(parts.length);
		expect(item.binary?.data).toMatchObject({ fileName: 'voice-over.mp3', mimeType: 'audio/mpeg' });
	});
});

test('a part that fails is not sent again, and the error names the parts that were made and charged', async () => {
	const paragraphs = englishScript(12_000, 7).split('\n\n');
	const middle = Math.floor(paragraphs.length / 2);
	paragraphs[middle] = `This paragraph will [fail] to speak. ${paragraphs[middle]}`;
	const result = await engine.run(
		oneNode('textToSpeech', synthesize(), ON_ERROR.continueRegularOutput),
		[{ text: paragraphs.join('\n\n'), locale: 'en-US' }],
	);
	const [item] = result.output(NODE);
	const parts = spokenParts();
	const failed = parts.findIndex((p) => p.includes('[fail]'));
	expect(failed).toBeGreaterThan(0);
	expect(item.json.error).toMatch(
		new RegExp(`^Part ${failed + 1} of \\d+ of the text failed and was not sent again`),
	);
	// Nothing was requested twice, and the parts the hint calls charged are the ones the ledger charged.
	expect(new Set(parts).size).toBe(parts.length);
	const charged = ttsCharges().length;
	expect(charged).toBe(parts.length - 1);
	const named = /Parts? ([\d, ]+) (?:was|were) produced and charged \((\d+) credits\)/.exec(
		String(item.json.hint),
	);
	expect(named?.[1].split(', ').length).toBe(charged);
	expect(Number(named?.[2])).toBe(ttsCharges().reduce((sum, e) => sum + e.credits, 0));
	// Issue 31, defect 3: the charged parts' audio is kept (it was thrown away before).
	expect(item.json.partial).toBe(true);
	expect(item.binary?.data).toMatchObject({ mimeType: 'audio/mpeg' });
});

describe('issue 31, defect 3: the floor for the whole text, and charged audio never thrown away', () => {
	const key = 'sk-vs-emulator-speech-floor-00000000';
	const credentials = (keepAtLeastCredits?: number) => ({
		visionStoryApi: { apiKey: key, baseUrl: engine.emu.baseUrl, keepAtLeastCredits },
	});
	/** `count` paragraphs of 2,879 characters: each one part of 6 credits (4 make 11,522 characters). */
	const paragraphList = (count: number) => {
		const words = englishScript(count * 3_000, 3).replace(/\s+/g, ' ');
		return Array.from(
			{ length: count },
			(_, i) => `${words.slice(i * 2_900, i * 2_900 + 2_878).replace(/^\s|\s$/g, 'x')}.`,
		);
	};
	const paragraphs = (count: number) => paragraphList(count).join('\n\n');
	const text = paragraphs(4);

	test('balance 115, floor 100, 11,522 characters in 4 parts (24 credits): refused before any part, nothing charged', async () => {
		const request = checkedSpeech({ text, voice_id: 'Alice' });
		expect(text).toHaveLength(11_522);
		expect(request.parts).toHaveLength(4);
		expect(speechEstimate(request)).toBe(24);
		engine.emu.addAccount(key, 115);
		const result = await engine.run(
			oneNode('textToSpeech', synthesize(), ON_ERROR.continueRegularOutput),
			[{ text, locale: 'en-US' }],
			{ credentials: credentials(100) },
		);
		const [item] = result.output(NODE);
		expect(item.json.error).toMatch(
			/Keep at Least 100 Credits would be passed: the account has 115 credits, and this call costs about 24 credits\. Nothing was sent or charged/,
		);
		expect(spokenParts()).toEqual([]);
		expect(ttsCharges()).toEqual([]);
		expect(engine.emu.balance(key)).toBe(115);
		expect(item.binary).toBeUndefined();
	});

	test('the same text from a balance of 124 (24 above the floor) is spoken whole', async () => {
		engine.emu.addAccount(key, 124);
		const result = await engine.run(
			oneNode('textToSpeech', synthesize()),
			[{ text, locale: 'en-US' }],
			{
				credentials: credentials(100),
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toMatchObject({ parts: 4, cost_credit: 24 });
		expect(engine.emu.balance(key)).toBe(100);
	});

	/**
	 * Three parts, the third made to fail (the emulator fails a text holding [fail]): with three parts
	 * sent at once, no fourth can start and be charged before the third fails.
	 */
	function failingThirdPart(): string {
		const three = paragraphs(3);
		return `${three.slice(0, -20)} [fail]${three.slice(-20)}`;
	}

	test.each([
		[
			'On Error = continue: the partial result is the item, beside the error',
			ON_ERROR.continueRegularOutput,
		],
		[
			'On Error = stop: the item still comes out with the audio and the error, the workflow goes on',
			ON_ERROR.stop,
		],
	])('a part failing after two charged parts: %s', async (_, onError) => {
		engine.emu.addAccount(key, 1_000);
		const result = await engine.run(
			oneNode('textToSpeech', synthesize(), onError),
			[{ text: failingThirdPart(), locale: 'en-US' }],
			{ credentials: credentials(100) },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		const parts = spokenParts();
		expect(parts).toHaveLength(3);
		expect(parts[2]).toContain('[fail]');
		expect(ttsCharges()).toHaveLength(2);
		const spoken = parts[0].length + parts[1].length;
		expect(item.json).toMatchObject({
			partial: true,
			charged: true,
			charactersSpoken: spoken,
			cost_credit: 12,
			parts_spoken: [1, 2],
			parts: 3,
		});
		expect(item.json.error).toMatch(
			new RegExp(
				`^Part 3 of 3 of the text failed and was not sent again: .*The audio of the ${spoken.toLocaleString('en-US')} characters spoken before it is kept`,
			),
		);
		expect(item.json.hint).toMatch(
			/Parts 1, 2 were produced and charged \(12 credits\): their audio is in the result/,
		);
		const mp3 = parseMp3(await result.binary(NODE));
		const seconds =
			speechAudio(parts[0].length).durationSec + speechAudio(parts[1].length).durationSec;
		expect(Math.abs(mp3.durationSec - seconds)).toBeLessThanOrEqual(
			mp3.samplesPerFrame / mp3.sampleRate,
		);
		expect(engine.emu.balance(key)).toBe(1_000 - 12);
	});

	test('a part the floor refuses after two were charged (the balance spent elsewhere meanwhile): the core hands back their audio with the refusal', async () => {
		let checks = 0;
		// The whole text fits; the third part's own check finds the balance spent down by another program.
		const floor: BalanceFloor = {
			admitAll: async (_endpoint, credits) => credits.map(() => () => undefined),
			admit: async (endpoint) => {
				if (++checks === 3)
					throw new VisionStoryError({
						category: 'validation',
						operation: endpoint,
						message: 'Keep at Least 100 Credits would be passed: the account has 101 credits.',
					});
				return { recheck: async () => undefined, release: () => undefined };
			},
		};
		const base = createUndiciClient(engine.emu.apiKey, { baseUrl: engine.emu.baseUrl });
		const client = new SpendingClient(base, new SpendLedger(), { floor });
		const request = checkedSpeech({ text: paragraphs(3), voice_id: 'Alice' });
		const error = (await speak(client, request).catch((e: unknown) => e)) as PartialSpeechError;
		expect(error).toBeInstanceOf(PartialSpeechError);
		expect(error.message).toMatch(
			/^Part 3 of 3 of the text failed and was not sent again: Keep at Least 100/,
		);
		const parts = spokenParts();
		expect(parts).toHaveLength(2);
		expect(ttsCharges()).toHaveLength(2);
		expect(error.spoken.details).toMatchObject({
			partial: true,
			charged: true,
			charactersSpoken: parts[0].length + parts[1].length,
			cost_credit: 12,
			parts_spoken: [1, 2],
		});
		const mp3 = parseMp3(error.spoken.mp3);
		expect(mp3.frames.length).toBeGreaterThan(0);
		expect(mp3.vbrHeaders.map((h) => h.frames)).toEqual([mp3.frames.length]);
	});

	test('property: whatever parts fail and whatever the balance, charged audio is never discarded and the floor holds', async () => {
		const runs = Number(process.env.MONEY_RUNS ?? 12);
		let run = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 2, max: 5 }),
				fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
				fc.integer({ min: 0, max: 40 }),
				async (count, failing, headroom) => {
					engine.emu.reset();
					const account = `sk-vs-emulator-speech-prop-${String(run++).padStart(8, '0')}`;
					const floorAt = 100;
					engine.emu.addAccount(account, floorAt + headroom);
					const text = paragraphList(count)
						.map((p, i) => (failing[i] ? `${p} Then [fail] here.` : p))
						.join('\n\n');
					const base = createUndiciClient(account, { baseUrl: engine.emu.baseUrl });
					const floor = new AccountReservations().floor(floorAt, 'the test');
					const client = new SpendingClient(base, new SpendLedger(), { floor });
					const request = checkedSpeech({ text, voice_id: 'Alice' });
					expect(request.parts).toHaveLength(count);
					const outcome = await speak(client, request).catch((e: unknown) => e);
					const charges = engine.emu
						.ledger(account)
						.filter((e) => e.kind === 'charge' && e.operation === 'tts');
					const charged = charges.reduce((sum, e) => sum + e.credits, 0);
					// The floor holds, and a text that does not fit whole sends nothing.
					expect(engine.emu.balance(account)).toBeGreaterThanOrEqual(floorAt);
					if (headroom < speechEstimate(request)) {
						expect(spokenParts()).toEqual([]);
						return;
					}
					if (!failing.slice(0, count).some(Boolean)) {
						expect(outcome).toMatchObject({ details: { parts: count, cost_credit: charged } });
						return;
					}
					// Every charged part's audio comes back, in one MP3 of exactly those parts.
					if (charges.length === 0) {
						expect(outcome).not.toBeInstanceOf(PartialSpeechError);
						return;
					}
					expect(outcome).toBeInstanceOf(PartialSpeechError);
					const { details, mp3 } = (outcome as PartialSpeechError).spoken;
					expect(details).toMatchObject({ cost_credit: charged, charged: true });
					expect((details.parts_spoken as number[]).length).toBe(charges.length);
					expect(parseMp3(mp3).frames.length).toBeGreaterThan(0);
				},
			),
			{ numRuns: runs },
		);
	}, 120_000);

	test('On Error = continue (error output): the partial audio goes down the error output with the error', async () => {
		engine.emu.addAccount(key, 1_000);
		const result = await engine.run(
			oneNode('textToSpeech', synthesize(), ON_ERROR.continueErrorOutput),
			[{ text: failingThirdPart(), locale: 'en-US' }],
			{ credentials: credentials() },
		);
		const [item] = result.output(NODE, 1);
		expect(item.json.error).toMatchObject({ partial: true, charged: true, cost_credit: 12 });
		expect(item.binary?.data).toMatchObject({ mimeType: 'audio/mpeg' });
	});
});

test('a text over the cap, or with a word longer than one call, is refused before anything is sent', async () => {
	const result = await engine.run(
		oneNode('textToSpeech', synthesize(), ON_ERROR.continueRegularOutput),
		[
			{ text: 'word '.repeat(20_001), locale: 'en-US' },
			{ text: `Before ${'x'.repeat(3001)} after.`, locale: 'en-US' },
		],
	);
	const [tooLong, longWord] = result.output(NODE);
	expect(tooLong.json.error).toMatch(/"Text" \(text\).*at most 100,000 characters/);
	expect(longWord.json.error).toMatch(/"Text" \(text\): cannot be spoken in parts/);
	expect(spokenParts()).toEqual([]);
});

describe('captions from word timings', () => {
	const align = (captions: string, options: Record<string, string | number | boolean> = {}) => ({
		operation: 'align',
		audioSource: 'url',
		audioUrl: '={{ $json.mediaBase }}/media/sample.mp3',
		text: '={{ $json.text }}',
		captions,
		captionOptions: options,
	});
	const script = englishScript(1_500, 11);

	test('SRT and WebVTT as files and text: every word once and in order, cues within the limits, readable by real parsers', async () => {
		const limits = {
			maxCharsPerLine: 32,
			maxLinesPerCue: 2,
			maxCueDurationSec: 4,
			fileName: 'episode-12',
		};
		const result = await engine.run(oneNode('align', align('both', limits)), [{ text: script }]);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		const captions = item.json.captions as { srt: string; vtt: string; cues: number };
		expect(item.binary?.srt).toMatchObject({
			fileName: 'episode-12.srt',
			mimeType: 'application/x-subrip',
		});
		expect(item.binary?.vtt).toMatchObject({ fileName: 'episode-12.vtt', mimeType: 'text/vtt' });
		expect((await result.binary(NODE, 0, 'srt')).toString('utf8')).toBe(captions.srt);
		expect((await result.binary(NODE, 0, 'vtt')).toString('utf8')).toBe(captions.vtt);

		const words = (
			item.json.words as Array<{ text: string; start_sec: number; end_sec: number }>
		).map((w) => w.text);
		for (const cues of [parseSrt(captions.srt), parseVtt(captions.vtt)]) {
			expect(cues).toHaveLength(captions.cues);
			expect(cues.flatMap((c) => c.text.split(/\s+/))).toEqual(words);
			cues.forEach((cue, i) => {
				expect(cue.end).toBeGreaterThan(cue.start);
				if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1].end);
				expect(cue.end - cue.start).toBeLessThanOrEqual(4000);
				const lines = cue.text.split('\n');
				expect(lines.length).toBeLessThanOrEqual(2);
				expect(lines.every((l) => l.length <= 32)).toBe(true);
			});
		}
		// Grouped into readable cues, not one word per cue.
		expect(captions.cues).toBeLessThan(words.length / 3);
	});

	test('Transcribe keeps its own SRT and adds WebVTT captions beside it', async () => {
		const parameters = {
			operation: 'transcribe',
			audioSource: 'url',
			audioUrl: '={{ $json.mediaBase }}/media/sample.mp3',
			srt: true,
			captions: 'vtt',
		};
		const result = await engine.run(oneNode('align', parameters));
		const [item] = result.output(NODE);
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['data', 'vtt']);
		expect(typeof item.json.srt).toBe('string');
		expect(parseVtt((item.json.captions as { vtt: string }).vtt).length).toBeGreaterThan(0);
	});

	test('a caption limit out of range is refused before the audio is sent', async () => {
		const result = await engine.run(
			oneNode('align', align('srt', { maxLinesPerCue: 0 }), ON_ERROR.continueRegularOutput),
			[{ text: script }],
		);
		expect(result.output(NODE)[0].json.error).toMatch(
			/"Lines per Cue" \(maxLinesPerCue\).*at least 1/,
		);
		expect(engine.emu.requests({ method: 'POST', path: '/api/v1/audio/align' })).toHaveLength(0);
	});
});
