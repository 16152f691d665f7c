/**
 * What the Node-RED nodes take from the core beside the client (issue 32, item 6): Text to
 * Speech of up to 100,000 characters as one MP3 priced and admitted whole, and SRT and WebVTT captions on
 * Align and Transcribe.
 */
import { parseMp3 } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { speechAudio } from '../emulator/speechAudio';
import { parseSrt, parseVtt } from '../support/subtitles';
import { englishScript } from '../unit/scripts';
import { ALL_NODES, credentials, flowWith, helper, run, useEmulator } from './support';

const env = useEmulator();
const KEY = 'sk-vs-emulator-nr-long-speech-0000';

const speech = (extra: Record<string, unknown> = {}) => ({
	type: 'visionstory-text-to-speech',
	operation: 'synthesize',
	voiceId: 'Alice',
	downloadResult: true,
	...extra,
});
const alignNode = (extra: Record<string, unknown>) => ({
	type: 'visionstory-align',
	operation: 'align',
	audioSource: 'url',
	...extra,
});
const spoken = () =>
	env.emulator.requests({ method: 'POST', path: '/api/v1/tts' }).map((r) => String(r.text));
const ttsCharges = (key?: string) =>
	env.emulator.ledger(key).filter((e) => e.kind === 'charge' && e.operation === 'tts');

/** 100,000 characters of English. */
const longText = englishScript(100_000, 5).slice(0, 100_000).replace(/\s$/, '.');

describe('Text to Speech beyond 3,000 characters', () => {
	it('speaks 100,000 characters as one MP3, in parts of at most 3,000, charged per part', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(speech(), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const { output, msg } = await run({ _msgid: 'long', payload: longText });
		expect(output).toBe('out1');
		const parts = spoken();
		expect(parts.length).toBeGreaterThanOrEqual(34);
		expect(parts.every((p) => p.length <= 3000)).toBe(true);
		expect(parts.join('').replace(/\s/g, '')).toBe(longText.replace(/\s/g, ''));
		const mp3 = parseMp3(msg.payload as Buffer);
		expect(mp3.junk).toEqual([]);
		expect(mp3.vbrHeaders.map((h) => h.frames)).toEqual([mp3.frames.length]);
		const seconds = parts.reduce((sum, p) => sum + speechAudio(p.length).durationSec, 0);
		expect(Math.abs(mp3.durationSec - seconds)).toBeLessThanOrEqual(
			mp3.samplesPerFrame / mp3.sampleRate,
		);
		const credits = ttsCharges().reduce((sum, e) => sum + e.credits, 0);
		expect(msg.visionstory).toMatchObject({ parts: parts.length, cost_credit: credits });
		expect(ttsCharges()).toHaveLength(parts.length);
	});

	it.each([
		['the spend cap', { maxCreditsPerMessage: '150' }, /would cost about 2\d\d credits/],
		[
			'the balance floor',
			{ keepAtLeastCredits: '100' },
			/Keep at Least 100 Credits would be passed: the account has 300 credits, and this call costs about 2\d\d credits/,
		],
	])(
		'the whole text is priced before the first part: %s refuses it with nothing sent',
		async (_, limits, words) => {
			env.emulator.addAccount(KEY, 300);
			await helper.load(
				ALL_NODES,
				flowWith(speech(), env.emulator.baseUrl, limits),
				credentials(KEY),
			);
			const { output, msg } = await run({ _msgid: 'refused', payload: longText });
			expect(output).toBe('failed');
			expect((msg.error as { message: string }).message).toMatch(words);
			expect(spoken()).toEqual([]);
			expect(env.emulator.balance(KEY)).toBe(300);
		},
	);

	it('a part failing after two charged parts: their audio leaves by the failure output with the error, one message', async () => {
		const paragraph = (i: number) =>
			`${englishScript(3_000, 20 + i)
				.replace(/\s+/g, ' ')
				.slice(0, 2_800)
				.trimEnd()}.`;
		const text = [paragraph(1), paragraph(2), `${paragraph(3)} Then [fail] here.`].join('\n\n');
		await helper.load(
			ALL_NODES,
			flowWith(speech(), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const { output, msg: out } = await run({ _msgid: 'partial', payload: text });
		expect(output).toBe('failed');
		const parts = spoken();
		expect(parts).toHaveLength(3);
		expect(ttsCharges()).toHaveLength(2);
		expect(out.visionstory).toMatchObject({
			partial: true,
			charged: true,
			charactersSpoken: parts[0].length + parts[1].length,
			cost_credit: 12,
			parts_spoken: [1, 2],
		});
		const mp3 = parseMp3(out.payload as Buffer);
		const seconds =
			speechAudio(parts[0].length).durationSec + speechAudio(parts[1].length).durationSec;
		expect(Math.abs(mp3.durationSec - seconds)).toBeLessThanOrEqual(
			mp3.samplesPerFrame / mp3.sampleRate,
		);
		expect((out.error as { message: string }).message).toMatch(
			/Part 3 of 3 of the text failed and was not sent again/,
		);
	});
});

describe('captions on Align and Transcribe', () => {
	const script = englishScript(1_500, 11);
	const media = (name: string) => `${env.emulator.mediaBaseUrl}/media/${name}`;

	it('Align: SRT and WebVTT from the word timings, within the limits, every word once', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(
				alignNode({ captions: 'both', maxCharsPerLine: 32, maxCueDurationSec: 4 }),
				env.emulator.baseUrl,
			),
			credentials(env.emulator.apiKey),
		);
		const { output, msg } = await run({ audioUrl: media('sample.mp3'), text: script });
		expect(output).toBe('out1');
		const payload = msg.payload as {
			words: Array<{ text: string }>;
			captions: { cues: number; srt: string; vtt: string };
		};
		for (const cues of [parseSrt(payload.captions.srt), parseVtt(payload.captions.vtt)]) {
			expect(cues).toHaveLength(payload.captions.cues);
			expect(cues.flatMap((c) => c.text.split(/\s+/))).toEqual(payload.words.map((w) => w.text));
			for (const cue of cues) {
				expect(cue.end - cue.start).toBeLessThanOrEqual(4000);
				expect(cue.text.split('\n').every((l) => l.length <= 32)).toBe(true);
			}
		}
		expect(payload.captions.cues).toBeLessThan(payload.words.length / 3);
	});

	it('Transcribe: WebVTT captions beside the service SRT, msg.captions choosing the format', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(alignNode({ operation: 'transcribe', srt: true }), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const { msg } = await run({ audioUrl: media('sample.mp3'), captions: 'vtt' });
		const payload = msg.payload as { srt: string; captions: { srt?: string; vtt: string } };
		expect(typeof payload.srt).toBe('string');
		expect(payload.captions.srt).toBeUndefined();
		expect(parseVtt(payload.captions.vtt).length).toBeGreaterThan(0);
	});

	it('a caption limit out of range is refused before the audio is sent', async () => {
		await helper.load(
			ALL_NODES,
			flowWith(alignNode({ captions: 'srt', pauseSec: -1 }), env.emulator.baseUrl),
			credentials(env.emulator.apiKey),
		);
		const { output, msg } = await run({ audioUrl: media('sample.mp3'), text: script });
		expect(output).toBe('failed');
		expect((msg.error as { message: string }).message).toMatch(/pauseSec/);
		expect(env.emulator.requests({ method: 'POST', path: '/api/v1/audio/align' })).toHaveLength(0);
	});
});
