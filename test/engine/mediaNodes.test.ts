import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { speechAudio } from '../emulator/speechAudio';
import { useEngine } from '../support/engine';

/** Image, Text to Speech, Align and Understand: synchronous operations with files in and out. */
const engine = useEngine({}, { binaryMode: 'filesystem' });
const fixture = (name: string) => readFileSync(join(__dirname, '../emulator/media', name));

beforeEach(() => engine.emu.reset());

test('Image: generate with a binary and a URL reference puts the PNG in binary; list models', async () => {
	const result = await engine.run('test/workflows/image.json', [
		{ prompt: 'The bottle on a beach at sunset' },
	]);
	expect(result.error).toBeUndefined();
	const [image] = result.output('Generate Image');
	expect(image.json).toMatchObject({ model_id: 'nano-banana-2', cost_credit: 6 });
	expect(image.json.url).toMatch(/\/media\/images\/.+\.png$/);
	expect(image.binary?.image).toMatchObject({ mimeType: 'image/png', fileExtension: 'png' });
	expect((await result.binary('Generate Image', 0, 'image')).equals(fixture('sample.png'))).toBe(
		true,
	);
	expect(engine.emu.ledger().map((e) => e.credits)).toEqual([6]);
	// The result file came from the media origin without the key.
	expect(engine.emu.requests({ origin: 'media' }).every((r) => r.apiKey === 'absent')).toBe(true);
	const models = result.output('List Image Models');
	expect(models.map((m) => m.json.model_id)).toContain('seedream-5.0-lite');
	expect(
		models.find((m) => m.json.model_id === 'nano-banana-2')?.json.credit_by_resolution,
	).toEqual({ '1K': 4, '2K': 6 });
});

test('Image: a resolution the model does not offer fails before anything is charged', async () => {
	const workflow = JSON.parse(readFileSync(join(__dirname, '../workflows/image.json'), 'utf8'));
	workflow.nodes.find((n: { name: string }) => n.name === 'Generate Image').parameters.resolution =
		'4K';
	const result = await engine.harness.run(workflow, {
		credentials: engine.credentials,
		pinData: {
			'When clicking ‘Execute workflow’': [
				{ json: { mediaBase: engine.emu.mediaBaseUrl, prompt: 'x' } },
			],
		},
	});
	expect(result.error?.message).toMatch(
		/"Resolution Name or ID" \(resolution\).*"4K" is not offered by nano-banana-2; allowed: 1K, 2K/,
	);
	expect(engine.emu.requests({ method: 'POST' })).toHaveLength(0);
});

test('Text to Speech: the MP3 comes out as a named binary with duration, characters and cost', async () => {
	const text = 'Welcome to our store. Today only, everything is twenty percent off.';
	const result = await engine.run('test/workflows/text-to-speech.json', [{ text }]);
	expect(result.error).toBeUndefined();
	const [speech] = result.output('Synthesize Speech');
	expect(speech.json).toMatchObject({
		characters: text.length,
		cost_credit: 2,
		voice_id: 'Alice',
		mime_type: 'audio/mpeg',
		file_name: 'welcome.mp3',
	});
	expect(speech.json.duration_sec).toBeGreaterThan(0);
	expect(speech.binary?.data).toMatchObject({ fileName: 'welcome.mp3', mimeType: 'audio/mpeg' });
	expect((await result.binary('Synthesize Speech')).equals(speechAudio(text.length).mp3)).toBe(
		true,
	);
});

test('Align: speech → word timings, and a transcript with speakers and an .srt file', async () => {
	const text = 'Hello there. Thanks for watching.';
	const result = await engine.run('test/workflows/align.json', [{ text }]);
	expect(result.error).toBeUndefined();
	const [aligned] = result.output('Align Words');
	const words = aligned.json.words as Array<{ text: string; start_sec: number; end_sec: number }>;
	expect(words.map((w) => w.text).join(' ')).toBe(text);
	expect(
		words.every(
			(w, i) => w.end_sec > w.start_sec && (i === 0 || w.start_sec >= words[i - 1].end_sec),
		),
	).toBe(true);
	const [transcript] = result.output('Transcribe');
	expect(transcript.json.srt).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\n/);
	expect(
		(transcript.json.words as Array<{ speaker?: string }>).every((w) =>
			/^SPEAKER_/.test(w.speaker ?? ''),
		),
	).toBe(true);
	expect(transcript.binary?.data).toMatchObject({
		fileName: 'subtitles.srt',
		mimeType: 'application/x-subrip',
	});
	expect((await result.binary('Transcribe')).toString('utf8')).toBe(transcript.json.srt);
});

test('Understand: a field list becomes a JSON Schema the output follows; a pasted JSON Schema works too', async () => {
	const result = await engine.run('test/workflows/understand.json');
	expect(result.error).toBeUndefined();
	const [fields] = result.output('Analyze With Fields');
	const output = fields.json.output as Record<string, unknown>;
	expect(Object.keys(output).sort()).toEqual(expect.arrayContaining(['mood', 'score', 'tags']));
	expect(['happy', 'calm', 'sad']).toContain(output.mood);
	expect(Array.isArray(output.tags)).toBe(true);
	expect(typeof output.score).toBe('number');
	expect(fields.json.cost_credit).toBeGreaterThanOrEqual(1);
	expect(fields.json.usage).toMatchObject({ input_tokens: expect.any(Number) });
	const [json] = result.output('Analyze With JSON Schema');
	expect(json.json.output).toEqual({ category: 'product', confidence: 0 });
	expect(engine.emu.ledger().filter((e) => e.kind === 'charge')).toHaveLength(2);
});

test('Asset: a file n8n keeps on disk is streamed up, byte for byte (the service deduplicates it with the same file by URL)', async () => {
	const bytes = 24 * 1024 * 1024 + 1;
	const result = await engine.run('test/workflows/asset-large.json', [{ bytes }]);
	expect(result.error).toBeUndefined();
	const [streamed] = result.output('Upload Asset');
	const [byUrl] = result.output('Upload Same By URL');
	expect(streamed.json.kind).toBe('video');
	expect(byUrl.json.asset_id).toBe(streamed.json.asset_id);
	const [upload] = engine.emu.requests({ method: 'POST', path: '/api/v1/asset' });
	expect(upload.bodyBytes).toBe(
		Buffer.byteLength('{"inline_data":{"data":"","mime_type":"video/mp4"}}') +
			4 * Math.ceil(bytes / 3),
	);
});
