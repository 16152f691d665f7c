import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type {
	ItemOutcome,
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';

const option: OperationOption = {
	name: 'List Models',
	value: 'listModels',
	action: 'List AI video models',
	description: 'List the models with their durations, resolutions and media limits',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'List the AI video models with their durations, resolutions and prompt limits. Free.',
		displayOptions: { show: { '@tool': [true] } },
		description:
			'What the AI model is told about this tool: what it does, what it costs, what it returns and what to call next',
	},
];

async function prepare(): Promise<undefined> {
	return undefined;
}

/** The same catalog for every item: fetched once. */
async function executeAll(
	ctx: OperationContext,
	items: Array<Prepared<undefined>>,
): Promise<ItemOutcome[]> {
	const { models } = await ctx.client.listAiVideoModels({ signal: ctx.signal });
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
