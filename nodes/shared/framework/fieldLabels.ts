import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldLabeler } from '../n8n/nodeErrors';
import type { Params } from './operation';
import { shownFor } from './params';

/** Which parameter of a media input holds a MediaRef field: `url` → XUrl, `inline_data` → XBinaryProperty… */
const MEDIA_FIELD_SUFFIX: Array<[RegExp, string]> = [
	[/(^|_)url$/, 'Url'],
	[/^inline_data$/, 'BinaryProperty'],
	[/^asset_id$/, 'AssetId'],
];

function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...((p.options ?? []) as Array<INodeProperties | INodePropertyOptions | { values?: INodeProperties[] }>).flatMap((o) => {
			if ('values' in o && Array.isArray(o.values)) return allProperties(o.values);
			if ('displayName' in o && 'type' in o) return allProperties([o as INodeProperties]);
			return [];
		}),
	]);
}

const isIndex = (segment: string | undefined) => segment !== undefined && /^\d+$/.test(segment);

/**
 * Names a field the way the user sees it, `"Script" (text)`, from an API path (`text_script.text`)
 * or a parameter path (`refs.0`). Where two parameters share a name (Voice / Target Voice), the one
 * shown for this item's values wins. List entries count from 1, as the editor shows them.
 */
export function labeler(properties: INodeProperties[], fieldParameters: Record<string, string> = {}, params?: Params): FieldLabeler {
	const byName = new Map<string, INodeProperties[]>();
	for (const property of allProperties(properties)) byName.set(property.name, [...(byName.get(property.name) ?? []), property]);
	const mapped = Object.entries(fieldParameters).sort(([a], [b]) => b.length - a.length);

	const show = (name: string, detail = ''): string | undefined => {
		const candidates = byName.get(name);
		if (!candidates) return undefined;
		const property = (params && candidates.find((p) => shownFor(p, params))) || candidates[0];
		return `"${property.displayName}" (${name}${detail})`;
	};
	const entry = (segments: string[]) => (isIndex(segments[0]) ? ` entry ${Number(segments[0]) + 1}` : '');

	return (field: string) => {
		const segments = field.split('.');
		if (byName.has(segments[0])) return show(segments[0], entry(segments.slice(1)));
		for (const [path, param] of mapped) {
			if (field !== path && !field.startsWith(`${path}.`)) continue;
			const rest = field === path ? [] : field.slice(path.length + 1).split('.');
			if (param.endsWith('Source')) {
				const prefix = param.slice(0, -'Source'.length);
				const key = rest.find((s) => !isIndex(s)) ?? path.split('.').pop()!;
				const suffix = MEDIA_FIELD_SUFFIX.find(([pattern]) => pattern.test(key))?.[1];
				if (suffix && byName.has(prefix + suffix)) return show(prefix + suffix);
			}
			return show(param, entry(rest));
		}
		const last = [...segments].reverse().find((s) => !isIndex(s)) ?? field;
		return show(last.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
	};
}
