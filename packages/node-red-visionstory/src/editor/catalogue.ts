/**
 * The message catalogue of a node set (locales/<lang>/<set>.json), as the build assembles it: the
 * texts the specs carry (labels, tips, operation descriptions) as the English base, then the
 * package's locales/en-US/<set>.json and common.json (inputs, details, references, the shared rules),
 * then a translation's files over them. A translation is a folder of files, not a code change.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { NodeSpec } from '../spec';

export interface PropertyText {
	type: string;
	text: string;
}

/** The shared texts every node's help and form use. */
export interface CommonTexts {
	/** The rule for settings and message properties. */
	rule: string;
	/** What output 1 carries beside msg.payload, by property. */
	result: Record<string, PropertyText>;
	/** What the failure output carries, by property. */
	failed: Record<string, PropertyText>;
	/** One outcome per message, and a partly failed batch. */
	outcome: string;
	/** What a deploy or a stop does to renders. */
	deploy: string;
	/** The third output of Check Status. */
	stillRendering: string;
	references: Array<{ href: string; text: string }>;
	headings: Record<
		'inputs' | 'outputs' | 'details' | 'references' | 'operations' | 'settings',
		string
	>;
}

export interface Catalogue {
	summary: string;
	inputLabel: string;
	/** msg.payload as it comes in. */
	input: PropertyText;
	details: string[];
	references: Array<{ href: string; text: string }>;
	operations: Record<string, { label: string; description: string; payload?: PropertyText }>;
	fields: Record<string, { label: string; tip?: string }>;
	common: CommonTexts;
}

export const LOCALES_DIR = join(__dirname, '..', '..', 'locales');
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

/** The languages the package has catalogues for (en-US first). */
export function languages(): string[] {
	const dirs = existsSync(LOCALES_DIR) ? readdirSync(LOCALES_DIR) : [];
	return [BASE_LANGUAGE, ...dirs.filter((d) => d !== BASE_LANGUAGE).sort()];
}

/** The texts a spec carries, as catalogue entries. */
function fromSpec(spec: NodeSpec): Json {
	return {
		summary: spec.summary,
		operations: Object.fromEntries(
			spec.operations.map((op) => [op.value, { label: op.label, description: op.description }]),
		),
		fields: Object.fromEntries(
			spec.fields.map((f) => [f.name, { label: f.label, ...(f.tip ? { tip: f.tip } : {}) }]),
		),
	};
}

/** A set's texts in a language: read from `set`'s file under the node type's key, with the common texts. */
export function catalogueOf(spec: NodeSpec, set: string, language = BASE_LANGUAGE): Catalogue {
	let texts = fromSpec(spec);
	let common: Json = {};
	for (const lang of language === BASE_LANGUAGE ? [BASE_LANGUAGE] : [BASE_LANGUAGE, language]) {
		texts = merge(
			texts,
			(readJson(join(LOCALES_DIR, lang, `${set}.json`))[spec.type] as Json) ?? {},
		);
		common = merge(common, readJson(join(LOCALES_DIR, lang, 'common.json')));
	}
	return { details: [], references: [], ...texts, common } as unknown as Catalogue;
}

/** Any shared-text file of a language (the watch and config nodes' help reads it too). */
export function commonTexts(language = BASE_LANGUAGE): CommonTexts {
	let common: Json = {};
	for (const lang of language === BASE_LANGUAGE ? [BASE_LANGUAGE] : [BASE_LANGUAGE, language])
		common = merge(common, readJson(join(LOCALES_DIR, lang, 'common.json')));
	return common as unknown as CommonTexts;
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
	common: CommonTexts;
}

export function plainCatalogueOf(
	type: string,
	set: string,
	language = BASE_LANGUAGE,
): PlainCatalogue {
	let texts: Json = {};
	for (const lang of language === BASE_LANGUAGE ? [BASE_LANGUAGE] : [BASE_LANGUAGE, language])
		texts = merge(texts, (readJson(join(LOCALES_DIR, lang, `${set}.json`))[type] as Json) ?? {});
	return {
		details: [],
		references: [],
		...texts,
		common: commonTexts(language),
	} as unknown as PlainCatalogue;
}
