/**
 * The five manually started examples, each run once with `n8n execute` and checked against what a
 * user would look at (the files, the JSON) and what the service recorded (tasks, charges).
 */
import { nodeOutput, readBinary, type ExecutionResult, type RunItem } from '../../scripts/n8n/runData';
import { speechAudio } from '../emulator/speechAudio';
import { fetchBytes, parseSrt, sniff } from './media';
import type { SuiteContext } from './realN8n';

const PACKAGE_PREFIX = 'n8n-nodes-visionstory.';

interface FileExpectation {
	mimeType: string;
	kind: ReturnType<typeof sniff> | 'srt';
	extension: string;
	fileName?: string;
}

/** The item's `data` binary, checked for label and content; returns its bytes. */
function expectFile(result: ExecutionResult, item: RunItem, expected: FileExpectation): Buffer {
	const ref = item.binary?.data;
	if (!ref) throw new Error(`no binary "data" on the item: ${JSON.stringify(item.json).slice(0, 300)}`);
	expect(ref.mimeType).toBe(expected.mimeType);
	expect(ref.fileExtension).toBe(expected.extension);
	if (expected.fileName) expect(ref.fileName).toBe(expected.fileName);
	else expect(ref.fileName).toMatch(new RegExp(`\\.${expected.extension}$`));
	const bytes = readBinary(result.userFolder, ref);
	expect(bytes.length).toBeGreaterThan(expected.kind === 'srt' ? 20 : 1000);
	if (ref.bytes !== undefined) expect(ref.bytes).toBe(bytes.length);
	if (expected.kind !== 'srt') expect(sniff(bytes)).toBe(expected.kind);
	return bytes;
}

function single(result: ExecutionResult, node: string): RunItem {
	const items = nodeOutput(result, node);
	expect(items).toHaveLength(1);
	return items[0];
}

/** n8n needs pairedItem on every item for expressions like $('Node').item; our nodes must set it. */
function expectPairedItems(ctx: SuiteContext, key: string, result: ExecutionResult): void {
	const ours = ctx.session.examples[key].nodes.filter((n) => n.type.startsWith(PACKAGE_PREFIX)).map((n) => n.name);
	for (const node of ours) for (const item of nodeOutput(result, node)) expect(item.pairedItem).toBeDefined();
}

function chargesOf(run: { charges: Array<{ operation: string; kind: string; credits: number }> }): Array<[string, string, number]> {
	return run.charges.map((c) => [c.operation, c.kind, c.credits]);
}

function setValue(ctx: SuiteContext, key: string, node: string, field: string): string {
	const set = ctx.session.examples[key].nodes.find((n) => n.name === node);
	const value = (set?.parameters.assignments?.assignments as Array<{ name: string; value: string }> | undefined)?.find((a) => a.name === field)?.value;
	if (typeof value !== 'string') throw new Error(`example ${key} has no ${node}.${field}`);
	return value;
}

export function describeExampleChecks(ctx: SuiteContext, title = 'manual examples run with `n8n execute`'): void {
	describe(title, () => {
		test('script-to-talking-video: a 9:16 MP4 of a public avatar, one task, one charge', async () => {
			const run = await ctx.runExample('script-to-talking-video');
			const avatar = single(run.result, 'Pick Public Avatar');
			expect(avatar.json.avatar_id).toEqual(expect.any(String));
			const video = single(run.result, 'Create Talking Video');
			expect(video.json).toMatchObject({ status: 'created', aspect_ratio: '9:16', cost_credit: 10 });
			expect(video.json.video_id).toMatch(/^vid_/);
			const bytes = expectFile(run.result, video, { mimeType: 'video/mp4', kind: 'mp4', extension: 'mp4' });
			expect(bytes.equals(await fetchBytes(video.json.video_url))).toBe(true);
			expect(run.newTasks).toEqual([expect.objectContaining({ kind: 'talkingVideo', video_id: video.json.video_id, status: 'created' })]);
			expect(chargesOf(run)).toEqual([['talking_video', 'charge', 10]]);
			expect(run.charges[0].refId).toBe(video.json.video_id);
			expectPairedItems(ctx, 'script-to-talking-video', run.result);
		});

		test('image-to-avatar-to-talking-video: portrait PNG, new avatar, 16:9 MP4 with it', async () => {
			const run = await ctx.runExample('image-to-avatar-to-talking-video');
			const portrait = single(run.result, 'Generate Portrait');
			expect(portrait.json.height).toBeGreaterThan(portrait.json.width);
			const png = expectFile(run.result, portrait, { mimeType: 'image/png', kind: 'png', extension: 'png' });
			expect(png.equals(await fetchBytes(portrait.json.url))).toBe(true);
			const avatar = single(run.result, 'Create Avatar');
			expect(avatar.json.avatar_id).toMatch(/^avt_/);
			// The avatar was made from the generated portrait, sent as the node's binary input.
			const avatarPosts = ctx.emulator.requests({ method: 'POST', path: '/api/v1/avatar' });
			expect(avatarPosts.at(-1)!.bodyBytes).toBeGreaterThan(png.length);
			const video = single(run.result, 'Create Talking Video');
			expect(video.json).toMatchObject({ status: 'created', aspect_ratio: '16:9' });
			const mp4 = expectFile(run.result, video, { mimeType: 'video/mp4', kind: 'mp4', extension: 'mp4' });
			expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			expect(run.newTasks).toEqual([expect.objectContaining({ kind: 'talkingVideo', video_id: video.json.video_id, status: 'created' })]);
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
			const png = expectFile(run.result, photo, { mimeType: 'image/png', kind: 'png', extension: 'png' });
			expect(photo.json.width).toBeGreaterThan(photo.json.height);
			const video = single(run.result, 'Create AI Video');
			expect(video.json).toMatchObject({ status: 'created', model_id: first.json.model_id });
			expect(video.json.video_id).toMatch(/^aiv_/);
			const mp4 = expectFile(run.result, video, { mimeType: 'video/mp4', kind: 'mp4', extension: 'mp4' });
			expect(mp4.equals(await fetchBytes(video.json.video_url))).toBe(true);
			const submits = ctx.emulator.requests({ method: 'POST', path: '/api/v1/ai_video' });
			expect(submits.at(-1)!.bodyBytes).toBeGreaterThan(png.length);
			expect(run.newTasks).toEqual([expect.objectContaining({ kind: 'aiVideo', video_id: video.json.video_id, status: 'created' })]);
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
			const mp3 = expectFile(run.result, speech, { mimeType: 'audio/mpeg', kind: 'mp3', extension: 'mp3', fileName: 'voice-over.mp3' });
			expect(mp3.equals(speechAudio(text.length).mp3)).toBe(true);

			const timings = single(run.result, 'Word Timings');
			const words = timings.json.words as Array<{ text: string; start_sec: number; end_sec: number }>;
			expect(words.map((w) => w.text)).toEqual(text.split(/\s+/));
			for (let i = 1; i < words.length; i++) expect(words[i].start_sec).toBeGreaterThanOrEqual(words[i - 1].end_sec - 1e-6);
			expect(words.at(-1)!.end_sec).toBeLessThanOrEqual(speech.json.duration_sec + 1e-6);

			const subtitles = single(run.result, 'Subtitles');
			const srt = expectFile(run.result, subtitles, { mimeType: 'application/x-subrip', kind: 'srt', extension: 'srt', fileName: 'voice-over.srt' }).toString('utf8');
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
			const fields = analyze.parameters.fields.field as Array<{ name: string; type: string; allowedValues?: string }>;
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
	});
}
