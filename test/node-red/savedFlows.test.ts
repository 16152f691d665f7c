/**
 * Saved flows keep each node's type and its properties by name; Node-RED fills a property a saved
 * flow lacks with its default and keeps one the node no longer has without a word. A renamed type,
 * property or operation, or a changed default, is therefore a flow that silently behaves otherwise.
 * These tests hold what the 1.0.0 editor registers (frozen in release-1.0.0/interface.json): every
 * node type, every property with its default, every operation and its outputs. New ones may be added.
 * After an intended addition: UPDATE_FROZEN=1 npx jest -c test/node-red/jest.config.js savedFlows
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { portsOf } from '../../packages/node-red-visionstory/src/spec';
import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';

interface Registered {
	defaults: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	operations?: Record<string, string[]>;
}

const FROZEN = join(__dirname, 'release-1.0.0', 'interface.json');

/** What each editor file registers, run as the editor runs it (the build's output). */
function registered(): Record<string, Registered> {
	const dist = join(NODE_RED_PACKAGE_DIR, 'dist');
	const types: Record<string, Registered> = {};
	for (const file of readdirSync(dist).filter((f) => f.endsWith('.html'))) {
		const html = readFileSync(join(dist, file), 'utf8');
		const script = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
		runInNewContext(script, {
			window: {},
			RED: {
				nodes: {
					registerType(type: string, definition: Registered & { defaults: object }) {
						types[type] = {
							defaults: Object.fromEntries(
								Object.entries(definition.defaults).map(([name, d]) => [
									name,
									(d as { value: unknown }).value,
								]),
							),
							...(definition.credentials ? { credentials: definition.credentials } : {}),
						};
					},
				},
			},
		});
	}
	for (const spec of ACTION_NODES)
		types[spec.type].operations = Object.fromEntries(
			spec.operations.map((op) => [op.value, portsOf(op)]),
		);
	return types;
}

const current = registered();
if (process.env.UPDATE_FROZEN) writeFileSync(FROZEN, `${JSON.stringify(current, null, '\t')}\n`);
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
