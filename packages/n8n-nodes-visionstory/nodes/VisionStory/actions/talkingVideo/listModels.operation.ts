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
	action: 'List talking video models',
	description: 'List the models talking videos can be made with',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: 'List the talking video models and the resolutions each supports. Free.',
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
	const { models } = await ctx.client.listTalkingVideoModels({ signal: ctx.signal });
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
