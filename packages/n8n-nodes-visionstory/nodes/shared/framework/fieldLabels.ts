import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldLabeler } from '../n8n/nodeErrors';
import type { Params } from './params';
import { shownFor } from './params';

function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...(
			(p.options ?? []) as Array<
				INodeProperties | INodePropertyOptions | { values?: INodeProperties[] }
			>
		).flatMap((o) => {
			if ('values' in o && Array.isArray(o.values)) return allProperties(o.values);
			if ('displayName' in o && 'type' in o) return allProperties([o as INodeProperties]);
			return [];
		}),
	]);
}

const isIndex = (segment: string | undefined) => segment !== undefined && /^\d+$/.test(segment);

/**
 * Names a field the way the user sees it, `"Script" (text)`, from the parameter definitions alone:
 * a parameter path (`refs.0`, `idempotencyKey`), or an API path whose last field is the parameter's
 * name in snake case (`text_script.text` → text, `aspect_ratio` → aspectRatio). Operations check the
 * fields named otherwise under their parameter's name when they read it. Where two parameters share
 * a name, the one shown for this item's values wins. List entries count from 1, as the editor shows.
 */
export function labeler(properties: INodeProperties[], params?: Params): FieldLabeler {
	const byName = new Map<string, INodeProperties[]>();
	for (const property of allProperties(properties))
		byName.set(property.name, [...(byName.get(property.name) ?? []), property]);

	const show = (name: string, detail = ''): string | undefined => {
		const candidates = byName.get(name);
		if (!candidates) return undefined;
		const property = (params && candidates.find((p) => shownFor(p, params))) || candidates[0];
		return `"${property.displayName}" (${name}${detail})`;
	};
	const entry = (segments: string[]) =>
		isIndex(segments[0]) ? ` entry ${Number(segments[0]) + 1}` : '';

	return (field: string) => {
		const segments = field.split('.');
		if (byName.has(segments[0])) return show(segments[0], entry(segments.slice(1)));
		const last = [...segments].reverse().find((s) => !isIndex(s)) ?? field;
		return show(last.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
	};
}
