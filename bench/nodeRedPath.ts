import { sleep } from 'n8n-workflow';

import { VisionStoryClient } from '../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import { Exchange } from '../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';
import { NodeHttpChannel } from '../packages/node-red-visionstory/src/channel';

/** The client as the Node-RED config node builds it: the shared exchange over the package's own HTTP channel. */
export function nodeRedClient(apiKey: string, baseUrl: string): VisionStoryClient {
	return new VisionStoryClient(
		new Exchange(new NodeHttpChannel(apiKey), { baseUrl, sleep, secrets: [apiKey] }),
	);
}
