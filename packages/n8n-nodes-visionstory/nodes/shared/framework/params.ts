import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { z } from 'zod/v3';

import type { FieldIssue } from '../api/errors';
import { invalidInput } from '../api/errors';

/** One item's parameter values, by parameter name (resource locators reduced to their id). */
export type Params = IDataObject;

export function readParams(
	context: IExecuteFunctions,
	properties: INodeProperties[],
	index: number,
): Params {
	const params: Params = {};
	for (const property of properties) {
		// Two parameters can share a name (shown in different cases): one read serves both.
		if (property.type === 'notice' || property.name in params) continue;
		const value = context.getNodeParameter(property.name, index, null) as IDataObject[string];
		// n8n drops parameters hidden by displayOptions when it loads the node, so absence means hidden.
		if (value === null) continue;
		// Only a shown resource locator can be reduced to its id: n8n throws for hidden ones.
		params[property.name] =
			property.type === 'resourceLocator'
				? (context.getNodeParameter(property.name, index, null, {
						extractValue: true,
					}) as IDataObject[string])
				: value;
	}
	return params;
}

/** Whether a property's displayOptions let it show for these values (operation aside). */
export function shownFor(property: INodeProperties, params: Params): boolean {
	const { show, hide } = property.displayOptions ?? {};
	const matches = (key: string, allowed: unknown[]) =>
		key in params && allowed.some((a) => a === params[key]);
	for (const [key, allowed] of Object.entries(show ?? {})) {
		if (key === 'operation' || key.startsWith('@') || !allowed) continue;
		if (!matches(key, allowed as unknown[])) return false;
	}
	for (const [key, hidden] of Object.entries(hide ?? {})) {
		if (hidden && matches(key, hidden as unknown[])) return false;
	}
	return true;
}

function staticOptions(property: INodeProperties): unknown[] | undefined {
	if (property.typeOptions?.loadOptionsMethod || !Array.isArray(property.options)) return undefined;
	return (property.options as INodePropertyOptions[]).map((o) => o.value);
}

/**
 * Checks a value against what its parameter declares: one of its options, a number within its
 * bounds. Expressions can produce anything, and the editor's own checks do not run on them.
 */
function checkValue(
	property: INodeProperties,
	value: unknown,
	field: string,
): FieldIssue | undefined {
	if (value === null || value === undefined) return undefined;
	const options = staticOptions(property);
	if (property.type === 'options' && options && !options.includes(value)) {
		return {
			field,
			message: `${JSON.stringify(value)} is not one of the choices; allowed: ${options.join(', ')}`,
		};
	}
	if (property.type === 'multiOptions' && options && Array.isArray(value)) {
		const unknown = value.filter((v) => !options.includes(v));
		if (unknown.length)
			return {
				field,
				message: `${JSON.stringify(unknown)} ${unknown.length === 1 ? 'is' : 'are'} not among the choices; allowed: ${options.join(', ')}`,
			};
	}
	if (property.type === 'number') {
		const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof n !== 'number' || Number.isNaN(n))
			return { field, message: `must be a number (got ${JSON.stringify(value)})` };
		const { minValue, maxValue } = property.typeOptions ?? {};
		if (minValue !== undefined && n < minValue)
			return { field, message: `is ${n}; it must be at least ${minValue}` };
		if (maxValue !== undefined && n > maxValue)
			return { field, message: `is ${n}; it must be at most ${maxValue}` };
	}
	return undefined;
}

/** Every declared-value problem of the visible parameters, including the options inside collections. */
export function checkDeclared(properties: INodeProperties[], params: Params): FieldIssue[] {
	const issues: FieldIssue[] = [];
	for (const property of properties) {
		if (!(property.name in params)) continue;
		const value = params[property.name];
		const issue = checkValue(property, value, property.name);
		if (issue) issues.push(issue);
		if (property.type === 'collection' && value && typeof value === 'object') {
			for (const option of (property.options ?? []) as INodeProperties[]) {
				const nested = checkValue(option, (value as IDataObject)[option.name], option.name);
				if (nested) issues.push(nested);
			}
		}
	}
	return issues;
}

/**
 * Reading one parameter of an item by name, typed. A parameter hidden by its display options is
 * absent from the node, so each reader has the value an empty field would have.
 */
export const param = {
	string(context: IExecuteFunctions, name: string, index: number): string {
		const value = context.getNodeParameter(name, index, '') as unknown;
		return value === null || value === undefined ? '' : String(value);
	},
	/** A resource locator's id, whichever mode (list, ID, URL) the user picked. */
	id(context: IExecuteFunctions, name: string, index: number): string {
		// Only a shown resource locator can be reduced to its id: n8n throws for hidden ones.
		if (context.getNodeParameter(name, index, null) === null) return '';
		const value = context.getNodeParameter(name, index, '', { extractValue: true }) as unknown;
		return value === null || value === undefined ? '' : String(value).trim();
	},
	boolean(context: IExecuteFunctions, name: string, index: number, fallback = false): boolean {
		return context.getNodeParameter(name, index, fallback) === true;
	},
	/** A number, undefined when empty, NaN for text that is not one (validation then names the field). */
	number(context: IExecuteFunctions, name: string, index: number): number | undefined {
		const value = context.getNodeParameter(name, index, '') as unknown;
		if (value === undefined || value === null || value === '') return undefined;
		return Number(value);
	},
	/**
	 * A value checked with the contract's rule for the request field it fills, where that field's name
	 * is not the parameter's (Idempotency Key → client_request_id), so an error names the parameter.
	 */
	checked<T extends z.ZodTypeAny>(name: string, value: unknown, schema: T): z.output<T> {
		const parsed = schema.safeParse(value);
		if (!parsed.success)
			throw invalidInput(
				name,
				parsed.error.issues.map((issue) => ({ field: name, message: issue.message })),
			);
		return parsed.data;
	},
	/** A collection (Options, Filters): the values the user added. */
	collection(context: IExecuteFunctions, name: string, index: number): IDataObject {
		const value = context.getNodeParameter(name, index, {}) as unknown;
		return value && typeof value === 'object' && !Array.isArray(value)
			? (value as IDataObject)
			: {};
	},
};
