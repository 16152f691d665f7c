/**
 * The editor's HTML for each node, generated from the same specs the runtime reads (build time only):
 * the edit form, the node's registration (defaults, outputs, labels) and its help.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Field } from '../field';
import type { NodeSpec } from '../spec';
import { MIN_POLL_SECONDS, WATCH_EVENTS, WATCH_STATUSES } from '../watch';

export const CATEGORY = 'VisionStory';
export const COLOR = '#C9B8F5';

const CLIENT = readFileSync(join(__dirname, 'client.js'), 'utf8');

function escape(text: string): string {
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
		default:
			return `<input type="text" id="${id}" style="width:70%"${placeholder}>`;
	}
}

function row(field: Field): string {
	const tip = field.tip
		? `<div class="form-tips" style="margin-left:105px; margin-top:3px;">${escape(field.tip)}</div>`
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

function defaults(spec: NodeSpec): Record<string, unknown> {
	const out: Record<string, unknown> = {
		name: { value: '' },
		config: { value: '', type: 'visionstory-config', required: true },
		operation: { value: spec.operations[0].value },
		outputs: { value: 1 },
	};
	for (const field of spec.fields) out[field.name] = { value: field.default };
	return out;
}

function help(spec: NodeSpec): string {
	const ops = spec.operations
		.map(
			(op) =>
				`<dt>${escape(op.label)} <span class="property-type">${op.value}</span></dt><dd>${escape(op.description)}${op.outputs ? ` Outputs: ${op.outputs.map((o, i) => `${i + 1}. ${escape(o)}`).join(', ')}.` : ''}</dd>`,
		)
		.join('\n');
	const overrides = spec.fields
		.filter((f) => f.override)
		.map(
			(f) =>
				`<dt class="optional">${f.name} <span class="property-type">${f.type === 'json' ? 'array | object' : f.type === 'number' ? 'number' : 'string'}</span></dt><dd>${escape(f.label)} (${f.ops.join(', ')})</dd>`,
		)
		.join('\n');
	return `<p>${escape(spec.summary)}</p>
<h3>Operations</h3>
<dl class="message-properties">${ops}</dl>
<h3>Inputs</h3>
<p>Each message runs the operation chosen in the node. These message properties, when present, win over the node's settings:</p>
<dl class="message-properties">${overrides || '<dd>none</dd>'}</dl>
<h3>Outputs</h3>
<dl class="message-properties">
<dt>payload <span class="property-type">object | array | Buffer | string</span></dt><dd>The API's answer; the file itself (a Buffer, or the path it was written to) when a result is downloaded. A batch (an array in) gives an array out, in the same order, <code>null</code> where an entry failed; written to an <i>Output file</i> path that names neither <code>{id}</code> nor <code>{index}</code>, each result gets its number: <code>video.mp4</code> → <code>video-1.mp4</code>, <code>video-2.mp4</code>…</dd>
<dt class="optional">visionstory <span class="property-type">object | array</span></dt><dd>The API's answer (task, links, cost) when payload holds the file.</dd>
<dt class="optional">errors <span class="property-type">array</span></dt><dd>Entries of a batch that failed: <code>index</code>, <code>message</code>, <code>hint</code>, <code>videoIds</code>.</dd>
</dl>
<h3>Errors</h3>
<p>Every failure goes to Catch nodes with the service's message and hint: <code>msg.error.message</code> holds both, <code>msg.error.cause</code> the details (<code>hint</code>, <code>status</code>, <code>code</code>, <code>issues</code>, <code>videoIds</code>). Bad input is refused before anything is sent, so nothing is charged.</p>`;
}

function registration(spec: NodeSpec): string {
	const opLabels = Object.fromEntries(spec.operations.map((op) => [op.value, op.label]));
	const outputs = Object.fromEntries(
		spec.operations.filter((op) => op.outputs).map((op) => [op.value, op.outputs]),
	);
	const fields = spec.fields.map((f) => ({ name: f.name, ops: f.ops, showIf: f.showIf }));
	return `RED.nodes.registerType(${JSON.stringify(spec.type)}, {
	category: ${JSON.stringify(CATEGORY)},
	color: ${JSON.stringify(COLOR)},
	defaults: ${JSON.stringify(defaults(spec))},
	inputs: 1,
	outputs: 1,
	icon: ${JSON.stringify(spec.icon)},
	paletteLabel: ${JSON.stringify(spec.label)},
	label: function () {
		var ops = ${JSON.stringify(opLabels)};
		return this.name || ${JSON.stringify(spec.label)} + ': ' + (ops[this.operation] || this.operation);
	},
	outputLabels: function (index) {
		var outputs = ${JSON.stringify(outputs)}[this.operation];
		return outputs ? outputs[index] : '';
	},
	oneditprepare: function () {
		VisionStoryEditor.prepare(this, ${JSON.stringify(fields)});
	},
	oneditsave: function () {
		var outputs = ${JSON.stringify(outputs)}[$('#node-input-operation').val()];
		this.outputs = outputs ? outputs.length : 1;
	}
});`;
}

export function actionNodeHtml(spec: NodeSpec): string {
	const options = spec.operations
		.map((op) => `<option value="${op.value}">${escape(op.label)}</option>`)
		.join('');
	return `<script type="text/javascript">
${CLIENT}
${registration(spec)}
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
</script>

<script type="text/html" data-help-name="${spec.type}">
${help(spec)}
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

<script type="text/html" data-help-name="visionstory-config">
<p>A VisionStory account: the API key (kept encrypted in Node-RED's credentials file, never exported with a flow), the Base URL, and limits.</p>
<dl class="message-properties">
<dt>API key</dt><dd>Starts with <code>sk-vs-</code>. It is sent only to the Base URL's origin, never to the hosts that serve result files.</dd>
<dt>Base URL</dt><dd><code>https://openapi.visionstory.ai</code>. <code>http://</code> is refused except on this machine (localhost), so the key never travels in clear text.</dd>
<dt>Max credits / message</dt><dd>The spend cap of one message, summed over every VisionStory node it passes (its <code>_msgid</code>). Prices known in advance (AI video, images, speech) are checked before sending; others are charged one at a time and refused once the cap is reached. Empty: no cap.</dd>
<dt>Keep at Least N Credits</dt><dd>A floor under the account's balance that holds across messages, nodes, flows and loops, where the cap above counts one message. Before every charged call the balance is read (<code>GET /api/v1/billing/credits</code>, free) and the call is refused, with nothing sent, when its price (1 credit when known only afterwards, as for talking videos) would take the balance below this. Calls under way in this Node-RED, from every config node with the same key, are counted as spent; calls of unknown price go one at a time. Other programs using the key are seen only through the balance. Empty or 0: no limit.</dd>
<dt>Requests / s</dt><dd>The most requests a second for this key, shared by every node using it (default 5, at most 20); a rate-limit answer slows it down further.</dd>
</dl>
</script>
`;
}

export function watchNodeHtml(): string {
	return `<script type="text/javascript">
RED.nodes.registerType('visionstory-watch', {
	category: ${JSON.stringify(CATEGORY)},
	color: ${JSON.stringify(COLOR)},
	defaults: {
		name: { value: '' },
		config: { value: '', type: 'visionstory-config', required: true },
		events: { value: ${JSON.stringify([...WATCH_EVENTS])} },
		statuses: { value: ${JSON.stringify([...WATCH_STATUSES])} },
		pollIntervalSeconds: { value: 60, validate: function (v) { return Number(v) >= ${MIN_POLL_SECONDS}; } }
	},
	inputs: 0,
	outputs: 1,
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

<script type="text/html" data-help-name="visionstory-watch">
<p>Starts a flow once for every video task that finishes or fails after the node was deployed.</p>
<h3>Outputs</h3>
<dl class="message-properties">
<dt>payload <span class="property-type">object</span></dt><dd>The task as the API shows it: <code>video_id</code>, <code>status</code>, <code>video_url</code>, <code>cost_credit</code>…</dd>
<dt>topic <span class="property-type">string</span></dt><dd><code>talkingVideo</code> or <code>aiVideo</code>.</dd>
<dt>status <span class="property-type">string</span></dt><dd><code>created</code> or <code>failed</code>.</dd>
</dl>
<h3>Details</h3>
<p>The first poll only notes where the list stands and which tasks are still rendering; nothing is sent for tasks that finished before. Each later poll sends every task that reached a chosen status since, exactly once.</p>
<p>What the node has seen is kept in its context. <b>With a persistent context store</b> (<code>contextStorage</code> with <code>localfilesystem</code> in settings.js) it survives a restart: tasks that finished while Node-RED was down are sent after it starts, and none twice. <b>Without one</b> (Node-RED's default keeps context in memory) a restart forgets it, and the node says so in its status (“not kept across restarts”) and in the log. Node-RED writes the file store every 30 s by default and when it stops: after a crash, tasks of the last seconds may be sent again.</p>
</script>
`;
}
