import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { VisionStoryError } from '../api/errors';
import type { SpendingClient } from '../api/spendingClient';

/**
 * What an operation gets from the router for one call of the node: n8n's context (`n8n`, the node's
 * `this`), the VisionStory client, the cancel signal and the idempotency scope.
 */
export interface OperationContext {
	/** n8n's execute functions: parameters, binary data, helpers, log. */
	n8n: IExecuteFunctions;
	/** The VisionStory client, keeping the execution's spend ledger and cap. */
	client: SpendingClient;
	signal?: AbortSignal;
	/**
	 * Instance, execution, node and run index: with the item's index, a create's idempotency context, stable
	 * when n8n re-runs this node within the same execution or retries the execution.
	 */
	idempotencyScope: string;
	/**
	 * The keys of this run may have been sent before: no execution id (an MCP tool call, keyed by its
	 * parameters) or n8n's Retry of an execution. A create's answer is then read back to see it is alive.
	 */
	keysMayRepeat?: boolean;
}

/** The idempotency context of item `index`: its creates get the same client_request_id when sent again. */
export function idempotencyContext(ctx: OperationContext, index: number): string {
	return `${ctx.idempotencyScope}:${index}`;
}

/**
 * Where item `index`'s instant charged calls are sent at most once (`api/instantCalls.ts`): its
 * execution, node, run and item, so n8n's Retry On Fail (and a Retry of the execution) gets back what
 * was answered rather than paying again. A run outside any execution (an MCP tool call) has none.
 */
export function instantScope(ctx: OperationContext, index: number): string | undefined {
	return ctx.n8n.getExecutionId() ? idempotencyContext(ctx, index) : undefined;
}

/** An item that passed every check before sending, with what its operation made of its parameters. */
export interface Prepared<R> {
	index: number;
	request: R;
}

/** One item's result: its output items (and which output, for operations with several), or its error. */
export type ItemOutcome =
	| { ok: true; value: INodeExecutionData[]; output?: number }
	| { ok: false; error: VisionStoryError; kept?: INodeExecutionData };

/** An entry of the Resource or the Operation picker. */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/**
 * One operation of the node, defined in its own file (`actions/<resource>/<value>.operation.ts`): its
 * entry in its resource's Operation picker (with n8n's `action` text), its literal parameters,
 * `prepare` (an item's parameters, read by name, into a checked request: nothing is sent) and
 * `execute` for one item or `executeAll` for all of them at once (waiting on many videos).
 */
export interface Operation<R = unknown> {
	option: OperationOption;
	/** Parameters of this operation, without the `resource` and `operation` display options (the node's description adds them). */
	properties: INodeProperties[];
	/** Names of the node's outputs while this operation is chosen, when it has more than one. */
	outputs?: readonly string[];
	/** Sends charged calls: the spend cap, Validate Only and the spend in every output item apply. */
	charged?: boolean;
	/** Reads video tasks, whose cost the execution's spend learns: output items show the spend. */
	reportsSpend?: boolean;
	prepare(ctx: OperationContext, index: number): Promise<R>;
	/** Checks that need the service (a model's limits) or all items (shared idempotency keys), before any item is sent. */
	check?(ctx: OperationContext, items: Array<Prepared<R>>): Promise<Map<number, VisionStoryError>>;
	/** Validate Only: the credits one item would cost, where a price is known. */
	estimate?(ctx: OperationContext, request: R): Promise<number | undefined>;
	execute?(ctx: OperationContext, item: Prepared<R>): Promise<INodeExecutionData[]>;
	/**
	 * What a failed item still made and was charged for (long speech: the parts spoken before a part
	 * failed), put out beside its error whatever On Error says; undefined when nothing was.
	 */
	keptOnFailure?(
		ctx: OperationContext,
		item: Prepared<R>,
		error: unknown,
	): Promise<INodeExecutionData | undefined>;
	/** Items `execute` runs at once, where fewer than the router's five suit the endpoint (long uploads, slow models). */
	concurrency?: number;
	executeAll?(ctx: OperationContext, items: Array<Prepared<R>>): Promise<ItemOutcome[]>;
}

/**
 * What an operation file states of itself where an operation several resources share does the work
 * (`deleteOperation`, `getManyOperation`, `listModelsOperation`): its picker entry and its parameters.
 */
export type OperationDescription = Pick<Operation, 'option' | 'properties'>;

/** A resource of the node: its entry in the Resource picker and its operations, listed once. */
export interface Resource {
	option: Omit<OperationOption, 'action'>;
	/** The operation its picker starts on. */
	defaultOperation: string;
	operations: readonly Operation[];
}
