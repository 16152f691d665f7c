/**
 * The message catalogue of a node set (dist/locales/<lang>/<set>.json), as the build assembles it:
 * the texts the specs carry (labels, tips, choices, operation descriptions) as the English base, the
 * node's own file (src/nodes/<set>/locales/<lang>/<set>.json: inputs, details, references), the
 * shared help texts (src/locales/<lang>/common.json) under the node's key, and the runtime's status
 * and log texts (src/locales/<lang>/runtime.json) under "visionstory". A translation is a folder of
 * files with the keys it translates; the rest falls back to en-US.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Field } from '../field';
import type { NodeSpec } from '../spec';
import { RUNTIME_TEXTS } from '../texts';

export interface PropertyText {
	type: string;
	text: string;
}

/** The shared texts every node's help and form use. */
export interface CommonTexts {
	/** The rule for settings and message properties. */
	rule: string;
	/** Under a field the message can fill (`__name__`: its name). */
	fills: string;
	/** What output 1 carries beside msg.payload, by property. */
	result: Record<string, PropertyText>;
	/** What a failure carries (to Catch, or by the failure output), by property. */
	failed: Record<string, PropertyText>;
	/** Where failures go: Catch, or the failure output. */
	outcome: string;
	/** What a deploy or a stop does to renders. */
	deploy: string;
	/** The still-rendering output of Check Status. */
	stillRendering: string;
	references: Array<{ href: string; text: string }>;
	headings: Record<
		'inputs' | 'outputs' | 'details' | 'references' | 'operations' | 'settings' | 'failures',
		string
	>;
	/** The editor's own labels (name, account, operation, result to, failure output). */
	form: Record<string, string>;
}

export interface Catalogue {
	summary: string;
	inputLabel: string;
	/** msg.payload as it comes in. */
	input: PropertyText;
	details: string[];
	references: Array<{ href: string; text: string }>;
	operations: Record<string, { label: string; description: string; payload?: PropertyText }>;
	fields: Record<
		string,
		{ label: string; tip?: string; form?: string; options?: Record<string, string> }
	>;
	common: CommonTexts;
}

export const SOURCE_DIR = join(__dirname, '..');
export const BASE_LANGUAGE = 'en-US';

type Json = Record<string, unknown>;

function readJson(path: string): Json {
	return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Json) : {};
}

function merge(base: Json, over: Json): Json {
	const out: Json = { ...base };
	for (const [key, value] of Object.entries(over)) {
		const known = out[key];
		out[key] =
			value &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			known &&
			typeof known === 'object'
				? merge(known as Json, value as Json)
				: value;
	}
	return out;
}

/** A text file of a language, over the base language's. */
function inLanguage(path: (language: string) => string, language: string): Json {
	const base = readJson(path(BASE_LANGUAGE));
	return language === BASE_LANGUAGE ? base : merge(base, readJson(path(language)));
}

/** A node's own folder (src/nodes/<set>/). */
export function nodeDir(set: string): string {
	return join(SOURCE_DIR, 'nodes', set);
}

/** The languages the package has catalogues for (en-US first): the shared ones and every node's. */
export function languages(): string[] {
	const dirs = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
	const all = new Set([
		...dirs(join(SOURCE_DIR, 'locales')),
		...dirs(join(SOURCE_DIR, 'nodes')).flatMap((set) => dirs(join(nodeDir(set), 'locales'))),
	]);
	all.delete(BASE_LANGUAGE);
	return [BASE_LANGUAGE, ...[...all].sort()];
}

/** The option key of a choice: its value, `_` for the empty one. */
export function optionKey(value: string): string {
	return value === '' ? '_' : value;
}

/** The texts a spec carries, as catalogue entries (the form's tip joins a field's tip and who fills it). */
function fromSpec(spec: NodeSpec, common: CommonTexts): Json {
	const form = (f: Field) =>
		[f.tip, f.override ? common.fills.replace(/__name__/g, f.name) : undefined]
			.filter(Boolean)
			.join(' ');
	return {
		summary: spec.summary,
		operations: Object.fromEntries(
			spec.operations.map((op) => [op.value, { label: op.label, description: op.description }]),
		),
		fields: Object.fromEntries(
			spec.fields.map((f) => [
				f.name,
				{
					label: f.label,
					...(f.tip ? { tip: f.tip } : {}),
					...(form(f) ? { form: form(f) } : {}),
					...(f.options
						? { options: Object.fromEntries(f.options.map(([v, l]) => [optionKey(v), l])) }
						: {}),
				},
			]),
		),
	};
}

/** The shared help texts of a language. */
export function commonTexts(language = BASE_LANGUAGE): CommonTexts {
	return inLanguage((lang) => join(SOURCE_DIR, 'locales', lang, 'common.json'), language) as never;
}

/** The runtime's status and log texts of a language. */
export function runtimeTexts(language = BASE_LANGUAGE): Json {
	return inLanguage((lang) => join(SOURCE_DIR, 'locales', lang, 'runtime.json'), language);
}

/** A node's own texts of a language, under its type. */
function ownTexts(type: string, set: string, language: string): Json {
	const file = (lang: string) => join(nodeDir(set), 'locales', lang, `${set}.json`);
	return (inLanguage(file, language)[type] as Json) ?? {};
}

/** An action node's texts in a language: the spec's, its own file's, the shared ones. */
export function catalogueOf(spec: NodeSpec, set: string, language = BASE_LANGUAGE): Catalogue {
	const common = commonTexts(language);
	const texts = merge(fromSpec(spec, common), ownTexts(spec.type, set, language));
	return { details: [], references: [], ...texts, common } as unknown as Catalogue;
}

/** The texts of a node without a spec (the watch and config nodes): written whole in its catalogue. */
export interface PlainCatalogue {
	summary: string;
	/** Message properties in, when it takes messages. */
	inputs?: Array<PropertyText & { name: string }>;
	/** Message properties out, when it sends messages. */
	outputs?: Array<PropertyText & { name: string }>;
	/** The config node's settings. */
	settings?: Array<{ name: string; text: string }>;
	details: string[];
	references: Array<{ href: string; text: string }>;
	/** The editor form's labels and tips. */
	form?: Record<string, string>;
	common: CommonTexts;
}

export function plainCatalogueOf(
	type: string,
	set: string,
	language = BASE_LANGUAGE,
): PlainCatalogue {
	return {
		details: [],
		references: [],
		...ownTexts(type, set, language),
		common: commonTexts(language),
	} as unknown as PlainCatalogue;
}

/** A set's catalogue file as Node-RED reads it: the node's texts under its type, the runtime's beside them. */
export function setCatalogue(type: string, texts: object, language = BASE_LANGUAGE): Json {
	return { [type]: texts, [RUNTIME_TEXTS]: runtimeTexts(language) };
}
