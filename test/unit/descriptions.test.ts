import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { N8N_PACKAGE_DIR } from '../../scripts/paths';

const root = N8N_PACKAGE_DIR;

/** The public interface saved workflows depend on (design.md): node names and operation values. */
const PUBLIC_INTERFACE: Record<string, { displayName: string; operations: string[] }> = {
	visionStoryTalkingVideo: {
		displayName: 'VisionStory Talking Video',
		operations: ['create', 'check', 'get', 'getMany', 'delete', 'listModels'],
	},
	visionStoryAiVideo: {
		displayName: 'VisionStory AI Video',
		operations: ['create', 'check', 'get', 'getMany', 'estimateCost', 'listModels', 'delete'],
	},
	visionStoryImage: { displayName: 'VisionStory Image', operations: ['generate', 'listModels'] },
	visionStoryTextToSpeech: {
		displayName: 'VisionStory Text to Speech',
		operations: ['synthesize'],
	},
	visionStoryAlign: { displayName: 'VisionStory Align', operations: ['align', 'transcribe'] },
	visionStoryAvatar: {
		displayName: 'VisionStory Avatar',
		operations: ['create', 'getMany', 'updateFraming', 'delete'],
	},
	visionStoryVoice: {
		displayName: 'VisionStory Voice',
		operations: ['getMany', 'clone', 'delete'],
	},
	visionStoryUnderstand: { displayName: 'VisionStory Understand', operations: ['analyze'] },
	visionStoryAsset: {
		displayName: 'VisionStory Asset',
		operations: ['upload', 'getMany', 'delete'],
	},
	visionStoryAccount: { displayName: 'VisionStory Account', operations: ['getCredits'] },
};

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[] };
};

function load(distPath: string): { node: INodeType; dir: string; file: string } {
	const file = distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
	const module = require(join(root, file)) as Record<string, new () => INodeType>;
	const NodeClass = Object.values(module).find(
		(v) => typeof v === 'function' && 'prototype' in v && v.name.startsWith('VisionStory'),
	)!;
	return { node: new NodeClass(), dir: join(root, file, '..'), file };
}

const actionNodes = pkg.n8n.nodes.map(load).filter(({ node }) => !node.description.polling);

/** Every parameter, including those inside collections and fixed collections. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => {
		const nested = (p.options ?? []).flatMap((o) => {
			if ('values' in (o as INodePropertyCollection))
				return allProperties((o as INodePropertyCollection).values);
			if ('type' in (o as INodeProperties)) return allProperties([o as INodeProperties]);
			return [];
		});
		return [p, ...nested];
	});
}

const SMALL_WORDS = new Set([
	'a',
	'an',
	'and',
	'as',
	'at',
	'by',
	'for',
	'from',
	'in',
	'of',
	'on',
	'or',
	'per',
	'the',
	'to',
	'when',
	'with',
]);
function isTitleCase(text: string): boolean {
	return text
		.replace(/\(.*?\)/g, '')
		.split(/\s+/)
		.filter(Boolean)
		.every((word, i) => (i > 0 && SMALL_WORDS.has(word)) || /^[A-Z0-9#]/.test(word));
}

test('all ten action nodes are registered with the public names and operations', () => {
	expect(
		Object.fromEntries(
			actionNodes.map(({ node }) => [
				node.description.name,
				{ displayName: node.description.displayName, operations: operationsOf(node) },
			]),
		),
	).toEqual(PUBLIC_INTERFACE);
});

function operationsOf(node: INodeType): string[] {
	const operation = node.description.properties.find((p) => p.name === 'operation')!;
	return (operation.options as INodePropertyOptions[]).map((o) => String(o.value));
}

describe.each(actionNodes.map((n) => [n.node.description.name, n] as const))(
	'%s',
	(_, { node, dir, file }) => {
		const description = node.description;
		const properties = allProperties(description.properties);

		test('is usable as an AI tool, uses the VisionStory credential, has both icons, a subtitle and a codex', () => {
			expect(description.usableAsTool).toBe(true);
			expect(description.credentials).toEqual([{ name: 'visionStoryApi', required: true }]);
			expect(description.subtitle).toContain('operation');
			const icon = description.icon as { light: string; dark: string };
			for (const path of [icon.light, icon.dark])
				expect(existsSync(join(dir, path.replace(/^file:/, '')))).toBe(true);
			const codex = JSON.parse(readFileSync(join(root, file.replace(/\.ts$/, '.json')), 'utf8'));
			expect(codex.node).toBe(`n8n-nodes-visionstory.${description.name}`);
			expect(codex.categories).toContain('Marketing & Content');
		});

		test('every operation has an action and a description in n8n style', () => {
			const operation = description.properties.find((p) => p.name === 'operation')!;
			for (const option of operation.options as INodePropertyOptions[]) {
				expect(option.action).toMatch(/^[A-Z]/);
				expect(option.description).not.toMatch(/\.$/);
				expect(isTitleCase(option.name)).toBe(true);
			}
		});

		test('parameters follow n8n copy guidelines', () => {
			for (const p of properties) {
				expect({ name: p.name, titleCase: isTitleCase(p.displayName) }).toEqual({
					name: p.name,
					titleCase: true,
				});
				// n8n's rule: a one-sentence description has no final period (several sentences keep theirs).
				if (p.description && !/\. [A-Z]/.test(p.description)) {
					expect({ name: p.name, description: p.description }).not.toEqual({
						name: p.name,
						description: expect.stringMatching(/\.$/),
					});
				}
				if (p.type === 'boolean' && p.description)
					expect({ name: p.name, description: p.description }).toEqual({
						name: p.name,
						description: expect.stringMatching(/^Whether /),
					});
				if (p.name === 'limit') expect(p.default).toBe(50);
			}
		});

		test('pickers and dynamic options point at methods the node has', () => {
			const methods =
				(node as unknown as { methods?: { listSearch?: object; loadOptions?: object } }).methods ??
				{};
			for (const p of properties) {
				if (p.type === 'resourceLocator') {
					const list = p.modes?.find((m) => m.type === 'list');
					expect(list).toBeDefined();
					expect(Object.keys(methods.listSearch ?? {})).toContain(
						list!.typeOptions!.searchListMethod,
					);
					expect(p.modes?.map((m) => m.name)).toEqual(['list', 'id']);
				}
				const loader = p.typeOptions?.loadOptionsMethod;
				if (loader) expect(Object.keys(methods.loadOptions ?? {})).toContain(loader);
			}
		});

		test('media inputs and waiting use the shared parameter names', () => {
			const names = new Set(properties.map((p) => p.name));
			for (const source of [...names].filter((n) => n.endsWith('Source'))) {
				const prefix = source.slice(0, -'Source'.length);
				const related = [...names].filter((n) => n.startsWith(prefix) && n !== source);
				expect(related.every((n) => /(BinaryProperty|Url|AssetId)$/.test(n))).toBe(true);
			}
			if (names.has('waitForCompletion')) {
				for (const name of [
					'pollIntervalSeconds',
					'timeoutMinutes',
					'downloadResult',
					'outputBinaryProperty',
				])
					expect(names).toContain(name);
				const poll = properties.find((p) => p.name === 'pollIntervalSeconds')!;
				expect(poll.default).toBe(10);
				expect(poll.typeOptions?.minValue).toBe(5);
			}
			for (const op of operationsOf(node).filter((o) => o === 'getMany')) {
				const shown = description.properties
					.filter((p) => p.displayOptions?.show?.operation?.includes(op))
					.map((p) => p.name);
				expect(shown).toEqual(expect.arrayContaining(['returnAll', 'limit']));
			}
		});
	},
);
