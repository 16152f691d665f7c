/**
 * The built editor files as the editor runs them: each dist/<set>.html's scripts in one context with a
 * RED that records what registerType is given, and a node's `_` reading the set's built catalogue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import { NODE_RED_PACKAGE_DIR } from '../../scripts/node-red/paths';

export interface Definition {
	defaults: Record<string, { value: unknown; validate?: (v: unknown, opt: object) => unknown }>;
	credentials?: Record<string, unknown>;
	[key: string]: unknown;
}

const dist = (...parts: string[]) => join(NODE_RED_PACKAGE_DIR, 'dist', ...parts);

/** What the editor files register, by type; `sets` are file names of dist/ (all of them by default). */
export function editorDefinitions(sets: string[]): Record<string, Definition> {
	const types: Record<string, Definition> = {};
	const sandbox: Record<string, unknown> = {
		RED: {
			nodes: {
				registerType(type: string, definition: Definition) {
					types[type] = definition;
				},
			},
		},
	};
	sandbox.window = sandbox;
	for (const set of sets) {
		const html = readFileSync(dist(`${set}.html`), 'utf8');
		for (const [, script] of html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g))
			runInNewContext(script, sandbox);
	}
	return types;
}

/** A node's `_` in the editor: a key of its set's catalogue (dist/locales/<lang>/<set>.json). */
export function editorTexts(set: string, language = 'en-US'): (key: string) => string {
	const catalogue = JSON.parse(readFileSync(dist('locales', language, `${set}.json`), 'utf8'));
	return (key) => {
		const text = key.split('.').reduce<any>((at, part) => at?.[part], catalogue);
		if (typeof text !== 'string') throw new Error(`no text "${key}" in ${set}`);
		return text;
	};
}
