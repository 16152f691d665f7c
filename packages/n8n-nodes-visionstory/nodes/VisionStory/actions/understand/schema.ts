import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { FieldIssue } from '../../../shared/api/errors';
import { invalidInput } from '../../../shared/api/errors';
import { param } from '../../../shared/framework/params';

/** A field of the simple schema editor: what a no-code user fills in instead of writing JSON Schema. */
export interface SchemaField {
	name?: string;
	type?: string;
	description?: string;
	allowedValues?: string;
	required?: boolean;
}

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;

/** Turns the field list into a flat JSON Schema object, with enums for closed label sets. */
export function schemaFromFields(fields: SchemaField[]): {
	schema?: IDataObject;
	issues: FieldIssue[];
} {
	const issues: FieldIssue[] = [];
	if (!fields.length) issues.push({ field: 'fields', message: 'needs at least one field' });
	const properties: IDataObject = {};
	const required: string[] = [];
	fields.forEach((field, position) => {
		const where = `fields.${position}`;
		const name = (field.name ?? '').trim();
		if (!name) return issues.push({ field: where, message: 'has no name' });
		if (name in properties)
			return issues.push({ field: where, message: `repeats the name "${name}"` });
		const type = field.type ?? 'string';
		if (!(FIELD_TYPES as readonly string[]).includes(type)) {
			return issues.push({
				field: where,
				message: `has type "${type}"; allowed: ${FIELD_TYPES.join(', ')}`,
			});
		}
		const values = (field.allowedValues ?? '')
			.split(',')
			.map((v) => v.trim())
			.filter(Boolean);
		const numeric = type === 'number' || type === 'integer';
		// Text in a number's allowed values would become NaN (null in JSON): say which value, and what to use instead.
		const notNumber = numeric
			? values.find(
					(v) =>
						!Number.isFinite(Number(v)) || (type === 'integer' && !Number.isInteger(Number(v))),
				)
			: undefined;
		if (notNumber !== undefined) {
			return issues.push({
				field: where,
				message: `"${name}" is a${type === 'integer' ? 'n integer' : ' number'} field but its allowed value "${notNumber}" is not a${
					type === 'integer' ? ' whole number' : ' number'
				}; use numbers only, or choose type String for text labels`,
			});
		}
		const enumOf = (itemType: string) =>
			values.length
				? { enum: itemType === 'number' || itemType === 'integer' ? values.map(Number) : values }
				: {};
		const description = field.description?.trim() ? { description: field.description.trim() } : {};
		properties[name] =
			type === 'array'
				? { type: 'array', items: { type: 'string', ...enumOf('string') }, ...description }
				: { type, ...(type === 'boolean' ? {} : enumOf(type)), ...description };
		if (field.required !== false) required.push(name);
		return undefined;
	});
	if (issues.length) return { issues };
	return { schema: { type: 'object', properties, required, additionalProperties: false }, issues };
}

/** A JSON Schema typed by the user, as text or already parsed. */
export function parseJsonSchema(value: unknown): { schema?: IDataObject; issues: FieldIssue[] } {
	let schema: unknown = value;
	if (typeof value === 'string') {
		try {
			schema = JSON.parse(value);
		} catch (error) {
			return {
				issues: [
					{ field: 'jsonSchema', message: `is not valid JSON (${(error as Error).message})` },
				],
			};
		}
	}
	if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
		return { issues: [{ field: 'jsonSchema', message: 'must be a JSON object' }] };
	}
	if ((schema as IDataObject).type !== 'object') {
		return {
			issues: [
				{
					field: 'jsonSchema',
					message: 'must have "type": "object" at the top level (wrap single values in an object)',
				},
			],
		};
	}
	return { schema: schema as IDataObject, issues: [] };
}

/** The output schema of Understand for item `index`, from the field list or the pasted JSON Schema. */
export function understandSchema(context: IExecuteFunctions, index: number): IDataObject {
	const fields =
		(param.collection(context, 'fields', index).field as SchemaField[] | undefined) ?? [];
	const result =
		param.string(context, 'schemaMode', index) === 'json'
			? parseJsonSchema(context.getNodeParameter('jsonSchema', index, null))
			: schemaFromFields(fields);
	if (result.issues.length || !result.schema) throw invalidInput('analyze', result.issues);
	return result.schema;
}
