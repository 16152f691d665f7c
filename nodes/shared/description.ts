import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import type { OperationDef } from './operations';

export const credentials: INodeCredentialDescription[] = [{ name: 'visionStoryApi', required: true }];

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
