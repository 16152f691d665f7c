import type { AiVideoModelDto } from '../shared/api/contract';
import type { FieldIssue, VisionStoryError } from '../shared/api/errors';
import { mediaKindOf, mimeTypeForExtension, urlExtension } from '../shared/api/mediaTypes';
import { allowedValue, checkAgainst, modelsOrSkip, promptLength } from '../shared/framework/modelChecks';
import type { Prepared, Scope } from '../shared/framework/operation';

/** image, video or audio, when the reference says (inline MIME type or URL file extension); assets are not known here. */
function kindOf(ref: unknown): string | undefined {
	const r = ref as { inline_data?: { mime_type?: string }; url?: string } | undefined;
	return mediaKindOf(r?.inline_data?.mime_type ?? (r?.url ? mimeTypeForExtension(urlExtension(r.url)) : undefined));
}

function mimeOf(ref: unknown): string | undefined {
	return (ref as { inline_data?: { mime_type?: string } } | undefined)?.inline_data?.mime_type;
}

function aiVideoIssues(model: AiVideoModelDto, request: Record<string, unknown>): FieldIssue[] {
	const id = model.model_id;
	const issues = [
		allowedValue(model.params?.duration_sec, 'duration_sec', request.duration_sec, id),
		allowedValue(model.params?.resolution, 'resolution', request.resolution, id),
		allowedValue(model.params?.aspect_ratio, 'aspect_ratio', request.aspect_ratio, id),
		promptLength(model.params?.prompt, request.prompt, id),
	].filter((i): i is FieldIssue => i !== undefined);
	if (request.generate_audio === true && model.params?.generate_audio?.supported === false) {
		issues.push({ field: 'generate_audio', message: `is not supported by ${id}; turn it off` });
	}
	for (const slot of ['first_frame', 'end_frame'] as const) {
		const spec = model.media?.[slot];
		if (!request[slot] || !spec) continue;
		const mime = mimeOf(request[slot]);
		if (spec.supported === false) issues.push({ field: slot, message: `is not supported by ${id}; choose None or another model` });
		else if (mime && spec.mime_types?.length && !spec.mime_types.includes(mime)) {
			issues.push({ field: slot, message: `is a ${mime} file; ${id} takes ${spec.mime_types.join(', ')}` });
		}
	}
	const refs = Array.isArray(request.refs) ? request.refs : [];
	const refSpec = model.media?.refs;
	if (refs.length > 0 && (refSpec?.supported === false || refSpec?.max === 0)) {
		issues.push({ field: 'refs', message: `are not supported by ${id}; remove them or choose another model` });
	} else if (refSpec?.max !== undefined && refSpec.max !== null && refs.length > refSpec.max) {
		issues.push({ field: 'refs', message: `has ${refs.length} references; ${id} takes at most ${refSpec.max}` });
	} else if (refSpec?.kinds?.length) {
		refs.forEach((ref, i) => {
			const kind = kindOf(ref);
			if (kind && !refSpec.kinds!.includes(kind)) {
				issues.push({ field: `refs.${i}`, message: `is ${kind}; ${id} takes references of kind ${refSpec.kinds!.join(', ')}` });
			}
		});
	}
	return issues;
}

/** The AI video model list is read once for all items; each request is checked against its model. */
export async function checkAiVideoModels(scope: Scope, items: Prepared[]): Promise<Map<number, VisionStoryError>> {
	const models = await modelsOrSkip(() => scope.client.listAiVideoModels({ signal: scope.signal }));
	return checkAgainst('create', items, models, aiVideoIssues);
}
