import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactText, VisionStoryError } from './errors';

/** Names an API field the way the user sees it: "Script" (text). */
export type FieldLabeler = (apiField: string) => string | undefined;

function describeIssues(error: VisionStoryError, label: FieldLabeler): string {
	return (error.issues ?? [])
		.map((issue) => {
			const name = label(issue.field);
			return name ? `${name}: ${issue.message}` : issue.field ? `${issue.field} ${issue.message}` : issue.message;
		})
		.join('; ');
}

function messageOf(error: VisionStoryError, label: FieldLabeler): string {
	if (error.kind === 'validation' && error.issues?.length) return `Invalid input: ${describeIssues(error, label)}`;
	if (error.kind === 'api' && error.status === 422 && error.details) {
		const fields = Object.entries(error.details)
			.filter(([key]) => key !== 'message')
			.map(([key, value]) => `${label(key) ?? key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
		if (fields.length) return `${error.message} (${fields.join('; ')})`;
	}
	return error.message;
}

/** The n8n error for anything an operation throws: NodeOperationError for bad input, NodeApiError for the service. */
export function toNodeError(node: INode, error: unknown, itemIndex: number, label: FieldLabeler = () => undefined) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (!(error instanceof VisionStoryError)) {
		const message = redactText(error instanceof Error ? error.message : String(error));
		return new NodeOperationError(node, message, { itemIndex });
	}
	const message = messageOf(error, label);
	const description = error.hint;
	if (error.kind === 'validation' || error.kind === 'timeout' || error.kind === 'taskFailed' || error.kind === 'aborted') {
		return new NodeOperationError(node, message, { itemIndex, description });
	}
	const response: JsonObject = { message, code: error.code ?? null, status: error.status ?? null };
	if (error.hint) response.hint = error.hint;
	return new NodeApiError(node, response, {
		message,
		description,
		itemIndex,
		httpCode: error.status !== undefined ? String(error.status) : undefined,
	});
}

/** The output item continue-on-fail gives for a failed input item. */
export function errorItem(error: unknown, itemIndex: number, label: FieldLabeler = () => undefined): INodeExecutionData {
	const json: IDataObject = {};
	if (error instanceof VisionStoryError) {
		json.error = messageOf(error, label);
		if (error.hint) json.hint = error.hint;
		if (error.status !== undefined) json.status = error.status;
		if (error.code !== undefined) json.code = error.code;
		if (error.videoIds?.length) json.video_id = error.videoIds.length === 1 ? error.videoIds[0] : error.videoIds;
		if (error.issues?.length) json.fields = error.issues.map((i) => i.field);
	} else {
		json.error = redactText(error instanceof Error ? error.message : String(error));
		const description = (error as { description?: unknown }).description;
		if (typeof description === 'string') json.hint = description;
	}
	return { json, pairedItem: { item: itemIndex } };
}
