import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package';

/**
 * Saved workflows keep parameters by name, and n8n silently drops a saved value whose parameter no
 * longer exists or is no longer shown. A rename is therefore a lost setting, not an error: these tests
 * hold the names of the 1.0 interface (frozen in `release-1.0.0/`: the node `visionStory` with every
 * resource, operation and parameter, and the trigger) and run every workflow we ship or test through
 * n8n's own parameter resolution. (0.1.0, ten nodes, was never published: nothing is kept from it.)
 */
const root = join(__dirname, '..', '..');
const frozen = join(root, 'test/workflows/release-1.0.0');
const PACKAGE = 'n8n-nodes-visionstory.';

const nodeTypes = new Map(
	Object.entries(loadPackageNodeTypes()).map(
		([type, node]) => [type.slice(PACKAGE.length), node as INodeType] as const,
	),
);

/** n8n's loader adds Poll Times to every polling node: n8n's parameter, not ours. */
const N8N_OWN = new Set(['pollTimes']);

/** A parameter as saved workflows see it: its type and, for options, the values it allows. */
interface Parameter {
	type: string;
	values?: string[];
}

/** Every parameter by its path, nested ones under their collection's name (`options.emotion`). */
function parametersOf(properties: INodeProperties[], prefix = ''): Array<[string, Parameter]> {
	return properties.flatMap((p) => {
		const path = `${prefix}${p.name}`;
		const options = (p.options ?? []) as Array<
			INodePropertyOptions | INodeProperties | INodePropertyCollection
		>;
		const values =
			p.type === 'options' || p.type === 'multiOptions'
				? options.map((o) => String((o as INodePropertyOptions).value))
				: undefined;
		const nested = options.flatMap((o) => {
			if ('values' in o) return parametersOf(o.values, `${path}.${o.name}.`);
			if ('type' in o) return parametersOf([o], `${path}.`);
			return [];
		});
		return [
			[path, values ? { type: p.type, values } : { type: p.type }] as [string, Parameter],
			...nested,
		];
	});
}

/** Per node type, per `resource:operation` (`*` for a node without resources), every parameter shown there. */
type Interface = Record<string, Record<string, Record<string, Parameter>>>;

/** The parameters of one resource and operation: those whose display options name both, and the pickers. */
function shownFor(properties: INodeProperties[], resource: string, operation: string) {
	return properties.filter((p) => {
		const show = p.displayOptions?.show ?? {};
		if (p.name === 'resource') return true;
		if (show.resource && !show.resource.includes(resource)) return false;
		if (p.name === 'operation') return true;
		return !show.operation || show.operation.includes(operation);
	});
}

/** Parameters by path; two definitions of one name (shown in different cases) merge their values. */
function merged(entries: Array<[string, Parameter]>): Record<string, Parameter> {
	const byPath: Record<string, Parameter> = {};
	for (const [path, parameter] of entries.sort(([a], [b]) => a.localeCompare(b))) {
		const known = byPath[path];
		byPath[path] =
			known && known.type === parameter.type && (known.values || parameter.values)
				? {
						type: parameter.type,
						values: [...new Set([...(known.values ?? []), ...(parameter.values ?? [])])],
					}
				: (known ?? parameter);
	}
	return byPath;
}

function currentInterface(): Interface {
	return Object.fromEntries(
		[...nodeTypes].map(([name, node]) => {
			const { properties } = node.description;
			const resources = properties.find((p) => p.name === 'resource');
			if (!resources) return [name, { '*': merged(parametersOf(properties)) }];
			const groups: Record<string, Record<string, Parameter>> = {};
			for (const r of resources.options as INodePropertyOptions[]) {
				const picker = properties.find(
					(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
				)!;
				for (const o of picker.options as INodePropertyOptions[])
					groups[`${r.value}:${o.value}`] = merged(
						parametersOf(shownFor(properties, String(r.value), String(o.value))),
					);
			}
			return [name, groups];
		}),
	);
}

test('every resource, operation and parameter of 1.0 still exists with its type and every value it allowed', () => {
	const released = JSON.parse(readFileSync(join(frozen, 'interface.json'), 'utf8')) as Interface;
	const now = currentInterface();
	const lost: string[] = [];
	for (const [node, groups] of Object.entries(released)) {
		for (const [group, parameters] of Object.entries(groups)) {
			if (!now[node]?.[group]) {
				lost.push(`${node} ${group}: gone`);
				continue;
			}
			for (const [path, { type, values = [] }] of Object.entries(parameters)) {
				const current = now[node][group][path];
				if (current?.type !== type) {
					lost.push(`${node} ${group} ${path}: ${type}`);
					continue;
				}
				const missing = values.filter((v) => !current.values?.includes(v));
				if (missing.length > 0)
					lost.push(`${node} ${group} ${path}: no longer allows ${missing.join(', ')}`);
			}
		}
	}
	expect(lost).toEqual([]);
	expect(Object.keys(released).sort()).toEqual(['visionStory', 'visionStoryTrigger']);
	expect(Object.keys(released.visionStory)).toHaveLength(30);
	expect(Object.keys(released).length).toBe(nodeTypes.size);
});

/** Every leaf of a saved parameter value, as a path and the value saved. */
function leaves(value: unknown, path: string[] = []): Array<[string[], unknown]> {
	if (value && typeof value === 'object' && !Array.isArray(value) && !('__rl' in value)) {
		return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
	}
	if (Array.isArray(value) && value.some((v) => v && typeof v === 'object'))
		return value.flatMap((v, i) => leaves(v, [...path, String(i)]));
	return [[path, value]];
}

function at(parameters: unknown, path: string[]): unknown {
	return path.reduce<unknown>(
		(v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
		parameters,
	);
}

const folders = [
	'examples',
	'test/workflows',
	'test/e2e/queue/workflows',
	'test/workflows/release-1.0.0',
];
const workflows = folders
	.flatMap((folder) =>
		readdirSync(join(root, folder))
			.filter((f) => f.endsWith('.json') && f !== 'interface.json')
			.map(
				(file) =>
					[
						`${folder}/${file}`,
						(
							JSON.parse(readFileSync(join(root, folder, file), 'utf8')) as { nodes: INode[] }
						).nodes.filter((n) => n.type.startsWith(PACKAGE)),
					] as const,
			),
	)
	.filter(([, nodes]) => nodes.length > 0);

test('the shipped examples are frozen as 1.0 saves them', () => {
	const shipped = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json'));
	expect(readdirSync(frozen).filter((f) => f.endsWith('.json') && f !== 'interface.json')).toEqual(
		expect.arrayContaining(shipped),
	);
});

test('every shipped example and frozen copy is among the workflows checked', () => {
	const checked = new Set(workflows.map(([file]) => file));
	for (const folder of ['examples', 'test/workflows/release-1.0.0']) {
		for (const file of readdirSync(join(root, folder)).filter(
			(f) => f.endsWith('.json') && f !== 'interface.json',
		))
			expect(checked).toContain(`${folder}/${file}`);
	}
});

test.each(workflows)('%s: n8n keeps every VisionStory parameter it saved', (_, nodes) => {
	const dropped: string[] = [];
	for (const node of nodes) {
		// n8n serves a node used as an AI tool under its name with `Tool` appended.
		const type = nodeTypes.get(node.type.slice(PACKAGE.length).replace(/Tool$/, ''));
		if (!type) {
			dropped.push(`${node.name}: unknown node type ${node.type}`);
			continue;
		}
		const kept = NodeHelpers.getNodeParameters(
			type.description.properties,
			node.parameters,
			true,
			false,
			node,
			type.description,
		);
		for (const [path, value] of leaves(node.parameters).filter(([p]) => !N8N_OWN.has(p[0]))) {
			if (JSON.stringify(at(kept, path)) !== JSON.stringify(value))
				dropped.push(`${node.name}: ${path.join('.')}`);
		}
	}
	expect(dropped).toEqual([]);
});
