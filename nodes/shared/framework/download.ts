import type { INodeExecutionData } from 'n8n-workflow';

import { binaryFromDownload, withBinary } from '../n8n/binary';
import type { Scope } from './operation';

/** Streams a result file (video, image) into a binary property of the item. */
export async function withDownload(
	scope: Scope,
	item: INodeExecutionData,
	url: string,
	property: string,
	fallbackName: string,
	fallbackMime: string,
): Promise<INodeExecutionData> {
	const download = await scope.client.download(url, { signal: scope.signal });
	return withBinary(item, property, await binaryFromDownload(scope.context, download, fallbackName, fallbackMime));
}

