import { decodeMp3 } from '../support/decodeMp3';
import { startEmulator, type Emulator } from './index';
import { probe } from './mediaProbe';
import { SECONDS_PER_CHARACTER } from './speechAudio';
import { api, fixture, type Answer } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual' });
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const FRAME_SEC = 576 / 22050;

describe('TTS audio', () => {
	test('lasts about 60 ms a character, as an ID3v2 tag, an Info frame and audio frames that mpg123 decodes', async () => {
		const lengths = [1, 180, 2999];
		const answers: Answer[] = [];
		for (const n of lengths) {
			const text = 'Speak this clearly. '.repeat(Math.ceil(n / 20)).slice(0, n);
			const r = await api(emu, 'POST', '/api/v1/tts', { body: { text, voice_id: 'Echo' } });
			expect(r.status).toBe(200);
			answers.push(r);
		}
		answers.forEach((r, i) => {
			const seconds = Number(r.headers['x-audio-duration-sec']);
			expect(
				Math.abs(seconds - Math.max(lengths[i] * SECONDS_PER_CHARACTER, FRAME_SEC)),
			).toBeLessThanOrEqual(FRAME_SEC / 2 + 0.001);
			expect(r.raw.toString('latin1', 0, 3)).toBe('ID3');
			const tagEnd = 10 + r.raw.subarray(6, 10).reduce((n, b) => n * 128 + b, 0);
			expect(r.raw.toString('latin1', tagEnd + 4 + 9, tagEnd + 4 + 9 + 4)).toBe('Info');
			// The emulator's probe reads the Info frame's frame count.
			expect(probe(r.raw)!.durationSec).toBeCloseTo(seconds, 3);
		});
		const longest = answers.at(-1)!;
		const decoded = decodeMp3(longest.raw);
		expect(decoded.raw.errors).toEqual([]);
		expect(decoded.raw.samplesDecoded % 576).toBe(0);
		expect(decoded.raw.samplesDecoded / decoded.raw.sampleRate).toBeCloseTo(
			Number(longest.headers['x-audio-duration-sec']),
			3,
		);
		// Gapless trimming reads the LAME tag, rewritten for the new length: it trims what the sample's trims.
		const sample = decodeMp3(fixture('sample.mp3'));
		expect(decoded.raw.samplesDecoded - decoded.gapless.samplesDecoded).toBe(
			sample.raw.samplesDecoded - sample.gapless.samplesDecoded,
		);
		expect(decoded.gapless.samplesDecoded).toBeLessThan(decoded.raw.samplesDecoded);
	});

	test("the request log keeps each call's text, refused and failed ones too; charges are as before", async () => {
		const texts = ['First part.', 'x'.repeat(3001), 'Second part [fail].', 'Third part.'];
		const statuses: number[] = [];
		for (const text of texts)
			statuses.push(
				(await api(emu, 'POST', '/api/v1/tts', { body: { text, voice_id: 'Echo' } })).status,
			);
		expect(statuses).toEqual([200, 422, 500, 200]);
		expect(emu.requests({ path: '/api/v1/tts' }).map((e) => [e.text, e.status])).toEqual(
			texts.map((t, i) => [t, statuses[i]]),
		);
		expect(emu.ledger().map((e) => [e.operation, e.credits])).toEqual([
			['tts', 2],
			['tts', 2],
		]);
	});
});
