import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod/v3';

import type { VisionStoryClient } from '../api/client';
import type { InlineRules, MediaRef, OperationName } from '../api/contract';
import type { VisionStoryError } from '../api/errors';
import type { MediaPart } from '../api/mediaBody';
import type { SpendingClient } from '../api/client';
import type { MediaInput } from '../n8n/binary';

/** One item's parameter values, by parameter name (resource locators already reduced to their id). */
export type Params = IDataObject;

/** Media of one item as MediaRefs (binary bytes as placeholders), by media name. */
export type MediaRefs = Record<string, MediaRef | MediaRef[] | undefined>;

export interface MediaDecl {
	/** Parameter prefix (`audio` → audioSource, audioBinaryProperty, audioUrl, audioAssetId), or a fixed collection's name for lists. */
	name: string;
	rules: InlineRules;
	/** A list of media: the fixed collection's entry key and how many entries are allowed. */
	list?: { entry: string; min?: number; max?: number };
}

/** An item that passed every check before sending: its parameters, its media and its request. */
export interface Prepared {
	index: number;
	params: Params;
	/** All media inputs in placeholder order. */
	inputs: MediaInput[];
	/** The checked API request (binary bytes still placeholders), when the operation has one. */
	request?: IDataObject;
}

/** What an operation's run gets besides its items. */
export interface Scope {
	context: IExecuteFunctions;
	client: VisionStoryClient;
	/** The same client, with the execution's spend ledger and cap. */
	spend: SpendingClient;
	signal?: AbortSignal;
	/** Execution, run, node and item: stable when n8n re-runs this node within the same execution, or retries it. */
	idempotencyContext(itemIndex: number): string;
	/** The files behind the item's placeholders, for the call's `media` option. */
	media(item: Prepared): Record<string, MediaPart>;
}

/** An item's result: its output items and, for operations with several outputs, which one they go to. */
export type ItemOutcome = { ok: true; value: INodeExecutionData[]; output?: number } | { ok: false; error: VisionStoryError };

/** One operation of a node, as data: its parameters, how they become a request, and how it runs. */
export interface OperationDef {
	value: string;
	name: string;
	action: string;
	description: string;
	/** Names of the node's outputs while this operation is chosen, when it has more than one. */
	outputs?: readonly string[];
	/** Parameters of this operation; the node description shows them only for it. */
	properties: INodeProperties[];
	media?: MediaDecl[];
	/** API field path → the parameter that sets it, to name the parameter in errors (`text_script.text` → `text`). */
	fieldParameters?: Record<string, string>;
	/** The contract operation the request is checked against before anything is sent. */
	validateAs?: OperationName;
	/** Or a schema of its own, for requests assembled in steps (framing merges what it reads). */
	schema?: z.ZodTypeAny;
	request?: (params: Params, media: MediaRefs) => unknown;
	/** Checks that need the service (e.g. a model's limits), run for all items before any is sent. */
	check?: (scope: Scope, items: Prepared[]) => Promise<Map<number, VisionStoryError>>;
	run(scope: Scope, items: Prepared[]): Promise<ItemOutcome[]>;
	/** What a model is told when the node runs as an AI tool; defaults to the action and description. */
	toolDescription?: string;
	/** Charged although its request is not a charged contract operation's (long speech is several calls). */
	charged?: boolean;
	/** The credits one item will cost, where a price is known (Validate Only); else the single call's estimate. */
	estimate?: (scope: Scope, item: Prepared) => Promise<number | undefined>;
}

/** What node files give the builders: everything but the run, which the builder supplies. */
export type OperationMeta = Pick<
	OperationDef,
	'value' | 'name' | 'action' | 'description' | 'properties' | 'media' | 'fieldParameters' | 'check' | 'outputs' | 'charged' | 'estimate' | 'toolDescription'
>;
