import type { ImageModelDto } from '../shared/api/contract';
import type { FieldIssue, VisionStoryError } from '../shared/api/errors';
import { allowedValue, checkAgainst, modelsOrSkip, promptLength } from '../shared/framework/modelChecks';
import type { Prepared, Scope } from '../shared/framework/operation';

function imageIssues(model: ImageModelDto, request: Record<string, unknown>): FieldIssue[] {
	const id = model.model_id;
	const issues = [
		allowedValue(model.params?.resolution, 'resolution', request.resolution, id),
		allowedValue(model.params?.aspect_ratio, 'aspect_ratio', request.aspect_ratio, id),
		promptLength(model.params?.prompt, request.prompt, id),
	].filter((i): i is FieldIssue => i !== undefined);
	const refs = Array.isArray(request.refs) ? request.refs.length : 0;
	const max = model.params?.refs?.max;
	if (max !== undefined && max !== null && refs > max) {
		issues.push({ field: 'refs', message: `has ${refs} reference images; ${id} takes at most ${max}` });
	}
	return issues;
}

/** The image model list is read once for all items; each request is checked against its model. */
export async function checkImageModels(scope: Scope, items: Prepared[]): Promise<Map<number, VisionStoryError>> {
	const models = await modelsOrSkip(() => scope.client.listImageModels({ signal: scope.signal }));
	return checkAgainst('generate', items, models, imageIssues);
}
