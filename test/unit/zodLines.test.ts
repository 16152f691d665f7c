/**
 * The nodes take zod from n8n at run time, whichever line n8n hoists: 3.25 today, 4 once n8n moves.
 * The built package is loaded from a folder whose only zod is the given line, and must load and
 * check input the same way on both.
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_PACKAGE_DIR, REPO_ROOT } from '../../scripts/paths';

const root = N8N_PACKAGE_DIR;
const nodeFiles = (
	JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }
).n8n.nodes;

const probe = `
const nodes = ${JSON.stringify(nodeFiles)}.map((file) => {
	const module = require('./' + file);
	const Node = Object.values(module).find((value) => typeof value === 'function');
	return new Node().description.name;
});
const { VisionStoryClient } = require('./dist/nodes/shared/api/client.js');
const answers = {
	listImageModels: { models: [{ model_id: 'm1', params: { resolution: { values: ['1K'], default: '1K' }, refs: { max: 4 } } }] },
	understandMedia: { output: { mood: 'happy' }, usage: { input_tokens: 1, output_tokens: 2 }, cost_credit: 1 },
};
const client = new VisionStoryClient({ send: async (name) => answers[name] });
const refusals = [
	{ avatar_id: 'a1', text_script: { text: 'Hi', voice_id: 'Alice' }, background_color: 'red' },
	{ avatar_id: 'a1', text_script: { voice_id: 'Alice' } },
	{ avatar_id: 'a1', text_script: { text: 'Hi', voice_id: 'Alice' }, resolution: '8k' },
].map((request) => {
	try { client.validate('createTalkingVideo', request); return 'accepted'; }
	catch (error) { return error.issues.map((i) => i.field + ': ' + i.message).join('; '); }
});
const accepted = client.validate('createTalkingVideo', { avatar_id: 'a1', text_script: { text: 'Hi', voice_id: 'Alice' } }).avatar_id;
const { readErrorAnswer } = require('./dist/nodes/shared/api/errorBody.js');
const details = readErrorAnswer({ status: 429, body: { error: { code: 429, message: 'busy', details: '{"limit":2,"in_flight":2}' } } }).concurrency;
Promise.all([client.listImageModels(), client.understandMedia({ inputs: [{ url: 'https://x.test/a.png' }], prompt: 'p', schema: { type: 'object' } })])
	.then(([models, understood]) => {
		const parsed = { tiers: models.models[0].params.resolution.values, mood: understood.output.mood, limit: details.limit };
		console.log(JSON.stringify({ nodes, refusals, accepted, parsed, zod: require('zod/package.json').version }));
	});
`;

function loadWith(zodFolder: string): {
	nodes: string[];
	refusals: string[];
	accepted: string;
	parsed: Record<string, unknown>;
	zod: string;
} {
	const folder = mkdtempSync(join(tmpdir(), 'vs-zod-'));
	try {
		cpSync(join(root, 'dist'), join(folder, 'dist'), { recursive: true });
		mkdirSync(join(folder, 'node_modules'));
		symlinkSync(
			join(REPO_ROOT, 'node_modules', zodFolder),
			join(folder, 'node_modules', 'zod'),
			'dir',
		);
		symlinkSync(
			join(REPO_ROOT, 'node_modules', 'n8n-workflow'),
			join(folder, 'node_modules', 'n8n-workflow'),
			'dir',
		);
		// Outside the repository, so nothing else on the resolution path can supply another zod.
		const output = execFileSync(process.execPath, ['-e', probe], {
			cwd: folder,
			encoding: 'utf8',
			env: { PATH: process.env.PATH ?? '' },
		});
		return JSON.parse(output.trim().split('\n').pop()!) as ReturnType<typeof loadWith>;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

beforeAll(() => {
	if (!existsSync(join(root, 'dist', 'nodes')))
		throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});

let onZod3: ReturnType<typeof loadWith>;

test('with zod 3 as the only zod, every node loads and input is checked', () => {
	onZod3 = loadWith('zod');
	expect(onZod3.zod).toMatch(/^3\.25\./);
	expect(onZod3.nodes).toHaveLength(nodeFiles.length);
	expect(onZod3.refusals).toEqual([
		expect.stringMatching(/^background_color: must be a 6-digit hex/),
		'text_script.text: Required',
		expect.stringMatching(/^resolution: Invalid enum value/),
	]);
	expect(onZod3.accepted).toBe('a1');
	expect(onZod3.parsed).toEqual({ tiers: ['1K'], mood: 'happy', limit: 2 });
});

test('with zod 4 as the only zod, the nodes behave exactly as with zod 3, messages included', () => {
	const result = loadWith('zod4');
	expect(result.zod).toMatch(/^4\./);
	expect({ ...result, zod: undefined }).toEqual({ ...onZod3, zod: undefined });
});
