/**
 * What each step of an example run did, in a sentence, with what it cost and which files it wrote:
 * the material of the demo's summary.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowJson } from '../n8n/examples';
import { readBinary, type ExecutionResult, type RunItem } from '../n8n/runData';

const PACKAGE_PREFIX = 'n8n-nodes-visionstory.';

export interface StepReport {
	node: string;
	did: string;
	credits: number;
	files: string[];
}

function slug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

type Describe = (items: RunItem[]) => string;

/** The captions Align or Transcribe built from the word timings, if asked for. */
function captionsOf(item: RunItem): string {
	const captions = item.json.captions as { cues?: number; srt?: string; vtt?: string } | undefined;
	if (!captions) return '';
	const formats = [captions.srt !== undefined && 'SRT', captions.vtt !== undefined && 'WebVTT']
		.filter(Boolean)
		.join(' and ');
	return `, then built ${plural(captions.cues ?? 0, 'caption cue')} as ${formats}`;
}

const DESCRIPTIONS: Record<string, Describe> = {
	'avatar:getMany': (items) =>
		`picked ${plural(items.length, 'avatar')}: ${items.map((i) => i.json.avatar_id).join(', ')}`,
	'avatar:create': (items) =>
		`created avatar ${items.map((i) => i.json.avatar_id).join(', ')} from the image`,
	'image:generate': (items) =>
		items
			.map((i) => `generated a ${i.json.width}×${i.json.height} image with ${i.json.model_id}`)
			.join('; '),
	'talkingVideo:create': (items) =>
		items
			.map((i) => {
				if (i.json.status === 'created')
					return `rendered talking video ${i.json.video_id} (${i.json.aspect_ratio}, ${i.json.resolution})`;
				return `started talking video ${i.json.video_id}${i.json.status ? ` (status ${i.json.status})` : ''}`;
			})
			.join('; '),
	'talkingVideo:check': (items) =>
		items.map((i) => `checked talking video ${i.json.video_id}: ${i.json.status}`).join('; '),
	'voice:getMany': (items) => `listed ${plural(items.length, 'voice')}`,
	'lmChatOpenAi:': (items) => `answered ${plural(items.length, 'turn')} of the agent`,
	'agent:': (items) => `answered: "${items.map((i) => String(i.json.output)).join(' ')}"`,
	'aiVideo:listModels': (items) =>
		`listed ${plural(items.length, 'AI video model')}: ${items.map((i) => i.json.model_id).join(', ')}`,
	'aiVideo:create': (items) =>
		items
			.map(
				(i) =>
					`rendered AI video ${i.json.video_id} with ${i.json.model_id} (${i.json.duration_sec} s, ${i.json.resolution}, ${i.json.aspect_ratio})`,
			)
			.join('; '),
	'textToSpeech:synthesize': (items) =>
		items
			.map((i) => {
				const parts = Number(i.json.parts ?? 1);
				return `spoke ${i.json.characters} characters as ${i.json.duration_sec} s of audio (voice ${i.json.voice_id})${parts > 1 ? ` in ${parts} parts joined into one MP3` : ''}`;
			})
			.join('; '),
	'align:align': (items) =>
		items
			.map(
				(i) =>
					`timed ${plural((i.json.words as unknown[]).length, 'word')} against the audio${captionsOf(i)}`,
			)
			.join('; '),
	'align:transcribe': (items) =>
		items
			.map(
				(i) =>
					`transcribed ${i.json.duration_sec} s of audio into text and subtitles: "${String(i.json.text).slice(0, 60)}"${captionsOf(i)}`,
			)
			.join('; '),
	'set:': (items) => {
		const fields = [...new Set(items.flatMap((i) => Object.keys(i.json)))].join(', ');
		return items.length > 1 ? `set ${fields} on ${plural(items.length, 'item')}` : `set ${fields}`;
	},
	'convertToFile:toText': (items) =>
		`made the file ${items.flatMap((i) => Object.values(i.binary ?? {}).map((b) => b.fileName)).join(', ')}`,
	'extractFromFile:csv': (items) =>
		`read ${plural(items.length, 'row')} from the CSV: ${items.map((i) => Object.values(i.json)[0]).join(', ')}`,
	'limit:': (items) => `kept ${plural(items.length, 'item')}`,
	'understand:analyze': (items) =>
		items.map((i) => `filled the schema: ${JSON.stringify(i.json.output)}`).join('; '),
};

function describe(
	type: string,
	parameters: WorkflowJson['nodes'][number]['parameters'],
	items: RunItem[],
): string {
	// The VisionStory node (or its `…Tool` variant, as an AI tool) is described by its resource.
	const local = type.startsWith(PACKAGE_PREFIX)
		? String(parameters.resource)
		: type.replace(/^(n8n-nodes-base|@n8n\/n8n-nodes-langchain)\./, '');
	const operation = parameters.operation as string | undefined;
	const known = DESCRIPTIONS[`${local}:${operation ?? ''}`];
	return known ? known(items) : `${local}: ${plural(items.length, 'item')}`;
}

/** Operations that read what another step made (its `cost_credit` included) and charge nothing. */
const READS = new Set(['check', 'get', 'getMany', 'listModels', 'estimateCost']);

/** Writes every file a run produced, and the JSON of every VisionStory step and of the last step, under outDir/<example>/. */
export function reportRun(
	example: string,
	workflow: WorkflowJson,
	result: ExecutionResult,
	outDir: string,
): StepReport[] {
	const dir = join(outDir, example);
	mkdirSync(dir, { recursive: true });
	const ran = Object.keys(result.runData);
	const last = ran.at(-1);
	const reports: StepReport[] = [];
	for (const nodeName of ran) {
		const node = workflow.nodes.find((n) => n.name === nodeName);
		if (!node || node.type === 'n8n-nodes-base.manualTrigger') continue;
		const runs = result.runData[nodeName];
		// An AI Agent's sub-nodes run once per call, their items on the connection they serve instead of main.
		const items = runs[0]?.data?.main
			? (runs[0].data.main[0] ?? [])
			: runs.flatMap((run) => run.data?.ai_tool?.[0] ?? run.data?.ai_languageModel?.[0] ?? []);
		const ours = node.type.startsWith(PACKAGE_PREFIX);
		const files: string[] = [];
		items.forEach((item, index) => {
			for (const [property, ref] of Object.entries(item.binary ?? {})) {
				const suffix = items.length > 1 ? `-${index + 1}` : '';
				const extra = property === 'data' ? '' : `-${slug(property)}`;
				const name = `${slug(nodeName)}${suffix}${extra}.${ref.fileExtension ?? 'bin'}`;
				writeFileSync(join(dir, name), readBinary(result.userFolder, ref));
				files.push(`${example}/${name}`);
			}
		});
		if (ours || nodeName === last) {
			const name = `${slug(nodeName)}.json`;
			writeFileSync(
				join(dir, name),
				JSON.stringify(items.length === 1 ? items[0].json : items.map((i) => i.json), null, 2),
			);
			files.push(`${example}/${name}`);
		}
		// A status read shows the video's price too; only the step that made it spent it.
		const charged = ours && !READS.has(String(node.parameters.operation));
		const credits = charged
			? items.reduce(
					(sum, i) => sum + (typeof i.json.cost_credit === 'number' ? i.json.cost_credit : 0),
					0,
				)
			: 0;
		reports.push({
			node: nodeName,
			did: describe(node.type, node.parameters, items),
			credits,
			files,
		});
	}
	return reports;
}
