import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from './mediaProbe';

/** The committed sample files: what rendered videos, generated images, TTS audio and previews are made of. */
function load(name: string): Buffer {
	return readFileSync(join(__dirname, 'media', name));
}

export const FIXTURES = {
	mp3: { bytes: load('sample.mp3'), type: 'audio/mpeg' },
	png: { bytes: load('sample.png'), type: 'image/png' },
	mp4: { bytes: load('sample.mp4'), type: 'video/mp4' },
	wav: { bytes: load('sample.wav'), type: 'audio/wav' },
} as const;

export type FixtureName = keyof typeof FIXTURES;

/** Length of the sample speech; TTS reports it because it is what the client actually receives. */
export const SAMPLE_MP3_SECONDS = probe(FIXTURES.mp3.bytes)?.durationSec ?? 0;

/** What the sample clips say, so transcription of them returns their real words. */
export const SAMPLE_TRANSCRIPT = 'Hello from the VisionStory emulator. This is a sample clip.';
