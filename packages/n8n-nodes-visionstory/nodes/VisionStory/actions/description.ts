import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { resources } from './resources';

/**
 * The node's description, built from the one list of resources (`resources.ts`) the way n8n's own
 * resource nodes are: a Resource picker, an Operation picker per resource, and each operation's
 * parameters shown only for its resource and operation.
 */

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** The Resource picker's entries, in alphabetical order as n8n lists options. */
export const resourceOptions: INodePropertyOptions[] = resources.map((r) => r.option).sort(byName);

/** What every resource's Operation picker shares; its entries and its start come from the list. */
const operationPicker: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [],
	default: '',
};

/** One Operation picker per resource, each entry with n8n's `action` text (what the nodes panel lists and searches). */
const operationPickers: INodeProperties[] = resources.map((resource) => ({
	...operationPicker,
	displayOptions: { show: { resource: [resource.option.value] } },
	options: resource.operations.map((o) => o.option).sort(byName),
	default: resource.defaultOperation,
}));

/** Every operation's parameters, shown only for its resource and operation. */
const operationParameters: INodeProperties[] = resources.flatMap((resource) =>
	resource.operations.flatMap((operation) =>
		updateDisplayOptions(
			{ show: { resource: [resource.option.value], operation: [operation.option.value] } },
			operation.properties,
		),
	),
);

/** The Operation pickers, then every operation's parameters. */
export const operationProperties: INodeProperties[] = [...operationPickers, ...operationParameters];

/** The node's outputs: one, or the named outputs of an operation that has several (Check Status: Finished, Still Rendering). */
export const outputs: `={{${string}}}` = `={{ ${JSON.stringify(
	Object.fromEntries(
		resources.flatMap((r) =>
			r.operations
				.filter((o) => o.outputs)
				.map((o) => [
					`${r.option.value}:${o.option.value}`,
					o.outputs!.map((displayName) => ({ type: 'main', displayName })),
				]),
		),
	),
)}[$parameter.resource + ":" + $parameter.operation] ?? ["main"] }}`;
