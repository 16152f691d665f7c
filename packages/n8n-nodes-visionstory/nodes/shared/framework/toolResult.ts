import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * A node run as an AI tool: n8n's `*Tool` variant of it (an AI Agent's tool, or a tool an MCP Server
 * Trigger serves). n8n hands the model the JSON of the first output's items, so what a tool returns
 * must be one list of readable JSON of a size a model can take.
 */
export function isToolRun(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * Whether an AI Agent made this tool call. n8n's AI Agent has the engine run the tool as a node of
 * the execution and hands it the call's arguments with the call's `toolCallId` (1.x and 2.x alike);
 * the MCP Server Trigger and other callers of n8n's tool wrapper hand over the arguments alone.
 */
export function isAgentToolCall(items: INodeExecutionData[]): boolean {
	return items.some((item) => typeof item.json?.toolCallId === 'string');
}

/** The most JSON characters one tool result holds (about 4,000 tokens): lists beyond it are cut, with a note. */
export const MAX_TOOL_RESULT_CHARS = 16_000;
/** A single string field beyond this is shortened (a transcript, captions, an understand answer). */
const MAX_TOOL_STRING_CHARS = 4_000;
/** An array field beyond this many entries is shortened (word timings). */
const MAX_TOOL_ARRAY_ITEMS = 50;

function shorten(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') {
		return value.length > MAX_TOOL_STRING_CHARS
			? `${value.slice(0, MAX_TOOL_STRING_CHARS)}… (${value.length} characters in all; the full text is in the workflow's output)`
			: value;
	}
	if (Array.isArray(value)) {
		const kept = value.slice(0, MAX_TOOL_ARRAY_ITEMS).map((v) => shorten(v, depth + 1));
		return value.length > MAX_TOOL_ARRAY_ITEMS
			? [...kept, `… ${value.length - MAX_TOOL_ARRAY_ITEMS} more entries in the workflow's output`]
			: kept;
	}
	if (value && typeof value === 'object') {
		if (depth > 4) return '…';
		return Object.fromEntries(
			Object.entries(value as IDataObject).map(([k, v]) => [k, shorten(v, depth + 1)]),
		);
	}
	return value;
}

const size = (json: unknown) => JSON.stringify(json)?.length ?? 0;

/**
 * The items a tool returns: every output's items in one list (n8n reads only the first output of a
 * tool), each item's long fields shortened, and the list cut at MAX_TOOL_RESULT_CHARS with a last
 * item saying how many were left out. Files stay in binary for the workflow; the model gets their
 * JSON (ids, status, URLs, duration, cost).
 */
export function toolOutput(outputs: INodeExecutionData[][]): INodeExecutionData[][] {
	const all = outputs.flat().map((item) => ({ ...item, json: shorten(item.json) as IDataObject }));
	const kept: INodeExecutionData[] = [];
	// Room for the note and the list's brackets and commas.
	let used = 200;
	for (const item of all) {
		const itemSize = size(item.json) + 1;
		if (used + itemSize > MAX_TOOL_RESULT_CHARS) break;
		used += itemSize;
		kept.push(item);
	}
	if (kept.length < all.length) {
		const omitted = all.length - kept.length;
		kept.push({
			json: {
				truncated: true,
				omittedItems: omitted,
				hint: `${omitted} more result${omitted === 1 ? '' : 's'} left out to keep this answer short: ask for fewer (Limit, a filter) or a single one by ID`,
			},
			pairedItem: all[kept.length]?.pairedItem,
		});
	}
	return [kept];
}
