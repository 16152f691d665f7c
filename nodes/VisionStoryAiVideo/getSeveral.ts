import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { VisionStoryError } from '../shared/api/errors';
import { toItems } from '../shared/framework/builders';
import type { Prepared, Scope } from '../shared/framework/operation';

/** Many AI videos by id: 20 per status call. */
export async function getAiVideos(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const ids = (item.request?.video_ids as string[] | undefined) ?? [];
	const videos = await scope.client.getAiVideos({ video_ids: ids }, { signal: scope.signal });
	const missing = ids.filter((id) => !videos.some((v) => v.video_id === id));
	if (missing.length === ids.length) {
		throw new VisionStoryError({
			category: 'api',
			status: 404,
			message: `None of the AI videos ${ids.join(', ')} was found`,
			hint: 'Check the ids: tasks of other accounts and deleted tasks are not returned.',
			videoIds: ids,
		});
	}
	return toItems(videos as IDataObject[]);
}

