import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import type { ParamSpec } from '../api/contract';
import { createN8nClient } from '../n8n/client';

/**
 * Options that depend on the chosen model, read from the service's model lists so that new models
 * and limits show up without a release of this package.
 */

function currentModelId(context: ILoadOptionsFunctions): string {
	const value = context.getCurrentNodeParameter('modelId', { extractValue: true });
	return typeof value === 'string' ? value : '';
}

function optionsFrom(spec: ParamSpec | null | undefined, unit = ''): INodePropertyOptions[] {
	const values = spec?.values ?? [];
	const fallback = spec?.default;
	return [
		{
			name: `Model Default${fallback !== undefined && fallback !== null ? ` (${fallback}${unit})` : ''}`,
			value: '',
		},
		...values.map((v) => ({ name: `${v}${unit}`, value: v })),
	];
}

async function aiVideoParam(
	context: ILoadOptionsFunctions,
	param: string,
	unit = '',
): Promise<INodePropertyOptions[]> {
	const modelId = currentModelId(context);
	if (!modelId) return [{ name: 'Pick a Model First', value: '' }];
	const { models } = await (await createN8nClient(context)).listAiVideoModels();
	const model = models.find((m) => m.model_id === modelId);
	return optionsFrom(model?.params?.[param], unit);
}

async function imageParam(
	context: ILoadOptionsFunctions,
	param: string,
): Promise<INodePropertyOptions[]> {
	const modelId = currentModelId(context);
	if (!modelId) return [{ name: 'Pick a Model First', value: '' }];
	const { models } = await (await createN8nClient(context)).listImageModels();
	const model = models.find((m) => m.model_id === modelId);
	const options = optionsFrom(model?.params?.[param]);
	const prices = model?.credit_by_resolution;
	if (param === 'resolution' && prices) {
		for (const option of options) {
			const price = option.value === '' ? model?.credit_per_image : prices[String(option.value)];
			if (price !== undefined && price !== null) option.description = `${price} credits per image`;
		}
	}
	return options;
}

async function talkingVideoResolutions(
	context: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const modelId = currentModelId(context);
	const { models } = await (await createN8nClient(context)).listTalkingVideoModels();
	const model = models.find((m) => m.model_id === modelId) ?? models.find((m) => m.is_default);
	return optionsFrom({ values: model?.resolutions ?? [], default: model?.default_resolution });
}

export const loadOptions = {
	async getAiVideoDurations(this: ILoadOptionsFunctions) {
		return await aiVideoParam(this, 'duration_sec', ' s');
	},
	async getAiVideoResolutions(this: ILoadOptionsFunctions) {
		return await aiVideoParam(this, 'resolution');
	},
	async getAiVideoAspectRatios(this: ILoadOptionsFunctions) {
		return await aiVideoParam(this, 'aspect_ratio');
	},
	async getImageResolutions(this: ILoadOptionsFunctions) {
		return await imageParam(this, 'resolution');
	},
	async getImageAspectRatios(this: ILoadOptionsFunctions) {
		return await imageParam(this, 'aspect_ratio');
	},
	async getTalkingVideoResolutions(this: ILoadOptionsFunctions) {
		return await talkingVideoResolutions(this);
	},
};
