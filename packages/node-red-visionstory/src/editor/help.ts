/**
 * A node's help in Node-RED's format (Inputs, Outputs, Details, References), rendered at build time
 * from its spec (which properties, of which type, for which operations, which outputs) and its message
 * catalogue (every word), so the help follows the runtime and a translation is a catalogue file.
 */
import type { Field } from '../field';
import type { NodeSpec } from '../spec';
import { portsOf } from '../spec';
import type { Catalogue, PlainCatalogue, PropertyText } from './catalogue';
import { escape } from './registration';

/** A field's type as a message property. */
export function typeOf(field: Field): string {
	if (field.name === 'videoId') return 'string | array';
	switch (field.type) {
		case 'number':
			return 'number';
		case 'boolean':
			return 'boolean';
		case 'json':
			return 'object | array';
		default:
			return 'string';
	}
}

function property(name: string, text: PropertyText, optional = true): string {
	return `<dt${optional ? ' class="optional"' : ''}>${name} <span class="property-type">${escape(text.type)}</span></dt><dd>${text.text}</dd>`;
}

/** What msg.payload is on output 1, per operation: the catalogue's words, else told from the spec. */
function payloadOf(spec: NodeSpec, catalogue: Catalogue, op: string): PropertyText {
	const own = catalogue.operations[op]?.payload;
	if (own) return own;
	const uses = (name: string) => spec.fields.some((f) => f.name === name && f.ops.includes(op));
	if (uses('downloadResult'))
		return {
			type: 'Buffer | string | object',
			text: 'The file (a Buffer; its path with Output file set), or the API data with its links when Download result is off.',
		};
	if (uses('returnAll')) return { type: 'array', text: 'The entries listed.' };
	return { type: 'object', text: "The service's answer." };
}

export function actionNodeHelp(spec: NodeSpec, catalogue: Catalogue): string {
	const c = catalogue.common;
	const label = (op: string) => escape(catalogue.operations[op]?.label ?? op);
	const fieldLabel = (f: Field) => escape(catalogue.fields[f.name]?.label ?? f.label);
	const fromMsg = spec.fields.filter((f) => f.override);
	const inputs = [
		property('payload', catalogue.input, false),
		...fromMsg.map((f) =>
			property(f.name, {
				type: typeOf(f),
				text: `${fieldLabel(f)} (${f.ops.map(label).join(', ')}). ${escape(c.fills.replace(/__name__/g, f.name))}`,
			}),
		),
	].join('\n');
	const payloads = spec.operations
		.map((op) => {
			const p = payloadOf(spec, catalogue, op.value);
			return `<li><b>${label(op.value)}</b> <span class="property-type">${escape(p.type)}</span>: ${p.text}</li>`;
		})
		.join('');
	const resultTypes = [
		...new Set(
			spec.operations.flatMap((op) => payloadOf(spec, catalogue, op.value).type.split(' | ')),
		),
	].join(' | ');
	const results = [
		property('payload', { type: resultTypes, text: `<ul>${payloads}</ul>` }, false),
		...Object.entries(c.result).map(([name, text]) => property(name, text)),
	].join('\n');
	const failed = Object.entries(c.failed)
		.map(([name, text]) => property(name, text, name === 'error'))
		.join('\n');
	const extraPorts = [...new Set(spec.operations.flatMap((op) => portsOf(op, false).slice(1)))].map(
		(port) =>
			`<li>${escape(port)}<dl class="message-properties">${property('payload', { type: 'object', text: c.stillRendering }, false)}</dl></li>`,
	);
	const ports = portsOf(spec.operations[0], false);
	const operations = spec.operations
		.map(
			(op) =>
				`<dt>${label(op.value)} <span class="property-type">${op.value}</span></dt><dd>${escape(catalogue.operations[op.value]?.description ?? op.description)}</dd>`,
		)
		.join('\n');
	const settings = spec.fields
		.map((f) => {
			const tip = catalogue.fields[f.name]?.tip ?? f.tip;
			const def = f.default === '' ? '' : ` Default: <code>${escape(String(f.default))}</code>.`;
			const min = f.min !== undefined ? ` At least ${f.min}.` : '';
			const choices = f.options
				? ` One of: ${f.options.map(([v]) => `<code>${escape(v || '(default)')}</code>`).join(', ')}.`
				: '';
			return `<dt>${fieldLabel(f)} <span class="property-type">${f.name}</span></dt><dd>${tip ? escape(tip) : ''}${min}${choices}${def} (${f.ops.map(label).join(', ')})</dd>`;
		})
		.join('\n');
	const renders = spec.fields.some((f) => f.name === 'waitForCompletion');
	const references = [...catalogue.references, ...c.references]
		.map((r) => `<li><a href="${escape(r.href)}">${escape(r.text)}</a></li>`)
		.join('');
	return `<p>${escape(catalogue.summary)}</p>
<h3>${c.headings.inputs}</h3>
<dl class="message-properties">
${inputs}
</dl>
<p>${c.rule}</p>
<h3>${c.headings.outputs}</h3>
<ol class="node-ports">
<li>${escape(ports[0])}<dl class="message-properties">
${results}
</dl></li>
<li>failed (${escape(c.form.failureOutput)})<dl class="message-properties">
${failed}
</dl></li>
${extraPorts.join('\n')}
</ol>
<p>${escape(c.form.failureOutputTip)}</p>
<h3>${c.headings.details}</h3>
${catalogue.details.map((d) => `<p>${d}</p>`).join('\n')}
<p>${c.outcome}</p>
${renders ? `<p>${c.deploy}</p>` : ''}
<h4>${c.headings.operations}</h4>
<dl class="message-properties">
${operations}
</dl>
<h4>${c.headings.settings}</h4>
<dl class="message-properties">
${settings}
</dl>
<h3>${c.headings.references}</h3>
<ul>${references}</ul>
`;
}

/** The help of a node written whole in its catalogue (watch, config), in the same sections. */
export function plainNodeHelp(catalogue: PlainCatalogue): string {
	const c = catalogue.common;
	const list = (props: Array<PropertyText & { name: string }>) =>
		`<dl class="message-properties">\n${props.map((p) => property(p.name, p, false)).join('\n')}\n</dl>`;
	const references = [...catalogue.references, ...c.references]
		.map((r) => `<li><a href="${escape(r.href)}">${escape(r.text)}</a></li>`)
		.join('');
	return [
		`<p>${catalogue.summary}</p>`,
		...(catalogue.inputs ? [`<h3>${c.headings.inputs}</h3>`, list(catalogue.inputs)] : []),
		...(catalogue.outputs ? [`<h3>${c.headings.outputs}</h3>`, list(catalogue.outputs)] : []),
		...(catalogue.settings
			? [
					`<h3>${c.headings.settings}</h3>`,
					`<dl class="message-properties">\n${catalogue.settings.map((s) => `<dt>${s.name}</dt><dd>${s.text}</dd>`).join('\n')}\n</dl>`,
				]
			: []),
		...(catalogue.details.length
			? [`<h3>${c.headings.details}</h3>`, ...catalogue.details.map((d) => `<p>${d}</p>`)]
			: []),
		`<h3>${c.headings.references}</h3>`,
		`<ul>${references}</ul>`,
		'',
	].join('\n');
}
