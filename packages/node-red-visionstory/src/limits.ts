/**
 * The config node's spend limits: Max credits / message (one message's journey) and Keep at Least N
 * Credits (the account's balance, across every message, node and flow of this Node-RED), read from
 * the node's properties and checked, and the reservation book the floor shares per account.
 */
import { createHash } from 'node:crypto';

import type { BalanceFloor, FieldIssue } from './api';
import { AccountReservations, invalidInput } from './api';

export const MAX_CREDITS_FIELD = 'Max credits / message (maxCreditsPerMessage)';
export const KEEP_AT_LEAST_FIELD = 'Keep at Least N Credits (keepAtLeastCredits)';

/** A limit as the editor stores it: empty or 0 means none; anything else a whole number of credits. */
export function readLimit(
	value: unknown,
	field: string,
	issues: FieldIssue[],
	config: string,
): number | undefined {
	if (value === undefined || value === null || value === 0) return undefined;
	const text = typeof value === 'string' ? value.trim() : value;
	if (text === '') return undefined;
	const n = typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : text;
	if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
		issues.push({
			field: `${field} in the VisionStory config "${config}"`,
			message: `must be a whole number of credits, empty or 0 for none (got ${JSON.stringify(value)})`,
		});
		return undefined;
	}
	return n > 0 ? n : undefined;
}

/** Why the limits cannot be used: every message through this config is refused until they are fixed. */
export function limitsProblem(issues: FieldIssue[]) {
	return issues.length ? invalidInput('VisionStory config', issues) : undefined;
}

/**
 * Calls under way per account in this Node-RED process, as n8n keeps them per process: keyed by Base
 * URL and a hash of the key, so two config nodes holding the same account share one book and neither
 * can spend what the other has reserved.
 */
const accounts = new Map<string, AccountReservations>();

export function balanceFloor(
	baseUrl: string,
	apiKey: string,
	keepAtLeast: number | undefined,
	config: string,
): BalanceFloor | undefined {
	if (keepAtLeast === undefined) return undefined;
	const account = createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
	let reservations = accounts.get(account);
	if (!reservations) accounts.set(account, (reservations = new AccountReservations()));
	return reservations.floor(keepAtLeast, `in the VisionStory config "${config}"`);
}
