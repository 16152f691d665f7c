/** Caption files read back by real parsers from the npm registry, as cues in milliseconds. */
import { parseSync, type NodeCue } from 'subtitle';
import { WebVTTParser } from 'webvtt-parser';

// The parser's own short entity table decodes some entities wrongly; its full table is shipped beside it.
const ENTITIES = require('webvtt-parser/html-entities.json') as Record<string, string>;

export interface ParsedCue {
	start: number;
	end: number;
	text: string;
}

export function parseSrt(srt: string): ParsedCue[] {
	return parseSync(srt)
		.filter((n): n is NodeCue => n.type === 'cue')
		.map((n) => ({ start: n.data.start, end: n.data.end, text: n.data.text }));
}

export function parseVtt(vtt: string): ParsedCue[] {
	const parsed = new WebVTTParser(ENTITIES).parse(vtt, 'subtitles');
	if (parsed.errors.length) throw new Error(`WebVTT errors: ${JSON.stringify(parsed.errors)}`);
	const text = (node: { type?: string; value?: unknown; children?: unknown[] }): string =>
		node.type === 'text'
			? String(node.value)
			: (node.children ?? []).map((c) => text(c as typeof node)).join('');
	return parsed.cues.map((c) => ({
		start: Math.round(c.startTime * 1000),
		end: Math.round(c.endTime * 1000),
		text: text(c.tree as never),
	}));
}
