// Decodes the MP3 on stdin with mpg123 (compiled to WebAssembly) and prints what it got as JSON.
// A separate process because the decoder is an ES module, which jest's CommonJS loader cannot import.
import { MPEGDecoder } from 'mpg123-decoder';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = new Uint8Array(Buffer.concat(chunks));
const result = {};
for (const gapless of [false, true]) {
	const decoder = new MPEGDecoder({ enableGapless: gapless });
	await decoder.ready;
	const { samplesDecoded, sampleRate, errors } = decoder.decode(input);
	result[gapless ? 'gapless' : 'raw'] = {
		samplesDecoded,
		sampleRate,
		errors: errors.map((e) => e.message),
	};
	decoder.free();
}
process.stdout.write(JSON.stringify(result));
