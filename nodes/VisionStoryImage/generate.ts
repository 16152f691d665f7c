import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../shared/api/client';
import { withDownload } from '../shared/framework/download';
import { outputFieldOf } from '../shared/framework/mapping';
import type { Prepared, Scope } from '../shared/framework/operation';

/** The image as binary (PNG) beside its URL and cost. */
export async function generateImage(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.send('generateImage', item.request as Checked<'generateImage'>, { signal: scope.signal, media: scope.media(item) });
	return [await withDownload(scope, { json: result as IDataObject }, result.url, outputFieldOf(item.params), 'image', 'image/png')];
}

