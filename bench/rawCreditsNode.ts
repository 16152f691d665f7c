import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { mapConcurrent } from '../packages/n8n-nodes-visionstory/nodes/shared/api/concurrency';

/**
 * The same GET as Account → Get Credits, written the way a minimal node would: n8n's authenticated
 * request helper per item, five at a time, no validation, no executor. The gap to the real node is
 * the executor's own cost per item; the rest is n8n's HTTP stack, which every node pays.
 */
export class RawCredits implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Raw Credits',
		name: 'rawCredits',
		group: ['transform'],
		version: 1,
		description: 'Bench baseline',
		defaults: { name: 'Raw Credits' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'visionStoryApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const credentials = (await this.getCredentials('visionStoryApi')) as { baseUrl: string };
		const output = await mapConcurrent(items, 5, async (_, index) => {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'visionStoryApi',
				{
					method: 'GET',
					url: `${credentials.baseUrl}/api/v1/billing/credits`,
					json: true,
				},
			)) as { data: INodeExecutionData['json'] };
			return { json: response.data, pairedItem: { item: index } };
		});
		return [output];
	}
}
