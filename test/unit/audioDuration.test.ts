import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	audioDurationSec,
	DURATION_HEADER_BYTES,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/audioDuration';
import { mp3DurationSec } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { speechAudio } from '../emulator/speechAudio';

const fixture = (name: string) => readFileSync(join(__dirname, '../emulator/media', name));
const head = (file: Buffer) => file.subarray(0, DURATION_HEADER_BYTES);

test('an MP3 measured from its header agrees with a count of all its frames', () => {
	for (const file of [fixture('sample.mp3'), speechAudio(2400).mp3]) {
		const seconds = audioDurationSec('audio/mpeg', head(file), file.length);
		expect(seconds).toBeDefined();
		expect(Math.abs(seconds! - mp3DurationSec(file))).toBeLessThan(0.1);
	}
});

test('a WAV is measured from its format and data chunks', () => {
	const file = fixture('sample.wav');
	const byteRate = file.readUInt32LE(28);
	const seconds = audioDurationSec('audio/wav', head(file), file.length);
	expect(seconds).toBeGreaterThan(0);
	expect(seconds).toBeLessThanOrEqual((file.length - 44) / byteRate);
});

test('anything else, or a header that does not say, has no duration', () => {
	expect(audioDurationSec('audio/mpeg', Buffer.from('not an mp3 at all'), 17)).toBeUndefined();
	expect(audioDurationSec('audio/wav', Buffer.from('RIFF....WAVEjunk'), 16)).toBeUndefined();
	expect(
		audioDurationSec('video/mp4', fixture('sample.mp4'), fixture('sample.mp4').length),
	).toBeUndefined();
});
