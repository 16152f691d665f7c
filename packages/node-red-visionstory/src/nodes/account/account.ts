import type { Node, NodeAPI } from 'node-red';

import type { ActionDef } from '../../runtime';
import { startAction } from '../../runtime';
import type { NodeSpec } from '../../spec';

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

/** Node-RED's constructor of the account node: its messages go to the shared action runtime. */
export function registerAccount(RED: NodeAPI): void {
	RED.nodes.registerType(account.type, function AccountNode(this: Node, def: ActionDef) {
		RED.nodes.createNode(this, def);
		const action = startAction(RED, this, def, account);
		this.on('input', (msg, send, done) => action.input(msg, send, done));
	});
}
