import { useEngine } from '../support/engine';
import { NODE, oneNode } from '../support/workflow';

/**
 * Issue 38, defect 6: Align and Transcribe always return what was paid for. Aligners leave some words
 * without times and may give an end before the start (the emulator's `oddWordTimings`): the words
 * come out as answered, captions are made from what can be used, and a caption problem is a warning
 * on the item (`captionWarning`), never a failure.
 */
const engine = useEngine();

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ oddWordTimings: true });
});

const url = (file: string) => `${engine.emu.mediaBaseUrl}/media/${file}`;
const TEXT = 'Hello there, in 2024 we grew by a third. Thanks for watching.';

/** Runs the Align node on the emulator's sample recording; its only item, after checking it did not fail. */
async function aligned(parameters: Record<string, unknown>) {
	const result = await engine.run(
		oneNode('align', { audioSource: 'url', audioUrl: url('sample.mp3'), ...parameters }),
	);
	expect(result.error).toBeUndefined();
	const [item] = result.output(NODE);
	return item;
}

interface Word {
	text: string;
	start_sec?: number | null;
	end_sec?: number | null;
}

test('Align with captions: a word ending 20 ms before it starts and words without times keep the paid item, with a caption warning', async () => {
	const item = await aligned({ operation: 'align', text: TEXT, captions: 'both' });
	const words = item.json.words as Word[];
	// The words as VisionStory answered them: every one, odd times and all.
	expect(words.map((w) => w.text).join(' ')).toBe(TEXT);
	expect(words[1].end_sec).toBeCloseTo((words[1].start_sec as number) - 0.02, 3);
	expect(words[2]).toMatchObject({ text: 'in', start_sec: null, end_sec: null });
	expect(words[3]).toMatchObject({ text: '2024', start_sec: null, end_sec: null });
	// Captions with every word, in order, and SRT and WebVTT files.
	const captions = item.json.captions as { cues: number; srt: string; vtt: string };
	expect(captions.cues).toBeGreaterThan(0);
	const captioned = captions.srt
		.trim()
		.split('\n\n')
		.map((cue) => cue.split('\n').slice(2).join(' '))
		.join(' ');
	expect(captioned).toBe(TEXT);
	expect(item.binary?.srt?.fileName).toBe('captions.srt');
	expect(item.binary?.vtt?.fileName).toBe('captions.vtt');
	expect(item.json.captionWarning).toBe(
		'Captions: 2 of 12 words came without times ("in", "2024"): the captions show them with the words around them; 1 word ends before it starts ("there,"): the captions show it from the start. The words themselves are as VisionStory answered them.',
	);
	expect(engine.emu.ledger()).toHaveLength(1);
});

test('Transcribe without captions: words without times are kept, not the answer discarded', async () => {
	const item = await aligned({ operation: 'transcribe', srt: false });
	const words = item.json.words as Word[];
	expect(words.map((w) => w.text).join(' ')).toBe(item.json.text);
	expect(words[2]).toMatchObject({ start_sec: null, end_sec: null });
	expect(item.json.captionWarning).toBeUndefined();
	expect(engine.emu.ledger()).toHaveLength(1);
});

test('Align without captions: the answer with a word without times is returned as it came', async () => {
	const item = await aligned({ operation: 'align', text: TEXT });
	expect((item.json.words as Word[]).filter((w) => w.start_sec === null)).toHaveLength(2);
	expect(item.json.cost_credit).toBe(1);
});
