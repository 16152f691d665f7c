import { isObject, type Json } from './validation';

/**
 * The smallest plausible value that conforms to a JSON Schema (the draft 2020-12 subset media
 * understanding takes): enums give their first value, strings a short sample, numbers their minimum,
 * booleans true, arrays as few items as minItems allows, objects every property they declare.
 */
export function sampleFromSchema(schema: unknown, root: unknown = schema, depth = 0): unknown {
	if (!isObject(schema) || depth > 32) return null;
	if (typeof schema.$ref === 'string')
		return sampleFromSchema(resolveRef(root, schema.$ref), root, depth + 1);
	if ('const' in schema) return schema.const;
	if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
	for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
		const options = schema[key];
		if (Array.isArray(options) && options.length > 0) {
			if (key === 'allOf')
				return Object.assign({}, ...options.map((o) => sampleFromSchema(o, root, depth + 1)));
			const nonNull = options.find((o) => !(isObject(o) && o.type === 'null')) ?? options[0];
			return sampleFromSchema(nonNull, root, depth + 1);
		}
	}
	switch (typeOf(schema)) {
		case 'string':
			return sampleString(schema);
		case 'integer':
			return sampleNumber(schema, true);
		case 'number':
			return sampleNumber(schema, false);
		case 'boolean':
			return true;
		case 'null':
			return null;
		case 'array':
			return sampleArray(schema, root, depth);
		case 'object':
			return sampleObject(schema, root, depth);
		default:
			return null;
	}
}

function typeOf(schema: Json): string | undefined {
	const type = schema.type;
	if (typeof type === 'string') return type;
	if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? type[0];
	if (isObject(schema.properties)) return 'object';
	if (schema.items !== undefined) return 'array';
	return undefined;
}

function resolveRef(root: unknown, ref: string): unknown {
	if (!ref.startsWith('#')) return undefined;
	return ref
		.slice(1)
		.split('/')
		.filter((p) => p !== '')
		.map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')))
		.reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), root);
}

function sampleString(schema: Json): string {
	const formats: Record<string, string> = {
		'date-time': '2025-01-01T00:00:00Z',
		date: '2025-01-01',
		time: '00:00:00Z',
		email: 'sample@example.com',
		uri: 'https://example.com/sample',
		uuid: '00000000-0000-4000-8000-000000000000',
	};
	let value = (typeof schema.format === 'string' && formats[schema.format]) || 'sample';
	const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
	const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
	while (value.length < min) value += 'x';
	return value.length > max ? value.slice(0, max) : value;
}

function sampleNumber(schema: Json, integer: boolean): number {
	const num = (k: string): number | undefined =>
		typeof schema[k] === 'number' ? (schema[k] as number) : undefined;
	const min = num('minimum');
	const exclusiveMin = num('exclusiveMinimum');
	const max = num('maximum') ?? num('exclusiveMaximum');
	let value = min ?? (exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : 0.5) : 0);
	if (max !== undefined && value > max) value = max;
	if (integer) value = Math.ceil(value);
	return value;
}

function sampleArray(schema: Json, root: unknown, depth: number): unknown[] {
	const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
	return Array.from({ length: count }, () => sampleFromSchema(schema.items, root, depth + 1));
}

function sampleObject(schema: Json, root: unknown, depth: number): Json {
	const properties = isObject(schema.properties) ? schema.properties : {};
	const required = Array.isArray(schema.required)
		? schema.required.filter((r): r is string => typeof r === 'string')
		: [];
	const out: Json = {};
	for (const [name, sub] of Object.entries(properties))
		out[name] = sampleFromSchema(sub, root, depth + 1);
	// A required name without a declared schema still has to be there.
	for (const name of required) if (!(name in out)) out[name] = 'sample';
	return out;
}
