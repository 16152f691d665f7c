/**
 * The config node's spend limits: Max credits / message (one message's journey) and Keep at Least N
 * Credits (the account's balance, across every message, node and flow of this Node-RED, and the n8n
 * nodes of the same process), read from the node's properties with the core's one reading of a limit.
 */
import type { FieldIssue } from './api';
import { invalidInput, readLimit as readCoreLimit } from './api';

export const MAX_CREDITS_FIELD = 'Max credits / message (maxCreditsPerMessage)';
export const KEEP_AT_LEAST_FIELD = 'Keep at Least N Credits (keepAtLeastCredits)';

/** A limit as the editor stores it: empty or 0 means none; anything else a whole number of credits. */
export function readLimit(
	value: unknown,
	field: string,
	issues: FieldIssue[],
	config: string,
): number | undefined {
	const { credits, issue } = readCoreLimit(value, field, `in the VisionStory config "${config}"`);
	if (issue) issues.push(issue);
	return credits;
}

/** Why the limits cannot be used: every message through this config is refused until they are fixed. */
export function limitsProblem(issues: FieldIssue[]) {
	return issues.length ? invalidInput('VisionStory config', issues) : undefined;
}
