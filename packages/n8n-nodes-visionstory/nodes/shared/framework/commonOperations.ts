import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Checked, Draft } from '../api/client';
import type { CallOptions } from '../api/exchange';
import type { RequestOf } from '../api/contract';
import type {
	ItemOutcome,
	Operation,
	OperationContext,
	OperationDescription,
	Prepared,
} from './action';
import { param } from './params';

/** The Delete endpoints, each with the one id it takes. */
const DELETED_IDS = {
	deleteTalkingVideo: 'video_id',
	deleteAiVideo: 'video_id',
	deleteAvatar: 'avatar_id',
	deleteVoice: 'voice_id',
	deleteAsset: 'asset_id',
} as const;

type DeleteName = keyof typeof DELETED_IDS;

/**
 * Delete: the id picked in `idParameter`, sent to `endpoint`. The answer is `{ deleted: true }`; the id
 * is added so the item says what was deleted.
 */
export function deleteOperation<N extends DeleteName>(
	stated: OperationDescription & { endpoint: N; idParameter: string },
): Operation<Checked<N>> {
	const { endpoint, idParameter } = stated;
	const field = DELETED_IDS[endpoint];
	return {
		option: stated.option,
		properties: stated.properties,
		async prepare(ctx, index) {
			const draft = { [field]: param.id(ctx.n8n, idParameter, index) } as Draft<RequestOf<N>>;
			return ctx.client.validate(endpoint, draft);
		},
		async execute(ctx, item): Promise<INodeExecutionData[]> {
			const result = await ctx.client.send(endpoint, item.request, { signal: ctx.signal });
			const id = (item.request as Record<string, unknown>)[field] as string;
			return [{ json: { [field]: id, deleted: result.deleted ?? true } }];
		},
	};
}

/** The model catalogs, each read with its client method. */
type CatalogName = 'listTalkingVideoModels' | 'listAiVideoModels' | 'listImageModels';

/** List Models: the catalog `models` reads, one output item a model; fetched once for all items. */
export function listModelsOperation(
	stated: OperationDescription & { models: CatalogName },
): Operation<undefined> {
	const read = (ctx: OperationContext, options: CallOptions) => ctx.client[stated.models](options);
	return {
		option: stated.option,
		properties: stated.properties,
		async prepare() {
			return undefined;
		},
		async executeAll(
			ctx: OperationContext,
			items: Array<Prepared<undefined>>,
		): Promise<ItemOutcome[]> {
			const { models } = await read(ctx, { signal: ctx.signal });
			return items.map(() => ({
				ok: true,
				value: models.map((model) => ({ json: model as IDataObject })),
			}));
		},
	};
}
