import type { ParamSpec } from '../api/contract';
import type { FieldIssue } from '../api/errors';
import { VisionStoryError } from '../api/errors';

/**
 * Per-model limits checked before anything is submitted: the model lists are the source of truth,
 * so an unsupported duration or too many references fail here with the allowed values, for free.
 */

export function allowedValue(
	spec: ParamSpec | null | undefined,
	field: string,
	value: unknown,
	modelId: string,
): FieldIssue | undefined {
	if (value === undefined || value === null || value === '' || !spec?.values?.length)
		return undefined;
	if (spec.values.some((v) => String(v) === String(value))) return undefined;
	return {
		field,
		message: `${JSON.stringify(value)} is not offered by ${modelId}; allowed: ${spec.values.join(', ')}`,
	};
}

export function promptLength(
	spec: ParamSpec | null | undefined,
	prompt: unknown,
	modelId: string,
): FieldIssue | undefined {
	const max = spec?.max_length;
	if (!max || typeof prompt !== 'string' || prompt.length <= max) return undefined;
	return {
		field: 'prompt',
		message: `has ${prompt.length} characters; ${modelId} takes at most ${max}`,
	};
}

function unknownModel(modelId: string, models: Array<{ model_id: string }>): FieldIssue {
	return {
		field: 'model_id',
		message: `"${modelId}" is not a model; available: ${models.map((m) => m.model_id).join(', ')}`,
	};
}

/**
 * The models of a list answer, or undefined when the answer cannot be read at all: the local checks
 * are then skipped and the service checks the request itself, rather than every item failing on a list.
 */
export async function modelList<M>(answer: Promise<{ models: M[] }>): Promise<M[] | undefined> {
	const [outcome] = await Promise.allSettled([answer]);
	if (outcome.status === 'fulfilled') return outcome.value.models;
	if (outcome.reason instanceof VisionStoryError && outcome.reason.category === 'response')
		return undefined;
	throw outcome.reason;
}

/** The model an item names, or the issue saying it is not one of those offered. */
export function findModel<M extends { model_id: string }>(
	models: M[],
	modelId: string,
): { model: M } | { issue: FieldIssue } {
	const model = models.find((m) => m.model_id === modelId);
	return model ? { model } : { issue: unknownModel(modelId, models) };
}
