import type { AiVideoModelDto, ImageModelDto, ParamSpec } from './contract';
import type { FieldIssue } from './errors';
import { VisionStoryError } from './errors';
import type { Prepared, Scope } from './operations';
import { invalid } from './operations';

/**
 * Per-model limits checked before anything is submitted: the model lists are the source of truth,
 * so an unsupported duration or too many references fail here with the allowed values, for free.
 */

function allowedValue(spec: ParamSpec | null | undefined, field: string, value: unknown, modelId: string): FieldIssue | undefined {
	if (value === undefined || value === null || value === '' || !spec?.values?.length) return undefined;
	if (spec.values.some((v) => String(v) === String(value))) return undefined;
	return { field, message: `${JSON.stringify(value)} is not offered by ${modelId}; allowed: ${spec.values.join(', ')}` };
}

function promptLength(spec: ParamSpec | null | undefined, prompt: unknown, modelId: string): FieldIssue | undefined {
	const max = spec?.max_length;
	if (!max || typeof prompt !== 'string' || prompt.length <= max) return undefined;
	return { field: 'prompt', message: `has ${prompt.length} characters; ${modelId} takes at most ${max}` };
}

function unknownModel(modelId: string, models: Array<{ model_id: string }>): FieldIssue {
	return { field: 'model_id', message: `"${modelId}" is not a model; available: ${models.map((m) => m.model_id).join(', ')}` };
}

const EXTENSION_KIND: Record<string, string> = {
	jpg: 'image', jpeg: 'image', png: 'image', webp: 'image', gif: 'image', bmp: 'image', tif: 'image', tiff: 'image', heic: 'image',
	mp4: 'video', mov: 'video', avi: 'video', webm: 'video',
	mp3: 'audio', wav: 'audio', m4a: 'audio', aac: 'audio',
};

/** image, video or audio, when the reference says (inline MIME type or URL file extension); assets are not known here. */
function kindOf(ref: unknown): string | undefined {
	const r = ref as { inline_data?: { mime_type?: string }; url?: string } | undefined;
	if (r?.inline_data?.mime_type) return r.inline_data.mime_type.split('/')[0];
	const extension = r?.url ? /\.([a-z0-9]{2,4})(?:[?#]|$)/i.exec(new URL(r.url).pathname)?.[1]?.toLowerCase() : undefined;
	return extension ? EXTENSION_KIND[extension] : undefined;
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

async function checkAgainst<M extends { model_id: string }>(
	operation: string,
	items: Prepared[],
	models: M[],
	issuesOf: (model: M, request: Record<string, unknown>) => FieldIssue[],
): Promise<Map<number, VisionStoryError>> {
	const rejected = new Map<number, VisionStoryError>();
	for (const item of items) {
		const request = item.request ?? {};
		const modelId = String(request.model_id ?? '');
		const model = models.find((m) => m.model_id === modelId);
		const issues = model ? issuesOf(model, request) : [unknownModel(modelId, models)];
		if (issues.length) rejected.set(item.index, invalid(operation, issues));
	}
	return rejected;
}

export async function checkAiVideoModels(scope: Scope, items: Prepared[]): Promise<Map<number, VisionStoryError>> {
	const { models } = await scope.client.listAiVideoModels({ signal: scope.signal });
	return await checkAgainst('create', items, models, aiVideoIssues);
}

export async function checkImageModels(scope: Scope, items: Prepared[]): Promise<Map<number, VisionStoryError>> {
	const { models } = await scope.client.listImageModels({ signal: scope.signal });
	return await checkAgainst('generate', items, models, imageIssues);
}
