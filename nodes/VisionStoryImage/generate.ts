import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked } from '../shared/api/client';
import { withDownload } from '../shared/framework/download';
import { outputFieldOf } from '../shared/framework/mapping';
import type { Prepared, Scope } from '../shared/framework/operation';

/** The image as binary (PNG) beside its URL and cost; a failed download keeps the URL and cost. */
export async function generateImage(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const result = await scope.client.send('generateImage', item.request as Checked<'generateImage'>, { signal: scope.signal, media: scope.media(item) });
	return [
		await withDownload(scope, { json: result as IDataObject }, {
			url: result.url,
			property: outputFieldOf(item.params),
			fallbackName: 'image',
			fallbackMime: 'image/png',
			made: 'The image was generated',
			costCredit: result.cost_credit ?? undefined,
			again: 'Nothing is lost: download it from url (for example with the HTTP Request node), or use url directly as a reference image or video frame. Generating again would charge again.',
		}),
	];
}

