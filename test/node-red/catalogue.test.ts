/**
 * The texts: every status and log text is a catalogue key read through RED._ (en-US, and German to
 * prove a second language carries them), each text has one source, and every node's editor file
 * (its shared rows in place) names only keys its built catalogue has and shows exactly the
 * properties its spec has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { editorForm } from '../../packages/node-red-visionstory/src/editor/rows';
import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { fileOf } from '../../scripts/node-red/build';
import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { startEmulator, type Emulator } from '../emulator';
import { editorTexts } from './editor';
import { credentials, flowWith, helper, nodeOf, nodesIn, run } from './support';

const source = (...parts: string[]) =>
	JSON.parse(readFileSync(join(NODE_RED_PACKAGE_DIR, 'src', ...parts), 'utf8'));

/** Every key of a nested catalogue, dotted. */
function keysOf(value: unknown, prefix = ''): string[] {
	if (typeof value !== 'object' || value === null) return [prefix];
	return Object.entries(value).flatMap(([key, inner]) =>
		keysOf(inner, prefix ? `${prefix}.${key}` : key),
	);
}

describe('the runtime texts', () => {
	it('German has every status and log text English has', () => {
		const english = keysOf(source('locales', 'en-US', 'runtime.json'));
		const german = keysOf(source('locales', 'de', 'runtime.json'));
		expect(english.filter((k) => k.startsWith('status.') || k.startsWith('log.'))).not.toEqual([]);
		expect(english.filter((k) => !german.includes(k))).toEqual([]);
	});

	it('every set of the build carries them, in each language', () => {
		for (const type of ['visionstory-talking-video', 'visionstory-watch', 'visionstory-config'])
			for (const [language, done] of [
				['en-US', 'done'],
				['de', 'fertig'],
			])
				expect(editorTexts(fileOf(type), language)('visionstory.status.done')).toBe(done);
	});

	describe('in Node-RED, through RED._', () => {
		let emulator: Emulator;
		beforeAll(async () => {
			emulator = await startEmulator({ renderMs: 300 });
		});
		afterAll(async () => await emulator.stop());
		afterEach(async () => await helper.unload());

		it.each([
			['en-US', 'done · 2 credits'],
			['de', 'fertig · 2 Credits'],
		])('%s: the status after a message', async (language, text) => {
			await helper.load(
				nodesIn(language),
				flowWith(
					{
						type: 'visionstory-text-to-speech',
						operation: 'synthesize',
						voiceId: 'Alice',
						downloadResult: false,
					},
					emulator.baseUrl,
				),
				credentials(emulator.apiKey),
			);
			const statuses: string[] = [];
			nodeOf('n1').on('call:status', (call: { args: Array<{ text?: string }> }) =>
				statuses.push(call.args[0]?.text ?? ''),
			);
			expect((await run({ payload: 'Hello.' })).output).toBe('out1');
			await new Promise((resolve) => setImmediate(resolve));
			expect(statuses.at(-1)).toBe(text);
		});
	});
});

describe('one source per text', () => {
	it.each(ACTION_NODES.map((s) => [s.type, s] as const))(
		"%s: the node's own catalogue does not say again what its spec says (labels, tips, descriptions)",
		(type) => {
			const own = source('nodes', fileOf(type), 'locales', 'en-US', `${fileOf(type)}.json`)[type];
			expect(own.summary).toBeUndefined();
			expect(own.fields).toBeUndefined();
			for (const operation of Object.values(own.operations ?? {}))
				expect(Object.keys(operation as object)).toEqual(['payload']);
		},
	);
});

describe("each node's editor file", () => {
	it.each(ACTION_NODES.map((s) => [s.type, s] as const))(
		'%s: every text key is in its catalogue, and every property of its spec has its row',
		(type, spec) => {
			const set = fileOf(type);
			const html = editorForm(set, type);
			const text = editorTexts(set);
			const keys = [...html.matchAll(/data-i18n="(?:\[\w+\])?([^"]+)"/g)].map((m) => m[1]);
			expect(keys.length).toBeGreaterThan(5);
			for (const key of keys) expect(text(key)).toEqual(expect.any(String));
			const inputs = [...html.matchAll(/id="node-input-(\w+)"/g)].map((m) => m[1]);
			expect(inputs.sort()).toEqual(
				[
					'name',
					'config',
					'operation',
					'outputProperty',
					'failureOutput',
					'outputs',
					...spec.fields.map((f) => f.name),
				].sort(),
			);
		},
	);
});
