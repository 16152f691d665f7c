import type { INodeCredentialDescription, INodeOutputConfiguration, INodeProperties, NodeConnectionType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { OperationDef } from '../framework/operation';
import { CREDENTIAL_TYPE } from '../n8n/client';

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

/** Every operation's parameters, each shown only when its operation is selected. */
export function operationProperties(operations: readonly OperationDef[]): INodeProperties[] {
	return operations.flatMap((operation) =>
		operation.properties.map((property) => ({
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
