import type {
	AssignmentCollectionValue,
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { deepCopy, jsonParse, NodeOperationError, validateFieldType } from 'n8n-workflow';

interface SetOptions {
	dotNotation?: boolean;
	ignoreConversionErrors?: boolean;
	stripBinary?: boolean;
}

/**
 * Stand-in for n8n's "Edit Fields (Set)" node, version 3.4, with the parameters workflows exported
 * from n8n carry: `mode` (`manual` with `assignments`, or `raw` with `jsonOutput`),
 * `includeOtherFields` (all input fields, or none) and the `dotNotation` / `stripBinary` /
 * `ignoreConversionErrors` options. Values arrive already evaluated: the engine resolves
 * expressions in `getNodeParameter`, exactly as for the real node.
 */
export class EditFields implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Edit Fields (Set)',
		name: 'set',
		group: ['input'],
		version: [3, 3.1, 3.2, 3.3, 3.4],
		defaultVersion: 3.4,
		description: 'Modify, add, or remove item fields',
		defaults: { name: 'Edit Fields' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Manual Mapping', value: 'manual' },
					{ name: 'JSON', value: 'raw' },
				],
				default: 'manual',
			},
			{
				displayName: 'Fields to Set',
				name: 'assignments',
				type: 'assignmentCollection',
				displayOptions: { show: { mode: ['manual'] } },
				default: {},
			},
			{
				displayName: 'JSON',
				name: 'jsonOutput',
				type: 'json',
				displayOptions: { show: { mode: ['raw'] } },
				default: '{\n  "my_field_1": "value",\n  "my_field_2": 1\n}\n',
			},
			{
				displayName: 'Include Other Input Fields',
				name: 'includeOtherFields',
				type: 'boolean',
				default: false,
			},
			{
				displayName: 'Include in Output',
				name: 'include',
				type: 'options',
				options: [
					{ name: 'All Input Fields', value: 'all' },
					{ name: 'Selected Input Fields', value: 'selected' },
					{ name: 'All Input Fields Except', value: 'except' },
				],
				displayOptions: { show: { includeOtherFields: [true] } },
				default: 'all',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ignore Type Conversion Errors',
						name: 'ignoreConversionErrors',
						type: 'boolean',
						default: false,
					},
					{
						displayName: 'Support Dot Notation',
						name: 'dotNotation',
						type: 'boolean',
						default: true,
					},
					{ displayName: 'Strip Binary Data', name: 'stripBinary', type: 'boolean', default: true },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const mode = this.getNodeParameter('mode', 0) as 'manual' | 'raw';
		const output: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const options = this.getNodeParameter('options', i, {}) as SetOptions;
				const includeOtherFields = this.getNodeParameter('includeOtherFields', i, false) as boolean;
				if (includeOtherFields && this.getNodeParameter('include', i, 'all') !== 'all') {
					throw new NodeOperationError(
						this.getNode(),
						'The Set stand-in only supports including all input fields',
					);
				}
				const fields = mode === 'raw' ? rawFields(this, i) : manualFields(this, i, options);
				const item: INodeExecutionData = {
					json: includeOtherFields ? deepCopy(items[i].json) : {},
					pairedItem: { item: i },
				};
				// Set 3.4 copies binary data only when it keeps input fields and `stripBinary` is not
				// true; the option is absent unless the user added it, and absent reads as "keep".
				if (includeOtherFields && !options.stripBinary && items[i].binary) {
					item.binary = { ...items[i].binary };
				}
				for (const [name, value] of Object.entries(fields)) {
					setField(item.json, name, value, options.dotNotation !== false);
				}
				output.push(item);
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				output.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [output];
	}
}

function manualFields(context: IExecuteFunctions, i: number, options: SetOptions): IDataObject {
	const { assignments = [] } = context.getNodeParameter(
		'assignments',
		i,
		{},
	) as Partial<AssignmentCollectionValue>;
	const fields: IDataObject = {};
	for (const { name, value, type = 'string' } of assignments) {
		const input =
			type === 'string' && typeof value === 'object' && value !== null
				? JSON.stringify(value)
				: value;
		const result = validateFieldType(
			name,
			type === 'string' ? String(input ?? '') : input,
			type as FieldType,
		);
		if (!result.valid && !options.ignoreConversionErrors) {
			throw new NodeOperationError(context.getNode(), result.errorMessage, { itemIndex: i });
		}
		fields[name] = (result.valid ? result.newValue : value) as IDataObject[string];
	}
	return fields;
}

function rawFields(context: IExecuteFunctions, i: number): IDataObject {
	const json = context.getNodeParameter('jsonOutput', i) as string | IDataObject;
	const parsed: unknown =
		typeof json === 'string' ? jsonParse(json, { fallbackValue: undefined }) : json;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(
			context.getNode(),
			`'JSON Output' in item ${i} does not contain a valid JSON object`,
			{
				itemIndex: i,
			},
		);
	}
	return parsed as IDataObject;
}

/** `a.b` sets `{ a: { b } }` with dot notation on (the default), a key named `a.b` otherwise. */
function setField(target: IDataObject, name: string, value: unknown, dotNotation: boolean): void {
	const path = dotNotation ? name.split('.') : [name];
	let node = target;
	for (const key of path.slice(0, -1)) {
		if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
		node = node[key] as IDataObject;
	}
	node[path[path.length - 1]] = value as IDataObject[string];
}
