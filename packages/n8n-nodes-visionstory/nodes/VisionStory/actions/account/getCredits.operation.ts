import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get Credits',
	value: 'getCredits',
	action: 'Get the credit balance',
	description: 'Get how many credits your VisionStory account has left (free)',
};

const properties: INodeProperties[] = [
	toolDescription('Tell how many VisionStory credits the account has left. Free.'),
];

async function prepare(ctx: OperationContext): Promise<Checked<'getCredits'>> {
	return ctx.client.validate('getCredits', {});
}

/** Asked once per item, so each item gets the balance as it is when it runs. */
async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'getCredits'>>,
): Promise<INodeExecutionData[]> {
	const credits = await ctx.client.send('getCredits', item.request, { signal: ctx.signal });
	return [{ json: credits as IDataObject }];
}

export const getCredits: Operation<Checked<'getCredits'>> = {
	option,
	properties,
	prepare,
	execute,
};
