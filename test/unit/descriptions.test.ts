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

/** The public interface saved workflows depend on (design.md): the node, its resources and their operations. */
const PUBLIC_INTERFACE: Record<string, string[]> = {
	talkingVideo: ['create', 'check', 'get', 'getMany', 'delete', 'listModels'],
	aiVideo: ['create', 'check', 'get', 'getMany', 'estimateCost', 'listModels', 'delete'],
	image: ['generate', 'listModels'],
	textToSpeech: ['synthesize'],
	align: ['align', 'transcribe'],
	avatar: ['create', 'getMany', 'updateFraming', 'delete'],
	voice: ['getMany', 'clone', 'delete'],
	understand: ['analyze'],
	asset: ['upload', 'getMany', 'delete'],
	account: ['getCredits'],
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

test('package.json lists one regular node and the trigger', () => {
	expect(pkg.n8n.nodes).toEqual([
		'dist/nodes/VisionStory/VisionStory.node.js',
		'dist/nodes/VisionStoryTrigger/VisionStoryTrigger.node.js',
	]);
});

const nodes = pkg.n8n.nodes.map(load);
const actionNodes = nodes.filter(({ node }) => !node.description.polling);
const { node } = actionNodes[0];
const description = node.description;

/** The values of an options parameter. */
const valuesOf = (property: INodeProperties | undefined) =>
	((property?.options ?? []) as INodePropertyOptions[]).map((o) => String(o.value));
const resourceProperty = description.properties.find((p) => p.name === 'resource');
/** The Operation picker of each resource. */
const pickerOf = (resource: string) =>
	description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
/** What the editor shows for one resource and operation: the parameters whose display options name both. */
const shownFor = (resource: string, operation: string) =>
	description.properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
const pairs = Object.entries(PUBLIC_INTERFACE).flatMap(([resource, operations]) =>
	operations.map((operation) => [resource, operation] as const),
);

test('one node "visionStory" with the public resources and their operations', () => {
	expect(actionNodes).toHaveLength(1);
	expect(description.name).toBe('visionStory');
	expect(description.displayName).toBe('VisionStory');
	expect(resourceProperty).toMatchObject({ type: 'options', noDataExpression: true });
	expect(valuesOf(resourceProperty).sort()).toEqual(Object.keys(PUBLIC_INTERFACE).sort());
	for (const [resource, operations] of Object.entries(PUBLIC_INTERFACE)) {
		const picker = pickerOf(resource);
		expect({ resource, operations: valuesOf(picker).sort() }).toEqual({
			resource,
			operations: [...operations].sort(),
		});
		expect(operations).toContain(picker!.default);
	}
	// The design table: 30 operations over 10 resources.
	expect(pairs).toHaveLength(30);
});

test("the nodes panel finds each capability by its words: every operation's action text", () => {
	const actions = Object.keys(PUBLIC_INTERFACE).flatMap((resource) =>
		(pickerOf(resource)!.options as INodePropertyOptions[]).map((o) => String(o.action)),
	);
	expect(actions).toHaveLength(pairs.length);
	for (const words of [
		'talking video',
		'text to speech',
		'voice',
		'avatar',
		'transcribe',
		'AI video',
		'image',
	])
		expect({
			words,
			found: actions.some((a) => a.toLowerCase().includes(words.toLowerCase())),
		}).toEqual({
			words,
			found: true,
		});
	const codex = JSON.parse(
		readFileSync(join(root, 'nodes/VisionStory/VisionStory.node.json'), 'utf8'),
	) as {
		alias: string[];
	};
	expect(codex.alias).toEqual(
		expect.arrayContaining(['talking video', 'text to speech', 'transcribe', 'avatar', 'voice']),
	);
});

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

describe('the VisionStory node', () => {
	const { dir, file } = actionNodes[0];
	const properties = allProperties(description.properties);

	test('is usable as an AI tool, uses the VisionStory credential, has both icons, a subtitle and a codex', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: 'visionStoryApi', required: true }]);
		expect(description.subtitle).toBe(
			'={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		);
		const icon = description.icon as { light: string; dark: string };
		for (const path of [icon.light, icon.dark])
			expect(existsSync(join(dir, path.replace(/^file:/, '')))).toBe(true);
		const codex = JSON.parse(readFileSync(join(root, file.replace(/\.ts$/, '.json')), 'utf8'));
		expect(codex.node).toBe(`n8n-nodes-visionstory.${description.name}`);
		expect(codex.categories).toContain('Marketing & Content');
	});

	test('every resource and operation has a description in n8n style, every operation an action', () => {
		for (const option of resourceProperty!.options as INodePropertyOptions[]) {
			expect(option.description).not.toMatch(/\.$/);
			expect(isTitleCase(option.name)).toBe(true);
		}
		for (const resource of Object.keys(PUBLIC_INTERFACE)) {
			for (const option of pickerOf(resource)!.options as INodePropertyOptions[]) {
				expect(option.action).toMatch(/^[A-Z]/);
				expect(option.description).not.toMatch(/\.$/);
				expect(isTitleCase(option.name)).toBe(true);
			}
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

	test.each(pairs)(
		'%s %s: media inputs, waiting and lists use the shared parameter names',
		(resource, operation) => {
			const shown = allProperties(shownFor(resource, operation));
			const names = new Set(shown.map((p) => p.name));
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
				const poll = shown.find((p) => p.name === 'pollIntervalSeconds')!;
				expect(poll.default).toBe(10);
				expect(poll.typeOptions?.minValue).toBe(5);
			}
			if (operation === 'getMany')
				expect([...names]).toEqual(expect.arrayContaining(['returnAll', 'limit']));
		},
	);
});
