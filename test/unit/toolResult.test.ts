import type { INodeExecutionData } from 'n8n-workflow';

import {
	MAX_TOOL_RESULT_CHARS,
	toolOutput,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/framework/toolResult';

/** What n8n hands a model from a tool: the JSON of the first output's items. */
const handedToModel = (outputs: INodeExecutionData[][]) =>
	JSON.stringify(toolOutput(outputs)[0].map((item) => item.json));

test('a long list is cut to the bound, ending with a note that tells the model how many were left out', () => {
	const voices = Array.from({ length: 2000 }, (_, i) => ({
		json: {
			voice_id: `voice-${i}`,
			name: `Voice number ${i}`,
			preview_audio_url: `https://cdn.example/voices/${i}.mp3`,
		},
	}));
	const [items] = toolOutput([voices]);
	const text = handedToModel([voices]);
	expect(text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
	const note = items.at(-1)!.json;
	expect(note).toMatchObject({ truncated: true, omittedItems: 2000 - (items.length - 1) });
	expect(String(note.hint)).toMatch(/ask for fewer/);
	expect(items[0].json.voice_id).toBe('voice-0');
});

test('one huge item is shortened field by field: long strings and long arrays, with what was left out', () => {
	const words = Array.from({ length: 5000 }, (_, i) => ({
		text: `word${i}`,
		start_sec: i,
		end_sec: i + 0.5,
	}));
	const transcript = 'lorem ipsum '.repeat(5000);
	const text = handedToModel([[{ json: { text: transcript, words, cost_credit: 3 } }]]);
	expect(text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
	const [json] = JSON.parse(text) as Array<{ text: string; words: unknown[]; cost_credit: number }>;
	expect(json.cost_credit).toBe(3);
	expect(json.text).toMatch(
		/… \(60000 characters in all; the full text is in the workflow's output\)$/,
	);
	expect(json.words).toHaveLength(51);
	expect(json.words.at(-1)).toBe("… 4950 more entries in the workflow's output");
});

test('every output becomes one list (a tool has one), files stay in binary and out of the JSON', () => {
	const finished = {
		json: { video_id: 'vid_1', status: 'created', video_url: 'https://cdn.example/vid_1.mp4' },
		binary: { data: { data: 'AAAA'.repeat(10_000), mimeType: 'video/mp4' } },
	};
	const rendering = { json: { video_id: 'vid_2', status: 'creating' } };
	const [items] = toolOutput([[finished], [rendering]]);
	expect(items.map((i) => i.json.video_id)).toEqual(['vid_1', 'vid_2']);
	expect(items[0].binary).toBe(finished.binary);
	expect(handedToModel([[finished], [rendering]])).not.toMatch(/AAAA/);
});
