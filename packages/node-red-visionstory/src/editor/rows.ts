/**
 * Build time: a node's editor form as Node-RED loads it. The node's own file
 * (src/nodes/<set>/<set>.html) writes its own rows in place and names each shared row where it goes
 * with a marker, `<!-- row: wait -->` or `<!-- row: picker avatarId list=avatars -->`; this puts the
 * row's template from rows.html there (the templates' language is described at the top of that file).
 * A marker or a placeholder the rows do not know stops the build, so a typo never ships a form
 * without its row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeDir } from './catalogue';
import { escape } from './registration';

const TEMPLATES = join(__dirname, 'rows.html');
/** A marker on a line of its own: its indentation, then the row's name and arguments. */
const MARKER = /^([ \t]*)<!--\s*row:\s*([^\n]*?)\s*-->[ \t]*$/gm;
/** Rows name rows (media names select); deeper than this is a row naming itself. */
const MAX_DEPTH = 4;

type Args = Record<string, string | true>;

let templates: Map<string, string> | undefined;

/** The templates of rows.html by name, their common indentation taken off. */
function rowTemplates(): Map<string, string> {
	if (templates) return templates;
	const html = readFileSync(TEMPLATES, 'utf8');
	templates = new Map();
	for (const [, name, body] of html.matchAll(
		/<script type="text\/html" data-row="([\w-]+)">\n([\s\S]*?)\n<\/script>/g,
	)) {
		const lines = body.split('\n').filter((line) => line.trim() !== '');
		const indent = Math.min(...lines.map((line) => /^\t*/.exec(line)![0].length));
		templates.set(name, body.replace(new RegExp(`^\\t{${indent}}`, 'gm'), ''));
	}
	return templates;
}

function unescape(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/** A marker's words: the row, then its name (the first bare word), flags (later bare words) and key=value. */
function parseMarker(text: string): { row: string; args: Args } {
	const args: Args = {};
	let row: string | undefined;
	for (const [, key, double, single, plain, word] of text.matchAll(
		/(\w+)=(?:"([^"]*)"|'([^']*)'|(\S+))|(\S+)/g,
	)) {
		if (key) args[key] = unescape(double ?? single ?? plain);
		else if (row === undefined) row = word;
		else if (args.name === undefined) args.name = word;
		else args[word] = true;
	}
	if (!row) throw new Error(`A row marker names no row: <!-- row: ${text} -->`);
	return { row, args };
}

/** A template with the marker's arguments put in; `used` collects the arguments it read. */
function render(template: string, scope: Args, used: Set<string>, row: string): string {
	const section = /\{\{#(?:each (\w+)\}\}([\s\S]*?)\{\{\/each|(\w+)\}\}([\s\S]*?)\{\{\/\3)\}\}/g;
	let out = '';
	let last = 0;
	for (const match of template.matchAll(section)) {
		const [whole, listKey, listBody, flagKey, flagBody] = match;
		const each = listKey !== undefined;
		const key = listKey ?? flagKey;
		const body = listBody ?? flagBody;
		out += fill(template.slice(last, match.index), scope, used, row);
		last = match.index + whole.length;
		used.add(key);
		const value = scope[key];
		if (value === undefined) continue;
		if (!each) out += render(body, scope, used, row);
		else
			for (const word of String(value).split(/\s+/).filter(Boolean))
				out += render(body, { ...scope, key: word, value: word === '_' ? '' : word }, used, row);
	}
	return out + fill(template.slice(last), scope, used, row);
}

function fill(text: string, scope: Args, used: Set<string>, row: string): string {
	return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
		used.add(key);
		const value = scope[key];
		if (typeof value !== 'string') throw new Error(`The row "${row}" needs ${key}=…`);
		return escape(value);
	});
}

/** A form with each row marker replaced by its row (rows named inside rows included). */
export function expandRows(html: string, type: string): string {
	const form = expand(html, type, 0);
	const stray = /<!--\s*row:[^\n]*/.exec(form);
	if (stray) throw new Error(`A row marker must stand on a line of its own: ${stray[0]}`);
	return form;
}

function expand(html: string, type: string, depth: number): string {
	if (depth > MAX_DEPTH) throw new Error('Rows name each other in a circle');
	return html.replace(MARKER, (_, indent: string, text: string) => {
		const { row, args } = parseMarker(text);
		const template = rowTemplates().get(row);
		if (template === undefined) throw new Error(`No row "${row}" in src/editor/rows.html`);
		const used = new Set<string>();
		const body = render(template, { ...args, type }, used, row);
		const unused = Object.keys(args).filter((key) => !used.has(key));
		if (unused.length) throw new Error(`The row "${row}" takes no ${unused.join(', ')}`);
		return expand(body, type, depth + 1)
			.split('\n')
			.filter((line) => line.trim() !== '')
			.map((line) => indent + line)
			.join('\n');
	});
}

/** A node set's editor form (src/nodes/<set>/<set>.html) with its shared rows in place. */
export function editorForm(set: string, type: string): string {
	try {
		return expandRows(readFileSync(join(nodeDir(set), `${set}.html`), 'utf8'), type);
	} catch (error) {
		throw new Error(`${set}.html: ${(error as Error).message}`);
	}
}
