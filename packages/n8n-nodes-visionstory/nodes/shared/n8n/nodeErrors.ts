import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactText, VisionStoryError } from '../api/errors';

/** Names an API field the way the user sees it: "Script" (text). */
export type FieldLabeler = (apiField: string) => string | undefined;

function describeIssues(error: VisionStoryError, label: FieldLabeler): string {
	return (error.issues ?? [])
		.map((issue) => {
			const name = label(issue.field);
			if (name) return `${name}: ${issue.message}`;
			if (!issue.field) return issue.message;
			return error.category === 'api'
				? `${issue.field}: ${issue.message}`
				: `${issue.field} ${issue.message}`;
		})
		.join('; ');
}

function messageOf(error: VisionStoryError, label: FieldLabeler): string {
	if (error.category === 'validation' && error.issues?.length)
		return `Invalid input: ${describeIssues(error, label)}`;
	// The service's per-field details, whatever shape they came in, named as the editor shows the fields.
	if (error.category === 'api' && error.issues?.length)
		return `${error.message} (${describeIssues(error, label)})`;
	return error.message;
}

/** The n8n error for anything an operation throws: NodeOperationError for bad input, NodeApiError for the service. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
	label: FieldLabeler = () => undefined,
) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (!(error instanceof VisionStoryError)) {
		const message = redactText(error instanceof Error ? error.message : String(error));
		return new NodeOperationError(node, message, { itemIndex });
	}
	const message = messageOf(error, label);
	const description = error.hint;
	if (
		error.category === 'validation' ||
		error.category === 'timeout' ||
		error.category === 'taskFailed' ||
		error.category === 'aborted'
	) {
		return new NodeOperationError(node, message, { itemIndex, description });
	}
	const response: JsonObject = { message, code: error.code ?? null, status: error.status ?? null };
	if (error.hint) response.hint = error.hint;
	const apiError = new NodeApiError(node, response, {
		message,
		description,
		itemIndex,
		httpCode: error.status !== undefined ? String(error.status) : undefined,
	});
	// n8n swaps a message naming a network error code (ECONNRESET, ETIMEDOUT) for its own advice to
	// retry, which contradicts the hint when a charged call may have gone through: keep ours.
	if (error.category === 'network') apiError.message = message;
	return apiError;
}

/** What a failed item says: the message, what to do next, and the ids and codes to act on. */
function errorDetails(error: unknown, label: FieldLabeler): { message: string } & IDataObject {
	if (!(error instanceof VisionStoryError)) {
		const description = (error as { description?: unknown }).description;
		return {
			message: redactText(error instanceof Error ? error.message : String(error)),
			...(typeof description === 'string' ? { hint: description } : {}),
		};
	}
	const details: { message: string } & IDataObject = { message: messageOf(error, label) };
	if (error.hint) details.hint = error.hint;
	if (error.status !== undefined) details.status = error.status;
	if (error.code !== undefined) details.code = error.code;
	if (error.videoIds?.length)
		details.video_id = error.videoIds.length === 1 ? error.videoIds[0] : error.videoIds;
	if (error.issues?.length) details.fields = error.issues.map((i) => i.field);
	return details;
}

/**
 * The output item continue-on-fail gives for a failed input item. On the regular output its fields
 * sit at the top level beside `error` (the message). n8n sends an item down the error output only
 * when its JSON holds nothing but `error` and `message`, so there the fields go inside `error`.
 */
export function errorItem(
	error: unknown,
	itemIndex: number,
	label: FieldLabeler = () => undefined,
	forErrorOutput = false,
): INodeExecutionData {
	const { message, ...details } = errorDetails(error, label);
	const json: IDataObject = forErrorOutput
		? { error: { message, ...details }, message }
		: { error: message, ...details };
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * A failed tool call that n8n's tool wrapper passes on (the MCP Server Trigger): n8n keeps the
 * message and the description of a NodeOperationError ("message\n\nDetails: hint") and marks the
 * MCP result as an error only when the tool throws. The ids a client acts on go in the message.
 */
export function toolCallError(
	node: INode,
	error: unknown,
	itemIndex: number,
	label: FieldLabeler = () => undefined,
): NodeOperationError {
	const { message, hint, video_id: videoId } = errorDetails(error, label);
	const ids = videoId === undefined ? '' : ` (video_id: ${[videoId].flat().join(', ')})`;
	return new NodeOperationError(node, `${message}${ids}`, {
		itemIndex,
		description: typeof hint === 'string' ? hint : undefined,
	});
}
