import type { NodeSpec } from '../spec';

export const account: NodeSpec = {
	type: 'visionstory-account',
	label: 'account',
	icon: 'visionstory-account.svg',
	summary: 'Your credit balance.',
	operations: [
		{
			value: 'getCredits',
			label: 'Get Credits',
			description: 'The credits left on the account',
			run: async (c) => ({ payload: await c.call('getCredits', {}) }),
		},
	],
	fields: [],
};
