/**
 * The editor's shared rows (src/editor/rows.html, put in by src/editor/rows.ts at build time): a
 * marker becomes its row, a marker the rows cannot serve stops the build, and each action node's form
 * agrees with its spec (each property's row is the control of its type, a choice lists the spec's
 * choices in order, the operation choice the spec's operations, a tip shows where the catalogue has
 * one).
 */
import { catalogueOf } from '../../packages/node-red-visionstory/src/editor/catalogue';
import { editorForm, expandRows } from '../../packages/node-red-visionstory/src/editor/rows';
import type { Field } from '../../packages/node-red-visionstory/src/field';
import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { fileOf } from '../../scripts/node-red/build';

const TYPE = 'visionstory-test';

/** The values of a select's options, in order. */
function optionValues(html: string, id: string): string[] {
	const select = new RegExp(`<select id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
	if (!select) throw new Error(`no select ${id}`);
	return [...select[1].matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
}

/** A property's row: from its div to the next row. */
function rowOf(html: string, name: string): string {
	const start = html.indexOf(`<div class="form-row" id="vs-row-${name}">`);
	if (start === -1) throw new Error(`no row for ${name}`);
	const next = html.indexOf('<div class="form-row"', start + 1);
	return html.slice(start, next === -1 ? undefined : next);
}

/** What a field's row must hold to be the control of its type. */
function control(field: Field): RegExp {
	const id = `id="node-input-${field.name}"`;
	switch (field.type) {
		case 'picker':
			return new RegExp(`${id} list="vs-list-${field.name}"[\\s\\S]*data-list="${field.list}"`);
		case 'select':
			return new RegExp(`<select ${id}`);
		case 'boolean':
			return new RegExp(`type="checkbox" ${id}`);
		case 'text':
		case 'json':
			return new RegExp(`<textarea\\s+${id}`);
		case 'property':
			return new RegExp(`type="text" ${id} class="vs-msg-property"`);
		default:
			return new RegExp(`<input\\s+type="text"\\s+${id}\\s+style`);
	}
}

describe('a row marker', () => {
	it('becomes its row, with the node type, the name and the arguments put in', () => {
		const html = expandRows(
			'<form>\n\t<!-- row: input zoom placeholder="1.5" tip -->\n</form>',
			TYPE,
		);
		expect(html).toContain('<div class="form-row" id="vs-row-zoom">');
		expect(html).toContain(`data-i18n="${TYPE}.fields.zoom.label"`);
		expect(html).toContain('placeholder="1.5"');
		expect(html).toContain(`data-i18n="${TYPE}.fields.zoom.form"`);
		expect(html).not.toContain('row:');
		// Indented as the marker was, and no line left empty by a part not asked for.
		expect(html.split('\n').slice(1, -1)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^\t<div class="form-row"/)]),
		);
		expect(html.split('\n').filter((line) => line.trim() === '')).toEqual([]);
	});

	it('leaves out what is asked for by a word the marker does not give', () => {
		const html = expandRows('\t<!-- row: input zoom -->', TYPE);
		expect(html).not.toContain('placeholder');
		expect(html).not.toContain('.form"');
	});

	it('lists a choice per word of options, _ as the empty value, and escapes values for an attribute', () => {
		const html = expandRows(
			`\t<!-- row: select kind options="_ image 9:16" -->\n\t<!-- row: textarea refs rows=3 placeholder='[{"url":"x"}]' -->`,
			TYPE,
		);
		expect(optionValues(html, 'node-input-kind')).toEqual(['', 'image', '9:16']);
		expect(html).toContain(`data-i18n="${TYPE}.fields.kind.options._"`);
		expect(html).toContain('placeholder="[{&quot;url&quot;:&quot;x&quot;}]"');
	});

	it('names rows inside a row (a media input is a choice of source and its three rows)', () => {
		const html = expandRows('\t<!-- row: media audio options="binary url" -->', TYPE);
		expect(optionValues(html, 'node-input-audioSource')).toEqual(['binary', 'url']);
		for (const name of ['audioBinaryProperty', 'audioUrl', 'audioAssetId'])
			expect(rowOf(html, name)).toContain(`data-i18n="${TYPE}.fields.${name}.form"`);
	});

	it.each([
		['a row rows.html does not have', '\t<!-- row: slider zoom -->', /No row "slider"/],
		['an argument the row does not take', '\t<!-- row: checkbox on tips -->', /takes no tips/],
		['without an argument the row needs', '\t<!-- row: picker avatarId -->', /needs list=/],
		['not on a line of its own', '\t<p><!-- row: wait --></p>', /line of its own/],
	])('stops the build when it names %s', (_, html, message) => {
		expect(() => expandRows(html, TYPE)).toThrow(message);
	});
});

describe("each action node's form", () => {
	it.each(ACTION_NODES.map((s) => [s.type, s] as const))(
		'%s: every property has the row of its type, with its choices and tip as the spec says',
		(type, spec) => {
			const set = fileOf(type);
			const html = editorForm(set, type);
			const catalogue = catalogueOf(spec, set);
			expect(optionValues(html, 'node-input-operation')).toEqual(
				spec.operations.map((op) => op.value),
			);
			for (const field of spec.fields) {
				const row = rowOf(html, field.name);
				expect({ field: field.name, control: control(field).test(row) }).toEqual({
					field: field.name,
					control: true,
				});
				if (field.options)
					expect(optionValues(row, `node-input-${field.name}`)).toEqual(
						field.options.map(([value]) => value),
					);
				expect({ field: field.name, tip: row.includes(`.fields.${field.name}.form"`) }).toEqual({
					field: field.name,
					tip: catalogue.fields[field.name].form !== undefined,
				});
			}
		},
	);
});
