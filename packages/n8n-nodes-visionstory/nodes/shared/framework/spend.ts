import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { balanceFloor } from '../api/balance';
import type { VisionStoryClient } from '../api/client';
import { invalidInput } from '../api/errors';
import type { BalanceFloor, SpendPolicy } from '../api/spend';
import type { VideoResult } from '../api/tasks';
import { SpendingClient } from '../api/spendingClient';
import { LedgerBook } from '../api/ledgerBook';
import { readLimit, SpendLedger } from '../api/spend';
import { baseUrlOf, CREDENTIAL_TYPE } from '../n8n/client';

/**
 * One ledger per execution, shared by every VisionStory node that execution runs (an AI Agent calls
 * a tool node once per tool call; n8n's Retry On Fail runs a node again): module state keyed by the
 * execution, because workflow static data is saved across executions and node context is per node.
 * An execution runs whole in one process (main, or one worker in queue mode), so one book serves it.
 */
/** An execution untouched this long is over (the longest wait a node does is far shorter). */
const IDLE_MS = 12 * 60 * 60_000;
/**
 * Executions kept at most; the least recently used go first. Each is a few hundred bytes; a node that
 * is running holds its ledger itself, so only a later node of an execution pushed out meanwhile would
 * start from nothing, after this many other executions ran VisionStory nodes.
 */
export const MAX_EXECUTIONS = 10_000;

const ledgers = new LedgerBook(MAX_EXECUTIONS, IDLE_MS);

/** The ledger of the execution the context belongs to. */
export function ledgerOf(context: IExecuteFunctions): SpendLedger {
	let instance = '';
	try {
		instance = context.getInstanceId();
	} catch {
		// Hosts without an instance id keep executions apart by id alone.
	}
	const executionId = context.getExecutionId() as string | undefined;
	// A run outside any execution (n8n's MCP Server Trigger runs each tool call in its webhook, before
	// an execution exists) shares nothing: its spend and cap cover that one call.
	if (!executionId) return new SpendLedger();
	return ledgers.ledger(`${instance}:${executionId}`);
}

/** For tests: how many executions are remembered. */
export function rememberedExecutions(): number {
	return ledgers.size;
}

export const MAX_CREDITS_FIELD = 'Max Credits per Execution (maxCreditsPerExecution)';

/** A limit's value: empty or 0 means none; anything else must be a whole number of credits. */
function capValue(value: unknown, where: string, field = MAX_CREDITS_FIELD): number | undefined {
	const { credits, issue } = readLimit(value, field, where);
	if (issue) throw invalidInput('spend cap', [issue]);
	return credits;
}

export const KEEP_AT_LEAST_FIELD = 'Keep at Least N Credits (keepAtLeastCredits)';

/** Keep at Least N Credits of the credential, over this package's one book of its account in the process (api/balance.ts). */
function floorOf(credentials: IDataObject): BalanceFloor | undefined {
	const keepAtLeast = capValue(
		credentials.keepAtLeastCredits,
		'in the VisionStory credential',
		KEEP_AT_LEAST_FIELD,
	);
	return balanceFloor(
		baseUrlOf(credentials),
		String(credentials.apiKey ?? ''),
		keepAtLeast,
		'Keep at Least N Credits of the VisionStory credential',
	);
}

/**
 * The node's Max Credits per Execution, else the credential's default (none when both are empty or
 * 0), and the credential's Keep at Least N Credits.
 */
export async function spendPolicyOf(context: IExecuteFunctions): Promise<SpendPolicy> {
	let credentials: IDataObject = {};
	try {
		credentials = await context.getCredentials(CREDENTIAL_TYPE);
	} catch {
		// The client reports a missing credential itself.
	}
	const floor = floorOf(credentials);
	const fromNode = capValue(
		context.getNodeParameter('options.maxCreditsPerExecution', 0, 0),
		'in the node Options',
	);
	if (fromNode !== undefined)
		return { cap: fromNode, capSource: 'Options → Max Credits per Execution of this node', floor };
	const fromCredential = capValue(
		credentials.maxCreditsPerExecution,
		'in the VisionStory credential',
	);
	if (fromCredential !== undefined)
		return {
			cap: fromCredential,
			capSource: 'Max Credits per Execution of the VisionStory credential',
			floor,
		};
	return { floor };
}

export function validateOnlyOf(context: IExecuteFunctions): boolean {
	return context.getNodeParameter('options.validateOnly', 0, false) === true;
}

export function spendingClient(
	client: VisionStoryClient,
	ledger: SpendLedger,
	policy: SpendPolicy,
): SpendingClient {
	return new SpendingClient(client, ledger, policy);
}

/**
 * What every output item of a charged operation carries: the execution's spend so far whose price is
 * known, how many charges are of a price not known yet (never counted as 0), and the cap.
 */
export function spendSummary(client: SpendingClient): IDataObject {
	const unknown = client.ledger.unknown();
	return {
		creditsSpentInExecution: client.ledger.spent(),
		...(unknown > 0
			? {
					chargesOfUnknownPrice: unknown,
					spendNote: `${unknown} charged call${unknown === 1 ? '' : 's'} of this execution ${unknown === 1 ? 'has' : 'have'} a price VisionStory has not reported yet: creditsSpentInExecution does not include ${unknown === 1 ? 'it' : 'them'}`,
				}
			: {}),
		maxCreditsPerExecution: client.policy.cap ?? null,
	};
}

/**
 * What a video's item says about money beyond the task's own cost_credit: that its price comes
 * later, and that it was returned rather than made (the same request sent before).
 */
export function videoMoney(result: VideoResult): IDataObject {
	const task = result.task as { status?: unknown; cost_credit?: unknown };
	const cost = task.cost_credit;
	const priced = typeof cost === 'number' && cost > 0;
	return {
		...(task.status !== 'failed' && !priced
			? {
					priceNote:
						'Price known after rendering: VisionStory reports cost_credit with the task (Check Status or Get).',
				}
			: {}),
		...(result.existing
			? {
					existingVideo: true,
					existingNote:
						'VisionStory returned the video this same request made before (same idempotency key): no new video was made and nothing more was charged.',
				}
			: {}),
	};
}

export function withSpend(items: INodeExecutionData[], summary: IDataObject): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: { ...item.json, ...summary } }));
}
