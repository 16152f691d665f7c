/**
 * Builds the Node-RED package: one bundle (dist/visionstory.js) holding the nodes and the shared
 * VisionStory client with zod, so nothing of the client is copied into the repository and the package
 * has no runtime dependencies; per node set a small entry file and its editor HTML, generated from the
 * same specs the runtime reads; per language its message catalogue and help
 * (dist/locales/<lang>/<set>.json and .html, Node-RED's layout); the icons beside them (dist/icons).
 * The bundle is not minified and has a source map: a stack trace names src/… with Node's
 * --enable-source-maps, and reads as code without it.
 *
 *   tsx scripts/node-red/build.ts
 */
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	catalogueOf,
	languages,
	plainCatalogueOf,
} from '../../packages/node-red-visionstory/src/editor/catalogue';
import { actionNodeHelp, plainNodeHelp } from '../../packages/node-red-visionstory/src/editor/help';
import {
	actionNodeHtml,
	configNodeHtml,
	watchNodeHtml,
} from '../../packages/node-red-visionstory/src/editor/html';
import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { NODE_RED_PACKAGE_DIR } from './paths';

/** A node set's file name: its type without the prefix (dist/talking-video.js). */
export function fileOf(type: string): string {
	return type.replace(/^visionstory-/, '');
}

/** A help file as Node-RED reads it from locales/<lang>/<set>.html. */
function helpHtml(type: string, help: string): string {
	return `<script type="text/html" data-help-name="${type}">\n${help}</script>\n`;
}

export async function buildNodeRedPackage(): Promise<void> {
	const dist = join(NODE_RED_PACKAGE_DIR, 'dist');
	rmSync(dist, { recursive: true, force: true });
	mkdirSync(dist, { recursive: true });
	await build({
		entryPoints: [join(NODE_RED_PACKAGE_DIR, 'src', 'index.ts')],
		outfile: join(dist, 'visionstory.js'),
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		minify: false,
		sourcemap: true,
		sourcesContent: false,
		legalComments: 'linked',
		logLevel: 'warning',
	});
	const sets: Array<[string, string]> = [
		['visionstory-config', configNodeHtml()],
		...ACTION_NODES.map((spec): [string, string] => [
			spec.type,
			actionNodeHtml(spec, catalogueOf(spec, fileOf(spec.type))),
		]),
		['visionstory-watch', watchNodeHtml()],
	];
	for (const [type, html] of sets) {
		writeFileSync(
			join(dist, `${fileOf(type)}.js`),
			`module.exports = require('./visionstory.js').nodes[${JSON.stringify(type)}];\n`,
		);
		writeFileSync(join(dist, `${fileOf(type)}.html`), html);
	}
	for (const language of languages()) {
		const dir = join(dist, 'locales', language);
		mkdirSync(dir, { recursive: true });
		for (const spec of ACTION_NODES) {
			const set = fileOf(spec.type);
			const catalogue = catalogueOf(spec, set, language);
			writeFileSync(
				join(dir, `${set}.json`),
				`${JSON.stringify({ [spec.type]: catalogue }, null, '\t')}\n`,
			);
			writeFileSync(join(dir, `${set}.html`), helpHtml(spec.type, actionNodeHelp(spec, catalogue)));
		}
		for (const type of ['visionstory-config', 'visionstory-watch']) {
			const set = fileOf(type);
			const catalogue = plainCatalogueOf(type, set, language);
			writeFileSync(
				join(dir, `${set}.json`),
				`${JSON.stringify({ [type]: catalogue }, null, '\t')}\n`,
			);
			writeFileSync(join(dir, `${set}.html`), helpHtml(type, plainNodeHelp(catalogue)));
		}
	}
	cpSync(join(NODE_RED_PACKAGE_DIR, 'icons'), join(dist, 'icons'), { recursive: true });
}

if (require.main === module) {
	const started = Date.now();
	buildNodeRedPackage().then(
		() => console.log(`node-red-visionstory built in ${Date.now() - started} ms`),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
