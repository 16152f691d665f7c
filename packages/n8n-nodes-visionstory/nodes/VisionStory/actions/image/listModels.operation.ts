import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type {
	ItemOutcome,
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'List Models',
	value: 'listModels',
	action: 'List image models',
	description: 'List image models with their resolutions, reference limits and prices',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List the image models with their resolutions, reference limits and credit prices. Free.',
	),
];

async function prepare(): Promise<undefined> {
	return undefined;
}

/** The same catalog for every item: fetched once. */
async function executeAll(
	ctx: OperationContext,
	items: Array<Prepared<undefined>>,
): Promise<ItemOutcome[]> {
	const { models } = await ctx.client.listImageModels({ signal: ctx.signal });
	return items.map(() => ({
		ok: true,
		value: models.map((model) => ({ json: model as IDataObject })),
	}));
}

export const listModels: Operation<undefined> = {
	option,
	properties,
	prepare,
	executeAll,
};
