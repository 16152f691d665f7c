/**
 * Saved flows keep each node's type and its properties by name; Node-RED fills a property a saved
 * flow lacks with its default and keeps one the node no longer has without a word. A renamed type,
 * property or operation, or a changed default, is therefore a flow that silently behaves otherwise.
 * These tests hold what the 1.0.0 editor registers (frozen in release-1.0.0/interface.json): every
 * node type, every property with its default, every operation and its outputs as a node saved then
 * has them. New ones may be added; the snapshot changes only by editing the file.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { failuresOf, portsOf } from '../../packages/node-red-visionstory/src/spec';
import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';
import { editorDefinitions } from './editor';

interface Registered {
	defaults: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	operations?: Record<string, string[]>;
}

const FROZEN = join(__dirname, 'release-1.0.0', 'interface.json');

/** What each editor file registers, run as the editor runs it (the build's output). */
function registered(): Record<string, Registered> {
	const sets = readdirSync(join(NODE_RED_PACKAGE_DIR, 'dist'))
		.filter((f) => f.endsWith('.html'))
		.map((f) => f.replace(/\.html$/, ''));
	const types: Record<string, Registered> = {};
	for (const [type, definition] of Object.entries(editorDefinitions(sets)))
		types[type] = {
			defaults: Object.fromEntries(
				Object.entries(definition.defaults).map(([name, d]) => [name, d.value]),
			),
			...(definition.credentials ? { credentials: definition.credentials } : {}),
		};
	// A node saved by 1.0.0 has no failureOutput property: it keeps 1.0.0's outputs.
	const saved = failuresOf({});
	for (const spec of ACTION_NODES)
		types[spec.type].operations = Object.fromEntries(
			spec.operations.map((op) => [op.value, portsOf(op, saved.port)]),
		);
	return types;
}

const current = registered();
const frozen = JSON.parse(readFileSync(FROZEN, 'utf8')) as Record<string, Registered>;

describe('the 1.0.0 interface saved flows rely on', () => {
	it('keeps every node type', () => {
		expect(Object.keys(current)).toEqual(expect.arrayContaining(Object.keys(frozen)));
		expect(Object.keys(frozen)).toHaveLength(12);
	});

	it.each(Object.keys(frozen))('%s keeps every property with its default', (type) => {
		expect(current[type].defaults).toMatchObject(frozen[type].defaults);
		expect(current[type].credentials).toEqual(frozen[type].credentials);
	});

	it.each(ACTION_NODES.map((s) => s.type))(
		'%s keeps every operation, with its outputs in the same order',
		(type) => {
			expect(current[type].operations).toMatchObject(frozen[type].operations ?? {});
		},
	);
});

describe('the failure output, added after 1.0.0', () => {
	it.each(ACTION_NODES.map((s) => s.type))(
		'%s: a new node has the setting off, and an editor file that keeps 1.0.0 outputs for flows without it',
		(type) => {
			expect(current[type].defaults.failureOutput).toBe(false);
			expect(current[type].defaults.outputs).toBe(2);
		},
	);

	it('reads a node saved by 1.0.0 (no setting) as on when its failure output is wired, keeping its outputs', () => {
		expect(failuresOf({ wires: [['a'], ['b']] })).toEqual({ port: true, toPort: true });
		expect(failuresOf({ wires: [['a'], []] })).toEqual({ port: true, toPort: false });
		expect(failuresOf({ wires: [['a']] })).toEqual({ port: true, toPort: false });
		expect(failuresOf({ failureOutput: '', wires: [['a'], ['b']] })).toEqual({
			port: true,
			toPort: true,
		});
	});

	it('follows the setting once it is saved: off, no failure output whatever is wired; on, the second output', () => {
		expect(failuresOf({ failureOutput: false, wires: [['a'], ['b']] })).toEqual({
			port: false,
			toPort: false,
		});
		expect(failuresOf({ failureOutput: true, wires: [['a']] })).toEqual({
			port: true,
			toPort: true,
		});
		expect(failuresOf({ failureOutput: 'true' })).toEqual({ port: true, toPort: true });
		const check = { outputs: ['finished', 'still rendering'] };
		expect(portsOf(check, false)).toEqual(['finished', 'still rendering']);
		expect(portsOf(check, true)).toEqual(['finished', 'failed', 'still rendering']);
	});
});
