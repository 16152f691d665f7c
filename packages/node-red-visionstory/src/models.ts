/**
 * Per-model limits checked before anything charged is sent, from the model lists (free calls): an
 * unknown model, a value the model does not offer, a prompt too long, too many references. Where a
 * list cannot be read, the checks are skipped and the service checks the request itself.
 */
import type { FieldIssue } from './api';
import { VisionStoryError, invalidInput } from './api';
import type { Context } from './context';

interface ParamSpec {
	values?: Array<string | number> | null;
	max_length?: number | null;
	max?: number | null;
}
interface Model {
	model_id: string;
	params?: Record<string, ParamSpec | null | undefined> | null;
}

async function models(answer: Promise<{ models: Model[] }>): Promise<Model[] | undefined> {
	try {
		return (await answer).models;
	} catch (error) {
		if (error instanceof VisionStoryError && error.category === 'response') return undefined;
		throw error;
	}
}

export interface ModelCheck {
	modelId: string;
	/** Property name → value and the model parameter it must be among. */
	values: Array<{ name: string; param: string; value: unknown }>;
	prompt?: string;
	refs?: number;
}

export async function checkModel(
	context: Context,
	list: Promise<{ models: Model[] }>,
	check: ModelCheck,
): Promise<void> {
	const all = await models(list);
	if (!all) return;
	const model = all.find((m) => m.model_id === check.modelId);
	const issues: FieldIssue[] = [];
	if (!model) {
		issues.push({
			field: context.label('modelId'),
			message: `"${check.modelId}" is not a model; available: ${all.map((m) => m.model_id).join(', ')}`,
		});
	} else {
		const params = model.params ?? {};
		for (const { name, param, value } of check.values) {
			const offered = params[param]?.values;
			if (value === undefined || value === null || value === '' || !offered?.length) continue;
			if (offered.some((v) => String(v) === String(value))) continue;
			issues.push({
				field: context.label(name),
				message: `${JSON.stringify(value)} is not offered by ${check.modelId}; allowed: ${offered.join(', ')}`,
			});
		}
		const max = params.prompt?.max_length;
		if (max && check.prompt && check.prompt.length > max)
			issues.push({
				field: context.label('prompt'),
				message: `has ${check.prompt.length} characters; ${check.modelId} takes at most ${max}`,
			});
		const refsMax = params.refs?.max;
		if (typeof refsMax === 'number' && (check.refs ?? 0) > refsMax)
			issues.push({
				field: context.label('refs'),
				message: `has ${check.refs} references; ${check.modelId} takes at most ${refsMax}`,
			});
	}
	if (issues.length) throw invalidInput(context.operation, issues);
}
