/**
 * Build time: what each node's editor file (src/nodes/<set>/<set>.html) needs from the code, put in
 * front of it in dist/<set>.html: the editor helper (client.js, with the runtime's own fieldProblem
 * and portsOf), and for an action node its spec as the editor reads it (defaults with their
 * validators, operations, outputs, which fields show when) and its registration from that spec, so
 * an action node's file is its edit form alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Field } from '../field';
import { fieldProblem } from '../field';
import type { NodeSpec } from '../spec';
import { portsOf } from '../spec';

export const CATEGORY = 'VisionStory';
export const COLOR = '#C9B8F5';
/** 1.0.0's outputs (a result and a failure output): what a saved flow without `outputs` had. */
const SAVED_OUTPUTS = 2;

const CLIENT = readFileSync(join(__dirname, 'client.js'), 'utf8').replace(
	'/*SHARED_SOURCE*/',
	`fieldProblem: ${fieldProblem.toString()},\n\tportsOf: ${portsOf.toString()},`,
);

export function escape(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

/** A field's validator: the runtime's own check (fieldProblem's source), so the editor marks what a deploy refuses. */
function validator(field: Field): string | undefined {
	if (field.type !== 'number' && field.type !== 'select' && field.type !== 'json') return undefined;
	const check = { type: field.type, min: field.min, options: field.options };
	return `function (v, opt) { var p = VisionStoryEditor.fieldProblem(${JSON.stringify(check)}, v); return p === '' || ${JSON.stringify(`${field.label}: `)} + p; }`;
}

/** The node's defaults as Node-RED's registerType takes them; validators are code, so this is JS text. */
function defaults(spec: NodeSpec): string {
	const entries: Array<[string, string]> = [
		['name', JSON.stringify({ value: '' })],
		['config', JSON.stringify({ value: '', type: 'visionstory-config', required: true })],
		['operation', JSON.stringify({ value: spec.operations[0].value })],
		['outputs', JSON.stringify({ value: SAVED_OUTPUTS })],
		['outputProperty', JSON.stringify({ value: 'payload' })],
		['failureOutput', JSON.stringify({ value: false })],
	];
	for (const field of spec.fields) {
		const validate = validator(field);
		entries.push([
			field.name,
			validate
				? `{ "value": ${JSON.stringify(field.default)}, "validate": ${validate} }`
				: JSON.stringify({ value: field.default }),
		]);
	}
	return `{\n\t\t${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(',\n\t\t')}\n\t}`;
}

/** The helper every node set's editor file starts with (defined once in the editor, whichever loads first). */
export function editorHelper(): string {
	return `<script type="text/javascript">\n${CLIENT}</script>\n`;
}

/** An action node's registration: the definition VisionStoryEditor.actionNode builds from its spec. */
export function actionRegistration(type: string): string {
	const name = `'${type}'`;
	return `<script type="text/javascript">\n\tRED.nodes.registerType(${name}, VisionStoryEditor.actionNode(${name}));\n</script>\n`;
}

/** An action node's spec for the editor, beside the helper: VisionStoryEditor.actionNode(type) reads it. */
export function actionSpecScript(spec: NodeSpec): string {
	const data = {
		category: CATEGORY,
		color: COLOR,
		icon: spec.icon,
		label: spec.label,
		operations: Object.fromEntries(spec.operations.map((op) => [op.value, op.label])),
		outputs: Object.fromEntries(spec.operations.map((op) => [op.value, op.outputs ?? ['result']])),
		fields: spec.fields.map((f) => ({ name: f.name, ops: f.ops, showIf: f.showIf })),
	};
	const json = JSON.stringify(data, null, '\t');
	return `<script type="text/javascript">
VisionStoryEditor.specs[${JSON.stringify(spec.type)}] = Object.assign(${json}, {
	defaults: ${defaults(spec)}
});
</script>
`;
}
