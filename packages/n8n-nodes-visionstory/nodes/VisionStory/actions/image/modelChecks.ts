import type { Checked } from '../../../shared/api/client';
import type { ImageModelDto } from '../../../shared/api/contract/index';
import type { FieldIssue, VisionStoryError } from '../../../shared/api/errors';
import { invalidInput } from '../../../shared/api/errors';
import type { Prepared, OperationContext } from '../../../shared/framework/action';
import {
	allowedValue,
	findModel,
	modelList,
	promptLength,
} from '../../../shared/framework/modelChecks';

function imageIssues(model: ImageModelDto, request: Checked<'generateImage'>): FieldIssue[] {
	const id = model.model_id;
	const issues = [
		allowedValue(model.params?.resolution, 'resolution', request.resolution, id),
		allowedValue(model.params?.aspect_ratio, 'aspect_ratio', request.aspect_ratio, id),
		promptLength(model.params?.prompt, request.prompt, id),
	].filter((i): i is FieldIssue => i !== undefined);
	const refs = request.refs?.length ?? 0;
	const max = model.params?.refs?.max;
	if (max !== undefined && max !== null && refs > max) {
		issues.push({
			field: 'refs',
			message: `has ${refs} reference images; ${id} takes at most ${max}`,
		});
	}
	return issues;
}

/** The image model list is read once for all items; each request is checked against its model. */
export async function checkImageModels(
	ctx: OperationContext,
	items: Array<Prepared<Checked<'generateImage'>>>,
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	const models = await modelList(ctx.client.listImageModels({ signal: ctx.signal }));
	if (!models) return rejected;
	for (const item of items) {
		const found = findModel(models, item.request.model_id);
		const issues = 'issue' in found ? [found.issue] : imageIssues(found.model, item.request);
		if (issues.length) rejected.set(item.index, invalidInput('generate', issues));
	}
	return rejected;
}
