/**
 * The manually started examples, each run once as the editor's Execute Workflow runs it, and checked against what a user
 * would look at (the files, the JSON) and what the service recorded (requests, tasks, charges).
 */
import { TTS_TEXT_MAX } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/contract';
import {
	CAPTION_DEFAULTS,
	displayWidth,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/captions/captions';
import { parseMp3 } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import {
	nodeOutput,
	readBinary,
	type ExecutionResult,
	type RunItem,
} from '../../scripts/n8n/runData';
import { speechAudio } from '../emulator/speechAudio';
import { parseSrt as readSrt, parseVtt, type ParsedCue } from '../support/subtitles';
import { csvRecords, fetchBytes, parseSrt, sniff } from './media';
import type { ExampleRun, SuiteContext } from './realN8n';

const PACKAGE_PREFIX = 'n8n-nodes-visionstory.';

interface FileExpectation {
	mimeType: string;
	/** What the bytes are; 'text' for subtitle files, which have no magic number. */
	kind: ReturnType<typeof sniff> | 'text';
	extension: string;
	fileName?: string;
	/** The binary field; `data` unless told. */
	field?: string;
}

/** One binary field of the item, checked for label and content; returns its bytes. */
function expectFile(result: ExecutionResult, item: RunItem, expected: FileExpectation): Buffer {
	const field = expected.field ?? 'data';
	const ref = item.binary?.[field];
	if (!ref)
		throw new Error(`no binary "${field}" on the item: ${JSON.stringify(item.json).slice(0, 300)}`);
	expect(ref.mimeType).toBe(expected.mimeType);
	expect(ref.fileExtension).toBe(expected.extension);
	if (expected.fileName) expect(ref.fileName).toBe(expected.fileName);
	else expect(ref.fileName).toMatch(new RegExp(`\\.${expected.extension}$`));
	const bytes = readBinary(result.userFolder, ref);
	expect(bytes.length).toBeGreaterThan(expected.kind === 'text' ? 20 : 1000);
	if (ref.bytes !== undefined) expect(ref.bytes).toBe(bytes.length);
	if (expected.kind !== 'text') expect(sniff(bytes)).toBe(expected.kind);
	return bytes;
}

function single(result: ExecutionResult, node: string): RunItem {
	const items = nodeOutput(result, node);
	expect(items).toHaveLength(1);
	return items[0];
}

/** n8n needs pairedItem on every item for expressions like $('Node').item; our nodes must set it. */
function expectPairedItems(ctx: SuiteContext, key: string, result: ExecutionResult): void {
	const ours = ctx.session.examples[key].nodes
		.filter((n) => n.type.startsWith(PACKAGE_PREFIX))
		.map((n) => n.name);
	for (const node of ours)
		for (const item of nodeOutput(result, node)) expect(item.pairedItem).toBeDefined();
}

function chargesOf(run: {
	charges: Array<{ operation: string; kind: string; credits: number }>;
}): Array<[string, string, number]> {
	return run.charges.map((c) => [c.operation, c.kind, c.credits]);
}

function setValue(ctx: SuiteContext, key: string, node: string, field: string): string {
	const set = ctx.session.examples[key].nodes.find((n) => n.name === node);
	const value = (
		set?.parameters.assignments?.assignments as Array<{ name: string; value: string }> | undefined
	)?.find((a) => a.name === field)?.value;
	if (typeof value !== 'string') throw new Error(`example ${key} has no ${node}.${field}`);
	return value;
}

function requestsTo(run: ExampleRun, method: string, path: string): ExampleRun['requests'] {
	return run.requests.filter((r) => r.method === method && r.path === path);
}

/** A Set value like `=Hi {{ $json.name }}!` filled in from one item's fields (plain `$json.field` expressions only). */
function fillTemplate(template: string, json: Record<string, unknown>): string {
	const filled = template
		.replace(/^=/, '')
		.replace(/\{\{\s*\$json\.(\w+)\s*\}\}/g, (_, field: string) => String(json[field]));
	if (filled.includes('{{'))
		throw new Error(`the template has expressions this check cannot fill in: ${template}`);
	return filled;
}

/** What breaks the captions a player shows: words lost, added or moved, cues out of order or beyond the node's default limits. */
function captionProblems(cues: ParsedCue[], words: string[]): string[] {
	const problems: string[] = [];
	const shown = cues.flatMap((c) => c.text.split(/\s+/));
	if (shown.join(' ') !== words.join(' '))
		problems.push('the cues do not show every word once and in order');
	cues.forEach((cue, i) => {
		const lines = cue.text.split('\n');
		if (cue.end <= cue.start) problems.push(`cue ${i + 1} ends at or before its start`);
		if (i > 0 && cue.start < cues[i - 1].end)
			problems.push(`cue ${i + 1} starts before cue ${i} ends`);
		if (cue.end - cue.start > CAPTION_DEFAULTS.maxCueDurationSec * 1000)
			problems.push(`cue ${i + 1} lasts ${cue.end - cue.start} ms`);
		if (lines.length > CAPTION_DEFAULTS.maxLinesPerCue)
			problems.push(`cue ${i + 1} has ${lines.length} lines`);
		for (const line of lines)
			if (displayWidth(line) > CAPTION_DEFAULTS.maxCharsPerLine)
				problems.push(`cue ${i + 1} has a line of ${displayWidth(line)} columns`);
	});
	return problems;
}

export function describeExampleChecks(
	ctx: SuiteContext,
	title = 'manual examples run from the editor API',
): void {
	describe(title, () => {
		test('script-to-talking-video: a 9:16 MP4 of a public avatar, one task, one charge', async () => {
			const run = await ctx.runExample('script-to-talking-video');
			const avatar = single(run.result, 'Pick Public Avatar');
			expect(avatar.json.avatar_id).toEqual(expect.any(String));
			const video = single(run.result, 'Create Talking Video');
			expect(video.json).toMatchObject({
				status: 'created',
				aspect_ratio: '9:16',
				cost_credit: 10,
			});
			expect(video.json.video_id).toMatch(/^vid_/);
			const bytes = expectFile(run.result, video, {
				mimeType: 'video/mp4',
				kind: 'mp4',
				extension: 'mp4',
			});
			expect(bytes.equals(await fetchBytes(video.json.video_url))).toBe(true);
			expect(run.newTasks).toEqual([
				expect.objectContaining({
					kind: 'talkingVideo',
					video_id: video.json.video_id,
					status: 'created',
				}),
			]);
			expect(chargesOf(run)).toEqual([['talking_video', 'charge', 10]]);
			expect(run.charges[0].refId).toBe(video.json.video_id);
			expectPairedItems(ctx, 'script-to-talking-video', run.result);
		});

		test('image-to-avatar-to-talking-video: portrait PNG, new avatar, 16:9 MP4 with it', async () => {
			const run = await ctx.runExample('image-to-avatar-to-talking-video');
			const portrait = single(run.result, 'Generate Portrait');
			expect(portrait.json.height).toBeGreaterThan(portrait.json.width);
			const png = expectFile(run.result, portrait, {
				mimeType: 'image/png',
				kind: 'png',
				extension: 'png',
			});
			expect(png.equals(await fetchBytes(portrait.json.url))).toBe(true);
			const avatar = single(run.result, 'Create Avatar');
			expect(avatar.json.avatar_id).toMatch(/^avt_/);
			// The avatar was made from the generated portrait, sent as the node's binary input.
			const avatarPosts = ctx.emulator.requests({ method: 'POST', path: '/api/v1/avatar' });
			expect(avatarPosts.at(-1)!.bodyBytes).toBeGreaterThan(png.length);
			const video = single(run.result, 'Create Talking Video');
			expect(video.json).toMatchObject({ status: 'created', aspect_ratio: '16:9' });
			const mp4 = expectFile(run.result, video, {
				mimeType: 'video/mp4',
				kind: 'mp4',
				extension: 'mp4',
			});
			expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			expect(run.newTasks).toEqual([
				expect.objectContaining({
					kind: 'talkingVideo',
					video_id: video.json.video_id,
					status: 'created',
				}),
			]);
			expect(chargesOf(run)).toEqual([
				['image', 'charge', portrait.json.cost_credit],
				['talking_video', 'charge', video.json.cost_credit],
			]);
			expectPairedItems(ctx, 'image-to-avatar-to-talking-video', run.result);
		});

		test('product-photo-to-ai-video: the first listed model animates the photo as first frame', async () => {
			const run = await ctx.runExample('product-photo-to-ai-video');
			const models = nodeOutput(run.result, 'AI Video Models');
			expect(models.length).toBeGreaterThan(0);
			const first = single(run.result, 'First Model');
			expect(first.json.model_id).toBe(models[0].json.model_id);
			const photo = single(run.result, 'Product Photo');
			const png = expectFile(run.result, photo, {
				mimeType: 'image/png',
				kind: 'png',
				extension: 'png',
			});
			expect(photo.json.width).toBeGreaterThan(photo.json.height);
			const video = single(run.result, 'Create AI Video');
			expect(video.json).toMatchObject({ status: 'created', model_id: first.json.model_id });
			expect(video.json.video_id).toMatch(/^aiv_/);
			const mp4 = expectFile(run.result, video, {
				mimeType: 'video/mp4',
				kind: 'mp4',
				extension: 'mp4',
			});
			expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			const submits = ctx.emulator.requests({ method: 'POST', path: '/api/v1/ai_video' });
			expect(submits.at(-1)!.bodyBytes).toBeGreaterThan(png.length);
			expect(run.newTasks).toEqual([
				expect.objectContaining({
					kind: 'aiVideo',
					video_id: video.json.video_id,
					status: 'created',
				}),
			]);
			expect(chargesOf(run)).toEqual([
				['image', 'charge', photo.json.cost_credit],
				['ai_video', 'charge', video.json.cost_credit],
			]);
			expect(video.json.cost_credit).toBeGreaterThan(0);
			expectPairedItems(ctx, 'product-photo-to-ai-video', run.result);
		});

		test('text-to-speech-subtitles: MP3, a timing for every word, an SRT file', async () => {
			const key = 'text-to-speech-subtitles';
			const text = setValue(ctx, key, 'Text', 'text');
			const run = await ctx.runExample(key);
			const speech = single(run.result, 'Text to Speech');
			expect(speech.json).toMatchObject({ characters: text.length, voice_id: 'Alice' });
			expect(speech.json.duration_sec).toBeGreaterThan(0);
			const mp3 = expectFile(run.result, speech, {
				mimeType: 'audio/mpeg',
				kind: 'mp3',
				extension: 'mp3',
				fileName: 'voice-over.mp3',
			});
			expect(mp3.equals(speechAudio(text.length).mp3)).toBe(true);

			const timings = single(run.result, 'Word Timings');
			const words = timings.json.words as Array<{
				text: string;
				start_sec: number;
				end_sec: number;
			}>;
			expect(words.map((w) => w.text)).toEqual(text.split(/\s+/));
			for (let i = 1; i < words.length; i++)
				expect(words[i].start_sec).toBeGreaterThanOrEqual(words[i - 1].end_sec - 1e-6);
			expect(words.at(-1)!.end_sec).toBeLessThanOrEqual(speech.json.duration_sec + 1e-6);

			const subtitles = single(run.result, 'Subtitles');
			const srt = expectFile(run.result, subtitles, {
				mimeType: 'application/x-subrip',
				kind: 'text',
				extension: 'srt',
				fileName: 'voice-over.srt',
			}).toString('utf8');
			expect(srt).toBe(subtitles.json.srt);
			const cues = parseSrt(srt);
			expect(cues.length).toBeGreaterThan(0);
			expect(cues.map((c) => c.text).join(' ')).toBe(subtitles.json.text);

			expect(run.newTasks).toEqual([]);
			expect(chargesOf(run)).toEqual([
				['tts', 'charge', speech.json.cost_credit],
				['align', 'charge', timings.json.cost_credit],
				['transcribe', 'charge', subtitles.json.cost_credit],
			]);
			expectPairedItems(ctx, key, run.result);
		});

		test('media-to-structured-json: every field of the field list, typed and within its allowed values', async () => {
			const key = 'media-to-structured-json';
			const analyze = ctx.session.examples[key].nodes.find((n) => n.name === 'Analyze Image')!;
			const fields = analyze.parameters.fields.field as Array<{
				name: string;
				type: string;
				allowedValues?: string;
			}>;
			const run = await ctx.runExample(key);
			const result = single(run.result, 'Campaign Fields').json;
			for (const field of fields) {
				const value = result[field.name];
				if (field.type === 'integer') expect(Number.isInteger(value)).toBe(true);
				else if (field.type === 'array') expect(Array.isArray(value)).toBe(true);
				else expect(typeof value).toBe(field.type);
				if (field.allowedValues) expect(field.allowedValues.split(/\s*,\s*/)).toContain(value);
			}
			const understood = single(run.result, 'Analyze Image');
			expect(result.credits).toBe(understood.json.cost_credit);
			const image = single(run.result, 'Campaign Image');
			expect(run.newTasks).toEqual([]);
			expect(chargesOf(run)).toEqual([
				['image', 'charge', image.json.cost_credit],
				['understand', 'charge', 1],
			]);
			expectPairedItems(ctx, key, run.result);
		});
		test('long-script-to-voice-over-and-captions: one MP3 spoken in parts, word timings, SRT and WebVTT, a talking video lip-synced to the MP3', async () => {
			const key = 'long-script-to-voice-over-and-captions';
			const script = setValue(ctx, key, 'Script', 'script');
			expect(script.length).toBeGreaterThan(TTS_TEXT_MAX);
			const run = await ctx.runExample(key);
			const avatar = single(run.result, 'Pick Public Avatar');

			// Spoken in parts of at most one call each, every part once, all with the same voice and locale.
			const ttsCalls = requestsTo(run, 'POST', '/api/v1/tts');
			const parts = ttsCalls.map((r) => String(r.text));
			expect(parts.length).toBeGreaterThan(1);
			expect(parts.every((p) => p.length <= TTS_TEXT_MAX && script.includes(p))).toBe(true);
			expect(new Set(parts).size).toBe(parts.length);
			const inOrder = [...parts].sort((a, b) => script.indexOf(a) - script.indexOf(b));
			expect(inOrder.join('').replace(/\s/g, '')).toBe(script.replace(/\s/g, ''));
			expect(new Set(ttsCalls.map((r) => JSON.stringify(r.settings))).size).toBe(1);
			expect(ttsCalls[0].settings?.voice_id).toBe(avatar.json.default_voice_id);

			// One MP3 that players read as one track as long as the parts together.
			const voice = single(run.result, 'Voice-Over');
			expect(voice.json).toMatchObject({
				parts: parts.length,
				voice_id: avatar.json.default_voice_id,
				characters: parts.reduce((n, p) => n + p.length, 0),
			});
			const mp3 = expectFile(run.result, voice, {
				mimeType: 'audio/mpeg',
				kind: 'mp3',
				extension: 'mp3',
				fileName: 'voice-over.mp3',
			});
			const stream = parseMp3(mp3);
			expect(stream.junk).toEqual([]);
			expect(stream.tags).toEqual([]);
			expect(stream.vbrHeaders.map((h) => h.frames)).toEqual([stream.frames.length]);
			const frameSeconds = stream.samplesPerFrame / stream.sampleRate;
			const partSeconds = parts.reduce((sum, p) => sum + speechAudio(p.length).durationSec, 0);
			expect(Math.abs(stream.durationSec - partSeconds)).toBeLessThanOrEqual(frameSeconds);
			expect(voice.json.duration_sec).toBeCloseTo(stream.durationSec, 3);
			expect(voice.json.part_durations_sec).toHaveLength(parts.length);

			// Every word of the script timed against that MP3, which was sent along.
			const captions = single(run.result, 'Captions');
			const alignCalls = requestsTo(run, 'POST', '/api/v1/audio/align');
			expect(alignCalls.map((r) => r.text)).toEqual([script]);
			expect(alignCalls[0].bodyBytes).toBeGreaterThan((mp3.length * 4) / 3);
			const words = captions.json.words as Array<{
				text: string;
				start_sec: number;
				end_sec: number;
			}>;
			expect(words.map((w) => w.text)).toEqual(script.split(/\s+/));
			expect(
				words.filter(
					(w, i) => w.end_sec < w.start_sec || (i > 0 && w.start_sec < words[i - 1].end_sec - 1e-6),
				),
			).toEqual([]);
			expect(words.at(-1)!.end_sec).toBeLessThanOrEqual(voice.json.duration_sec + 1e-6);

			// SRT and WebVTT files with the same cues, as real parsers read them, within the default limits.
			const text = captions.json.captions as { cues: number; srt: string; vtt: string };
			const srt = expectFile(run.result, captions, {
				field: 'srt',
				mimeType: 'application/x-subrip',
				kind: 'text',
				extension: 'srt',
				fileName: 'voice-over.srt',
			}).toString('utf8');
			const vtt = expectFile(run.result, captions, {
				field: 'vtt',
				mimeType: 'text/vtt',
				kind: 'text',
				extension: 'vtt',
				fileName: 'voice-over.vtt',
			}).toString('utf8');
			expect(srt).toBe(text.srt);
			expect(vtt).toBe(text.vtt);
			const cues = readSrt(srt);
			expect(cues).toHaveLength(text.cues);
			expect(parseVtt(vtt)).toEqual(cues);
			expect(
				captionProblems(
					cues,
					words.map((w) => w.text),
				),
			).toEqual([]);
			// Readable cues, not one word each; they run from the first word to the last.
			expect(cues.length).toBeLessThan(words.length / 3);
			expect(cues[0].start).toBe(Math.round(words[0].start_sec * 1000));
			expect(cues.at(-1)!.end).toBeLessThanOrEqual(Math.round(words.at(-1)!.end_sec * 1000));
			expect(cues.at(-1)!.end).toBeGreaterThan(Math.round(words.at(-1)!.start_sec * 1000));

			// The avatar lip-syncs to the same MP3, sent inline with the one request.
			const video = single(run.result, 'Create Talking Video');
			expect(video.json).toMatchObject({ status: 'created', aspect_ratio: '16:9' });
			const mp4 = expectFile(run.result, video, {
				mimeType: 'video/mp4',
				kind: 'mp4',
				extension: 'mp4',
			});
			expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			const submits = requestsTo(run, 'POST', '/api/v1/video');
			expect(submits).toHaveLength(1);
			expect(submits[0].settings?.avatar_id).toBe(avatar.json.avatar_id);
			expect(submits[0].bodyBytes).toBeGreaterThan((mp3.length * 4) / 3);
			expect(run.newTasks).toEqual([
				expect.objectContaining({
					kind: 'talkingVideo',
					video_id: video.json.video_id,
					status: 'created',
				}),
			]);

			// One charge per part, one for the alignment, one for the video, and nothing else.
			expect(run.charges.map((c) => [c.operation, c.kind])).toEqual([
				...parts.map(() => ['tts', 'charge']),
				['align', 'charge'],
				['talking_video', 'charge'],
			]);
			const ttsCharges = run.charges.slice(0, parts.length);
			expect(ttsCharges.reduce((sum, c) => sum + c.credits, 0)).toBe(voice.json.cost_credit);
			expect(ttsCharges.map((c) => c.refId).sort()).toEqual(
				[...(voice.json.audio_ids as string[])].sort(),
			);
			expect(chargesOf(run).slice(parts.length)).toEqual([
				['align', 'charge', captions.json.cost_credit],
				['talking_video', 'charge', video.json.cost_credit],
			]);
			expect(run.charges.at(-1)!.refId).toBe(video.json.video_id);
			expectPairedItems(ctx, key, run.result);
		});

		test('csv-to-personalized-talking-videos: a talking video per CSV row, all submitted before any is checked, one charge each', async () => {
			const key = 'csv-to-personalized-talking-videos';
			const csv = setValue(ctx, key, 'Sample CSV', 'csv');
			const rows = csvRecords(csv);
			expect(rows.length).toBeGreaterThan(1);
			const template = setValue(ctx, key, 'Personal Script', 'script');
			const run = await ctx.runExample(key);
			const avatar = single(run.result, 'Pick Public Avatar');

			// n8n's Convert to File and Extract from File turn the sample into one item per row.
			const file = single(run.result, 'Convert to File');
			const bytes = expectFile(run.result, file, {
				mimeType: 'text/plain',
				kind: 'text',
				extension: 'csv',
				fileName: 'contacts.csv',
			});
			expect(bytes.toString('utf8')).toBe(csv);
			expect(nodeOutput(run.result, 'Extract from File').map((i) => i.json)).toEqual(rows);
			const scripts = nodeOutput(run.result, 'Personal Script').map((i) => String(i.json.script));
			expect(scripts).toEqual(rows.map((row) => fillTemplate(template, row)));

			// A video per row, in row order, each with its MP4.
			const videos = nodeOutput(run.result, 'Create Talking Videos');
			expect(videos).toHaveLength(rows.length);
			for (const [i, video] of videos.entries()) {
				expect(video.pairedItem).toEqual({ item: i });
				expect(video.json).toMatchObject({ status: 'created', aspect_ratio: '9:16' });
				const mp4 = expectFile(run.result, video, {
					mimeType: 'video/mp4',
					kind: 'mp4',
					extension: 'mp4',
				});
				expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			}
			const ids = videos.map((v) => String(v.json.video_id));
			expect(new Set(ids).size).toBe(rows.length);

			// Submitted together, once each, then waited on together: every submission before the first status check.
			const submits = requestsTo(run, 'POST', '/api/v1/video');
			expect(submits).toHaveLength(rows.length);
			expect(submits.every((r) => r.settings?.avatar_id === avatar.json.avatar_id)).toBe(true);
			// The bodies differ only by their scripts: each row's script was sent.
			const overhead = (r: (typeof submits)[number], script: string) =>
				r.bodyBytes - Buffer.byteLength(JSON.stringify(script));
			const bySize = [...submits].sort((a, b) => a.bodyBytes - b.bodyBytes);
			const scriptsBySize = [...scripts].sort(
				(a, b) => Buffer.byteLength(JSON.stringify(a)) - Buffer.byteLength(JSON.stringify(b)),
			);
			expect(new Set(bySize.map((r, i) => overhead(r, scriptsBySize[i]))).size).toBe(1);
			const checks = requestsTo(run, 'GET', '/api/v1/video');
			expect(new Set(checks.map((r) => r.query.video_id))).toEqual(new Set(ids));
			expect(Math.max(...submits.map((r) => r.seq))).toBeLessThan(
				Math.min(...checks.map((r) => r.seq)),
			);
			expect(run.newTasks.map((t) => t.video_id).sort()).toEqual([...ids].sort());
			expect(run.newTasks.every((t) => t.kind === 'talkingVideo' && t.status === 'created')).toBe(
				true,
			);

			// One charge per row, for its video.
			expect(run.charges.map((c) => c.refId).sort()).toEqual([...ids].sort());
			expect(run.charges.every((c) => c.operation === 'talking_video' && c.kind === 'charge')).toBe(
				true,
			);
			expect(run.charges.reduce((sum, c) => sum + c.credits, 0)).toBe(
				videos.reduce((sum, v) => sum + Number(v.json.cost_credit), 0),
			);
			expectPairedItems(ctx, key, run.result);
		});
	});
}
