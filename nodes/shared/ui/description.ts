import type { INodeCredentialDescription, INodeOutputConfiguration, INodeProperties, NodeConnectionType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { OperationDef } from '../framework/operation';
import { isChargedOperation } from '../framework/spend';
import { CREDENTIAL_TYPE } from '../n8n/client';
import { optionsCollection, spendOptions } from './fields';

export const credentials: INodeCredentialDescription[] = [{ name: CREDENTIAL_TYPE, required: true }];

/** The operation picker, in the order the node lists its operations. */
export function operationProperty(operations: readonly OperationDef[], defaultValue: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: operations.map((o) => ({ name: o.name, value: o.value, action: o.action, description: o.description })),
		default: defaultValue,
	};
}

/** What a model is told about one operation when the node is an AI tool: what it does, costs and returns, and what to call next. */
export function toolDescriptionOf(operation: OperationDef): string {
	return operation.toolDescription ?? `${operation.action}. ${operation.description}.`;
}

/**
 * A charged operation's Options get Max Credits per Execution and Validate Only (sorted in, as the
 * editor lists options by name); an operation without Options gets them as its Options.
 */
function withSpendOptions(operation: OperationDef): INodeProperties[] {
	if (!isChargedOperation(operation)) return operation.properties;
	const index = operation.properties.findIndex((p) => p.name === 'options' && p.type === 'collection');
	if (index < 0) return [...operation.properties, optionsCollection(spendOptions)];
	const collection = operation.properties[index];
	const merged = [...((collection.options ?? []) as INodeProperties[]), ...spendOptions].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return operation.properties.map((p, i) => (i === index ? { ...p, options: merged } : p));
}

/**
 * The tool description n8n gives a model for this node's `*Tool` variant (shown only there): one per
 * operation, so it says what the chosen operation does. Declaring it keeps n8n from adding its own,
 * which for a node without resources would be the node's one-line description for every operation.
 */
function toolDescriptionProperty(operation: OperationDef): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolDescriptionOf(operation),
		displayOptions: { show: { '@tool': [true] } },
		description: 'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	};
}

/** Every operation's parameters, each shown only when its operation is selected. */
export function operationProperties(operations: readonly OperationDef[]): INodeProperties[] {
	return operations.flatMap((operation) =>
		[toolDescriptionProperty(operation), ...withSpendOptions(operation)].map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, operation: [operation.value] },
			},
		})),
	);
}

/** The subtitle under a node on the canvas: the operation's display name ("Get Many", not "getMany"). */
export function operationSubtitle(operations: readonly OperationDef[]): string {
	const names = Object.fromEntries(operations.map((o) => [o.value, o.name]));
	return `={{ ${JSON.stringify(names)}[$parameter["operation"]] }}`;
}

/**
 * The node's outputs: one, or for an operation that routes its items (Check Status) one per route,
 * chosen by n8n from the operation parameter.
 */
export function nodeOutputs(operations: readonly OperationDef[]): NodeConnectionType[] | `={{${string}}}` {
	const routed = operations.filter((o) => o.outputs && o.outputs.length > 1);
	if (!routed.length) return [NodeConnectionTypes.Main];
	const byOperation: Record<string, INodeOutputConfiguration[]> = Object.fromEntries(
		routed.map((o) => [o.value, o.outputs!.map((displayName) => ({ type: NodeConnectionTypes.Main, displayName }))]),
	);
	return `={{${JSON.stringify(byOperation)}[$parameter.operation] ?? ["${NodeConnectionTypes.Main}"]}}`;
}
