import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { z } from 'zod/v3';

import type { AvatarDto, AvatarFraming, FramingChanges } from '../../../shared/api/contract/index';
import { invalidInput, VisionStoryError } from '../../../shared/api/errors';
import type { OperationContext } from '../../../shared/framework/action';

/** What Update Framing reads from its parameters: the values left out keep their current setting. */
export type Changes = z.output<typeof FramingChanges>;

/** Own avatars are the only ones listed with their framing. */
async function findOwnAvatar(
	ctx: OperationContext,
	avatarId: string,
): Promise<AvatarDto | undefined> {
	let cursor: number | undefined;
	do {
		const page = await ctx.client.listAvatars(
			{ is_public: false, cursor, limit: 100 },
			{ signal: ctx.signal },
		);
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
export async function applyFraming(
	ctx: OperationContext,
	changes: Changes,
): Promise<INodeExecutionData[]> {
	const avatar = await findOwnAvatar(ctx, changes.avatar_id);
	if (!avatar) {
		throw new VisionStoryError({
			category: 'api',
			status: 404,
			message: `Avatar ${changes.avatar_id} is not one of your own avatars`,
			hint: 'Only avatars you created can be reframed; public library avatars cannot.',
		});
	}
	const current: AvatarFraming | undefined = avatar.framing?.find(
		(f) => f.aspect_ratio === changes.aspect_ratio,
	);
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
	const zoom = changes.zoom ?? current?.zoom ?? undefined;
	const offsetX = changes.offset_x ?? current?.offset_x ?? undefined;
	const offsetY = changes.offset_y ?? current?.offset_y ?? undefined;
	if (zoom === undefined || offsetX === undefined || offsetY === undefined) {
		const missing = Object.entries({ zoom, offset_x: offsetX, offset_y: offsetY })
			.filter(([, value]) => value === undefined)
			.map(([name]) => name);
		throw invalidInput('updateFraming', [
			{
				field: 'framing',
				message: `this avatar lists no ${changes.aspect_ratio} framing to keep values from, so set all of Zoom, Offset X and Offset Y; missing: ${missing.join(', ')}`,
			},
		]);
	}
	const request = ctx.client.validate('updateAvatarFraming', {
		avatar_id: changes.avatar_id,
		aspect_ratio: changes.aspect_ratio,
		zoom,
		offset_x: offsetX,
		offset_y: offsetY,
	});
	const result = await ctx.client.send('updateAvatarFraming', request, { signal: ctx.signal });
	return [{ json: { ...result, previous: (current ?? null) as IDataObject | null } }];
}
