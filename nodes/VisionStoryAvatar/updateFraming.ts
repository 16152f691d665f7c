import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AvatarDto, AvatarFraming } from '../shared/api/contract';
import { invalidInput, VisionStoryError } from '../shared/api/errors';
import type { Prepared, Scope } from '../shared/framework/operation';

/** Own avatars are the only ones listed with their framing. */
async function findOwnAvatar(scope: Scope, avatarId: string): Promise<AvatarDto | undefined> {
	let cursor: number | undefined;
	do {
		const page = await scope.client.listAvatars({ is_public: false, cursor, limit: 100 }, { signal: scope.signal });
		const found = page.avatars.find((a) => a.avatar_id === avatarId);
		if (found) return found;
		cursor = page.next_cursor || undefined;
	} while (cursor !== undefined);
	return undefined;
}

/**
 * Update Framing: values the user left out keep their current value, read first, because the service
 * needs all three and a null sent back would be rejected.
 */
export async function updateFraming(scope: Scope, item: Prepared): Promise<INodeExecutionData[]> {
	const changes = item.request as { avatar_id: string; aspect_ratio: string; zoom?: number; offset_x?: number; offset_y?: number };
	const avatar = await findOwnAvatar(scope, changes.avatar_id);
	if (!avatar) {
		throw new VisionStoryError({
			category: 'api',
			status: 404,
			message: `Avatar ${changes.avatar_id} is not one of your own avatars`,
			hint: 'Only avatars you created can be reframed; public library avatars cannot.',
		});
	}
	const current: AvatarFraming | undefined = avatar.framing?.find((f) => f.aspect_ratio === changes.aspect_ratio);
	// A null zoom marks an avatar made before framing existed: the service refuses any framing for it.
	if (current && current.zoom == null) {
		throw new VisionStoryError({
			category: 'validation',
			operation: 'updateFraming',
			message: 'Invalid input',
			issues: [
				{
					field: 'framing',
					message: `the ${changes.aspect_ratio} framing of this avatar cannot be adjusted: it was made before framing existed (its zoom and offsets are null)`,
				},
			],
			hint: 'Nothing was sent. Create the avatar again from its portrait (Avatar → Create) to get adjustable framing, and use the new avatar ID.',
		});
	}
	const request = {
		...changes,
		zoom: changes.zoom ?? current?.zoom ?? undefined,
		offset_x: changes.offset_x ?? current?.offset_x ?? undefined,
		offset_y: changes.offset_y ?? current?.offset_y ?? undefined,
	};
	const missing = (['zoom', 'offset_x', 'offset_y'] as const).filter((k) => request[k] === undefined);
	if (missing.length) {
		throw invalidInput('updateFraming', [
			{
				field: 'framing',
				message: `this avatar lists no ${changes.aspect_ratio} framing to keep values from, so set all of Zoom, Offset X and Offset Y; missing: ${missing.join(', ')}`,
			},
		]);
	}
	const valid = scope.client.validate('updateAvatarFraming', request as never);
	const result = await scope.client.updateAvatarFraming(valid, { signal: scope.signal });
	return [{ json: { ...result, previous: (current ?? null) as IDataObject | null } }];
}

