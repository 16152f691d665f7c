import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { VisionStoryError } from '../../../shared/api/errors';
import type { OperationContext } from '../../../shared/framework/action';

/** Many AI videos by id: 20 per status call. */
export async function getAiVideos(
	ctx: OperationContext,
	ids: string[],
): Promise<INodeExecutionData[]> {
	const read = [...(await ctx.client.readAiVideos(ids, { signal: ctx.signal })).values()];
	const videos = read.filter((v) => !(v instanceof VisionStoryError));
	// Found but unreadable is not "not found": say what was wrong with the answer.
	const unreadable = read.find((v): v is VisionStoryError => v instanceof VisionStoryError);
	if (videos.length === 0 && unreadable) throw unreadable;
	if (videos.length === 0) {
		throw new VisionStoryError({
			category: 'api',
			status: 404,
			message: `None of the AI videos ${ids.join(', ')} was found`,
			hint: 'Check the ids: tasks of other accounts and deleted tasks are not returned.',
			videoIds: ids,
		});
	}
	return videos.map((video) => ({ json: video as IDataObject }));
}
