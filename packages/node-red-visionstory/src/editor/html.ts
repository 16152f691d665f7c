/**
 * The editor's HTML for each node, generated from the same specs the runtime reads (build time only):
 * the edit form, the node's registration (defaults with their validators, outputs, labels). The help
 * is rendered by help.ts from the message catalogue into locales/<lang>/<set>.html.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Field } from '../field';
import { fieldProblem } from '../field';
import type { NodeSpec } from '../spec';
import { portsOf } from '../spec';
import { MIN_POLL_SECONDS, WATCH_EVENTS, WATCH_STATUSES } from '../watch';
import type { Catalogue } from './catalogue';

export const CATEGORY = 'VisionStory';
export const COLOR = '#C9B8F5';

const CLIENT = readFileSync(join(__dirname, 'client.js'), 'utf8');

export function escape(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function input(field: Field): string {
	const id = `node-input-${field.name}`;
	const placeholder = field.placeholder ? ` placeholder="${escape(field.placeholder)}"` : '';
	switch (field.type) {
		case 'boolean':
			return `<input type="checkbox" id="${id}" style="width:auto; margin:0;">`;
		case 'select':
			return `<select id="${id}" style="width:70%">${(field.options ?? [])
				.map(([value, label]) => `<option value="${escape(value)}">${escape(label)}</option>`)
				.join('')}</select>`;
		case 'text':
		case 'json':
			return `<textarea id="${id}" rows="${field.type === 'json' ? 3 : 4}" style="width:70%"${placeholder}></textarea>`;
		case 'picker':
			return [
				`<input type="text" id="${id}" list="vs-list-${field.name}" style="width:60%"${placeholder}>`,
				`<button class="red-ui-button vs-load" data-list="${field.list}" data-target="vs-list-${field.name}" data-note="vs-note-${field.name}" title="Load from your account"><i class="fa fa-search"></i></button>`,
				`<datalist id="vs-list-${field.name}"></datalist>`,
			].join('');
		case 'property':
			return `<input type="text" id="${id}" class="vs-msg-property" style="width:70%">`;
		default:
			return `<input type="text" id="${id}" style="width:70%"${placeholder}>`;
	}
}

/** The rule for settings and msg, on the field itself where the message can fill it. */
export function fillsFrom(field: Field): string | undefined {
	return field.override ? `Empty here: msg.${field.name} fills it.` : undefined;
}

function row(field: Field): string {
	const tips = [field.tip, fillsFrom(field)].filter(Boolean).join(' ');
	const tip = tips
		? `<div class="form-tips" style="margin-left:105px; margin-top:3px;">${escape(tips)}</div>`
		: '';
	const note =
		field.type === 'picker'
			? `<div class="form-tips" id="vs-note-${field.name}" style="margin-left:105px;"></div>`
			: '';
	return `<div class="form-row" id="vs-row-${field.name}">
	<label for="node-input-${field.name}">${escape(field.label)}</label>
	${input(field)}${note}${tip}
</div>`;
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
		['outputs', JSON.stringify({ value: portsOf(spec.operations[0]).length })],
		['outputProperty', JSON.stringify({ value: 'payload' })],
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

function registration(spec: NodeSpec, catalogue: Catalogue): string {
	const opLabels = Object.fromEntries(spec.operations.map((op) => [op.value, op.label]));
	const ports = Object.fromEntries(spec.operations.map((op) => [op.value, portsOf(op)]));
	const fields = spec.fields.map((f) => ({ name: f.name, ops: f.ops, showIf: f.showIf }));
	return `RED.nodes.registerType(${JSON.stringify(spec.type)}, {
	category: ${JSON.stringify(CATEGORY)},
	color: ${JSON.stringify(COLOR)},
	defaults: ${defaults(spec)},
	inputs: 1,
	outputs: ${portsOf(spec.operations[0]).length},
	icon: ${JSON.stringify(spec.icon)},
	paletteLabel: ${JSON.stringify(spec.label)},
	label: function () {
		var ops = ${JSON.stringify(opLabels)};
		return this.name || ${JSON.stringify(spec.label)} + ': ' + (ops[this.operation] || this.operation);
	},
	inputLabels: ${JSON.stringify(catalogue.inputLabel)},
	outputLabels: function (index) {
		var ports = ${JSON.stringify(ports)}[this.operation] || ['result', 'failed'];
		return ports[index] || '';
	},
	oneditprepare: function () {
		VisionStoryEditor.prepare(this, ${JSON.stringify(fields)});
	},
	oneditsave: function () {
		var ports = ${JSON.stringify(ports)}[$('#node-input-operation').val()];
		this.outputs = ports ? ports.length : 2;
	}
});`;
}

export function actionNodeHtml(spec: NodeSpec, catalogue: Catalogue): string {
	const options = spec.operations
		.map((op) => `<option value="${op.value}">${escape(op.label)}</option>`)
		.join('');
	return `<script type="text/javascript">
${CLIENT.replace('/*FIELD_PROBLEM*/', `fieldProblem: ${fieldProblem.toString()},`)}
${registration(spec, catalogue)}
</script>

<script type="text/html" data-template-name="${spec.type}">
<div class="form-row">
	<label for="node-input-name"><i class="fa fa-tag"></i> Name</label>
	<input type="text" id="node-input-name" style="width:70%">
</div>
<div class="form-row">
	<label for="node-input-config"><i class="fa fa-key"></i> Account</label>
	<input type="text" id="node-input-config">
</div>
<div class="form-row">
	<label for="node-input-operation"><i class="fa fa-wrench"></i> Operation</label>
	<select id="node-input-operation" style="width:70%">${options}</select>
</div>
${spec.fields.map(row).join('\n')}
<div class="form-row">
	<label for="node-input-outputProperty"><i class="fa fa-sign-out"></i> Result to</label>
	<input type="text" id="node-input-outputProperty" class="vs-msg-property" style="width:70%">
</div>
<div class="form-tips">${escape(catalogue.common.rule)}</div>
</script>
`;
}

export function configNodeHtml(): string {
	return `<script type="text/javascript">
(function () {
// A spend limit: empty or 0 for none, else a whole number of credits (the runtime checks it again).
// Two parameters: Node-RED shows a returned string as the reason only for such validators.
function wholeCredits(field) {
	return function (v, opt) {
		var text = v === undefined || v === null ? '' : String(v).trim();
		return text === '' || /^\\d+$/.test(text) || field + ': a whole number of credits, empty or 0 for none';
	};
}
RED.nodes.registerType('visionstory-config', {
	category: 'config',
	defaults: {
		name: { value: '' },
		baseUrl: { value: 'https://openapi.visionstory.ai', required: true },
		maxCreditsPerMessage: { value: '', label: 'Max credits / message', validate: wholeCredits('Max credits / message') },
		keepAtLeastCredits: { value: '', label: 'Keep at Least N Credits', validate: wholeCredits('Keep at Least N Credits') },
		requestsPerSecond: { value: '', validate: function (v) { return v === '' || /^\\d+$/.test(v); } }
	},
	credentials: { apiKey: { type: 'password' } },
	label: function () { return this.name || 'VisionStory'; }
});
})();
</script>

<script type="text/html" data-template-name="visionstory-config">
<div class="form-row">
	<label for="node-config-input-name"><i class="fa fa-tag"></i> Name</label>
	<input type="text" id="node-config-input-name">
</div>
<div class="form-row">
	<label for="node-config-input-apiKey"><i class="fa fa-key"></i> API key</label>
	<input type="password" id="node-config-input-apiKey" placeholder="sk-vs-…">
</div>
<div class="form-row">
	<label for="node-config-input-baseUrl"><i class="fa fa-globe"></i> Base URL</label>
	<input type="text" id="node-config-input-baseUrl">
</div>
<div class="form-row">
	<label for="node-config-input-maxCreditsPerMessage">Max credits / message</label>
	<input type="text" id="node-config-input-maxCreditsPerMessage" placeholder="no cap">
</div>
<div class="form-tips">A charged call that would take one message (and everything it started, across VisionStory nodes) past this many credits is refused before it is sent.</div>
<div class="form-row">
	<label for="node-config-input-keepAtLeastCredits">Keep at Least N Credits</label>
	<input type="text" id="node-config-input-keepAtLeastCredits" placeholder="no limit">
</div>
<div class="form-tips">A limit across every message, node and flow using this account: before each charged call the account balance is read (free), and a call that could take it below this many credits is refused, with nothing charged. Calls under way in this Node-RED count as spent. Empty or 0: no limit.</div>
<div class="form-row">
	<label for="node-config-input-requestsPerSecond">Requests / s</label>
	<input type="text" id="node-config-input-requestsPerSecond" placeholder="5">
</div>
</script>

`;
}

export function watchNodeHtml(): string {
	return `<script type="text/javascript">
${CLIENT.replace('/*FIELD_PROBLEM*/', `fieldProblem: ${fieldProblem.toString()},`)}
RED.nodes.registerType('visionstory-watch', {
	category: ${JSON.stringify(CATEGORY)},
	color: ${JSON.stringify(COLOR)},
	defaults: {
		name: { value: '' },
		config: { value: '', type: 'visionstory-config', required: true },
		events: { value: ${JSON.stringify([...WATCH_EVENTS])} },
		statuses: { value: ${JSON.stringify([...WATCH_STATUSES])} },
		pollIntervalSeconds: { value: 60, validate: function (v, opt) { var p = VisionStoryEditor.fieldProblem(${JSON.stringify({ type: 'number', min: MIN_POLL_SECONDS })}, v); return p === '' || 'Poll every (s): ' + p; } }
	},
	inputs: 0,
	outputs: 1,
	outputLabels: ['finished or failed task'],
	icon: 'visionstory-watch.svg',
	paletteLabel: 'watch',
	label: function () { return this.name || 'watch videos'; }
});
</script>

<script type="text/html" data-template-name="visionstory-watch">
<div class="form-row">
	<label for="node-input-name"><i class="fa fa-tag"></i> Name</label>
	<input type="text" id="node-input-name">
</div>
<div class="form-row">
	<label for="node-input-config"><i class="fa fa-key"></i> Account</label>
	<input type="text" id="node-input-config">
</div>
<div class="form-row">
	<label for="node-input-events">Videos</label>
	<select id="node-input-events" multiple size="2" style="width:70%">
		<option value="talkingVideo">Talking videos</option>
		<option value="aiVideo">AI videos</option>
	</select>
</div>
<div class="form-row">
	<label for="node-input-statuses">When</label>
	<select id="node-input-statuses" multiple size="2" style="width:70%">
		<option value="created">finished (created)</option>
		<option value="failed">failed</option>
	</select>
</div>
<div class="form-row">
	<label for="node-input-pollIntervalSeconds">Poll every (s)</label>
	<input type="text" id="node-input-pollIntervalSeconds" style="width:80px"> (at least ${MIN_POLL_SECONDS})
</div>
</script>

`;
}
