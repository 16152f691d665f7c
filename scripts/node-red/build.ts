/**
 * Builds the Node-RED package: one bundle (dist/visionstory.js) holding the nodes and the shared
 * VisionStory client with zod, so nothing of the client is copied into the repository and the package
 * has no runtime dependencies; per node set (src/nodes/<set>/) a one-line entry file, its editor file
 * (the node's own <set>.html with its shared rows from src/editor/rows.html in place, after the
 * editor helper and, for an action node, its spec as the editor reads it and its registration), and
 * per language its message catalogue and help (dist/locales/<lang>/<set>.json and .html, Node-RED's
 * layout); the icons beside them (dist/icons). The bundle is not minified and has a
 * source map: a stack trace names src/… with Node's --enable-source-maps, and reads as code without it.
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
	setCatalogue,
} from '../../packages/node-red-visionstory/src/editor/catalogue';
import { actionNodeHelp, plainNodeHelp } from '../../packages/node-red-visionstory/src/editor/help';
import {
	actionRegistration,
	actionSpecScript,
	editorHelper,
} from '../../packages/node-red-visionstory/src/editor/registration';
import { editorForm } from '../../packages/node-red-visionstory/src/editor/rows';
import { nodes } from '../../packages/node-red-visionstory/src';
import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { NODE_RED_PACKAGE_DIR } from './paths';

/** A node set's name: its type without the prefix (src/nodes/talking-video/, dist/talking-video.js). */
export function fileOf(type: string): string {
	return type.replace(/^visionstory-/, '');
}

/** A help file as Node-RED reads it from locales/<lang>/<set>.html. */
function helpHtml(type: string, help: string): string {
	return `<script type="text/html" data-help-name="${type}">\n${help}</script>\n`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, '\t')}\n`;

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
	const specs = new Map(ACTION_NODES.map((spec) => [spec.type, spec]));
	for (const type of Object.keys(nodes)) {
		const set = fileOf(type);
		const spec = specs.get(type);
		writeFileSync(
			join(dist, `${set}.js`),
			`module.exports = require('./visionstory.js').nodes[${JSON.stringify(type)}];\n`,
		);
		const registration = spec ? `${actionSpecScript(spec)}\n${actionRegistration(type)}\n` : '\n';
		writeFileSync(
			join(dist, `${set}.html`),
			`${editorHelper()}${registration}${editorForm(set, type)}`,
		);
		for (const language of languages()) {
			const dir = join(dist, 'locales', language);
			mkdirSync(dir, { recursive: true });
			const catalogue = spec
				? catalogueOf(spec, set, language)
				: plainCatalogueOf(type, set, language);
			writeFileSync(join(dir, `${set}.json`), json(setCatalogue(type, catalogue, language)));
			const help = spec
				? actionNodeHelp(spec, catalogueOf(spec, set, language))
				: plainNodeHelp(plainCatalogueOf(type, set, language));
			writeFileSync(join(dir, `${set}.html`), helpHtml(type, help));
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
