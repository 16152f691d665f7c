import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface Decoded {
	samplesDecoded: number;
	sampleRate: number;
	errors: string[];
}

/**
 * What a real decoder (mpg123) makes of an MP3: `raw` with every frame decoded, `gapless` with the
 * encoder delay and padding from a LAME tag trimmed and the Xing frame count honoured.
 */
export function decodeMp3(mp3: Uint8Array): { raw: Decoded; gapless: Decoded } {
	const out = execFileSync(process.execPath, [join(__dirname, 'mpg123.mjs')], {
		input: mp3,
		maxBuffer: 1 << 20,
		cwd: join(__dirname, '../..'),
	});
	return JSON.parse(out.toString('utf8'));
}
