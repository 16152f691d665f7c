import type { Checked } from '../../../shared/api/client';
import type { AiVideoModelDto, MediaRef } from '../../../shared/api/contract/index';
import type { FieldIssue, VisionStoryError } from '../../../shared/api/errors';
import { invalidInput } from '../../../shared/api/errors';
import { mediaKindOf, mimeTypeForExtension, urlExtension } from '../../../shared/api/mediaTypes';
import type { Prepared, OperationContext } from '../../../shared/framework/action';
import {
	allowedValue,
	findModel,
	modelList,
	promptLength,
} from '../../../shared/framework/modelChecks';

type CreateRequest = Checked<'createAiVideo'>;

/** image, video or audio, when the reference says (inline MIME type or URL file extension); assets are not known here. */
function kindOf(ref: MediaRef): string | undefined {
	return mediaKindOf(
		ref.inline_data?.mime_type ??
			(ref.url ? mimeTypeForExtension(urlExtension(ref.url)) : undefined),
	);
}

/** A request's problems with its model; each issue names the parameter that set the value. */
function aiVideoIssues(model: AiVideoModelDto, request: CreateRequest): FieldIssue[] {
	const id = model.model_id;
	const issues = [
		allowedValue(model.params?.duration_sec, 'duration', request.duration_sec, id),
		allowedValue(model.params?.resolution, 'resolution', request.resolution, id),
		allowedValue(model.params?.aspect_ratio, 'aspectRatio', request.aspect_ratio, id),
		promptLength(model.params?.prompt, request.prompt, id),
	].filter((i): i is FieldIssue => i !== undefined);
	if (request.generate_audio === true && model.params?.generate_audio?.supported === false) {
		issues.push({ field: 'generateAudio', message: `is not supported by ${id}; turn it off` });
	}
	for (const [slot, parameter] of [
		['first_frame', 'firstFrameSource'],
		['end_frame', 'endFrameSource'],
	] as const) {
		const spec = model.media?.[slot];
		const ref = request[slot];
		if (!ref || !spec) continue;
		const mime = ref.inline_data?.mime_type;
		if (spec.supported === false)
			issues.push({
				field: parameter,
				message: `is not supported by ${id}; choose None or another model`,
			});
		else if (mime && spec.mime_types?.length && !spec.mime_types.includes(mime)) {
			issues.push({
				field: parameter,
				message: `is a ${mime} file; ${id} takes ${spec.mime_types.join(', ')}`,
			});
		}
	}
	const refs = request.refs ?? [];
	const refSpec = model.media?.refs;
	if (refs.length > 0 && (refSpec?.supported === false || refSpec?.max === 0)) {
		issues.push({
			field: 'refs',
			message: `are not supported by ${id}; remove them or choose another model`,
		});
	} else if (refSpec?.max !== undefined && refSpec.max !== null && refs.length > refSpec.max) {
		issues.push({
			field: 'refs',
			message: `has ${refs.length} references; ${id} takes at most ${refSpec.max}`,
		});
	} else if (refSpec?.kinds?.length) {
		const kinds = refSpec.kinds;
		refs.forEach((ref, i) => {
			const kind = kindOf(ref);
			if (kind && !kinds.includes(kind)) {
				issues.push({
					field: `refs.${i}`,
					message: `is ${kind}; ${id} takes references of kind ${kinds.join(', ')}`,
				});
			}
		});
	}
	return issues;
}

/** The AI video model list is read once for all items; each request is checked against its model. */
export async function checkAiVideoModels(
	ctx: OperationContext,
	items: Array<Prepared<CreateRequest>>,
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	const models = await modelList(ctx.client.listAiVideoModels({ signal: ctx.signal }));
	if (!models) return rejected;
	for (const item of items) {
		const found = findModel(models, item.request.model_id);
		const issues = 'model' in found ? aiVideoIssues(found.model, item.request) : [found.issue];
		if (issues.length) rejected.set(item.index, invalidInput('create', issues));
	}
	return rejected;
}
