/**
 * The runtime's words: every status, log and warning text, and the node-level errors, by catalogue
 * key. The English is in locales/en-US/runtime.json, a translation beside it (locales/de/…); the build
 * puts them under "visionstory" in every node set's catalogue (dist/locales/<lang>/<set>.json), so a
 * node's RED._ finds them in its own set, in the language Node-RED runs in (settings.lang or LANG).
 */
import type { NodeAPI } from 'node-red';

import english from './locales/en-US/runtime.json';

type Catalogue = typeof english;
type KeysOf<T, Prefix extends string = ''> = {
	[K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A key of runtime.json: `status.done`, `log.closed`… */
export type TextKey = KeysOf<Catalogue>;
export type StatusKey = KeysOf<Catalogue['status']>;
export type Substitutions = Record<string, string | number>;
export type Texts = (key: TextKey, substitutions?: Substitutions) => string;

/** The catalogue's top key for the runtime texts, in every set's file. */
export const RUNTIME_TEXTS = 'visionstory';

/**
 * RED._ of the node's set; where it has no catalogue to read (it answers the key itself, or a host
 * gives no RED._), the English bundled here, so a status never shows a key.
 */
export function textsOf(RED: Partial<Pick<NodeAPI, '_'>>): Texts {
	return (key, substitutions) => {
		const id = `${RUNTIME_TEXTS}.${key}`;
		const text = RED._?.(id, substitutions);
		return text !== undefined && text !== id ? text : inEnglish(key, substitutions);
	};
}

function inEnglish(key: TextKey, substitutions: Substitutions = {}): string {
	const text = key
		.split('.')
		.reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], english);
	return String(text).replace(/__(\w+)__/g, (_, name: string) => String(substitutions[name] ?? ''));
}
