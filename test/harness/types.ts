import type {
	ExecutionBaseError,
	ExecutionStatus,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	IPinData,
	IRunData,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	WorkflowActivateMode,
} from 'n8n-workflow';

/**
 * Workflow JSON as n8n exports it (or a test writes it): only `nodes` and `connections` are needed,
 * so an exported file's missing bookkeeping fields (createdAt, …) are no obstacle.
 */
export type WorkflowJson = Partial<IWorkflowBase> & Pick<IWorkflowBase, 'nodes' | 'connections'>;

/** Plain (never encrypted) data of the package's credential, as a user would type it into n8n. */
export interface VisionStoryApiCredentialData {
	apiKey: string;
	baseUrl: string;
	/** The credential's default spend cap (0 or absent: none). */
	maxCreditsPerExecution?: number;
}

export interface HarnessOptions {
	/**
	 * Where n8n-core keeps binary data: `default` keeps it in memory (base64 inside the item, as
	 * n8n 1.x does), `filesystem` writes it to a temporary folder (as n8n 2.x does by default).
	 */
	binaryMode?: 'default' | 'filesystem';
	/** More node types (test fixtures), keyed by the full type name used in workflow JSON. */
	extraNodeTypes?: Record<string, INodeType | IVersionedNodeType>;
}

export interface RunOptions {
	credentials?: { visionStoryApi?: VisionStoryApiCredentialData };
	/** Default: a fresh id per run; passing the same id twice simulates a re-run inside one execution. */
	executionId?: string;
	/** Merged over the workflow's own `pinData` (these win), honoured like a manual run in the editor. */
	pinData?: IPinData;
	/** Called as the execution starts; `cancel()` stops it as the editor's stop button (or n8n's execution timeout) does. */
	onStart?: (execution: { cancel(): void }) => void;
	/**
	 * Runs the workflow as n8n's Retry of this failed run does: mode `retry`, a new execution id, the
	 * failed run's saved data with the failed node's last run removed, continuing from there.
	 */
	retryOf?: RunResult;
}

export interface RunResult {
	runData: IRunData;
	/** Everything the execution would save: run data, node stack, node contexts. */
	data: IRunExecutionData;
	/** The execution's error, if any. */
	error?: ExecutionBaseError;
	/** How n8n would record the execution: `success`, `error`, `canceled`, … */
	status: ExecutionStatus;
	/** The execution id the run used (handy for asserting idempotency keys). */
	executionId: string;
	/** Items of one output of one run of a node; throws a readable error if the node did not run. */
	output(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** The bytes of a binary property, whichever storage mode the harness uses. */
	binary(nodeName: string, itemIndex?: number, property?: string): Promise<Buffer>;
	/** The error a node's last failed run recorded, if any. */
	nodeError(nodeName: string): ExecutionBaseError | undefined;
}

export interface CredentialTestOptions {
	/** Sees the test request, resolved and authenticated, just before it is sent; throwing stops it. */
	beforeSend?: (request: IHttpRequestOptions) => void;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface PollOptions {
	credentials?: RunOptions['credentials'];
	/** The node's static data from a previous call (what `poll()` returned); default: none yet. */
	staticData?: IDataObject;
	/** `manual` is the editor's "Fetch test event"; `trigger` is an active workflow. Default `trigger`. */
	mode?: 'manual' | 'trigger';
	/**
	 * How the workflow was activated, in trigger mode: `activate` (default), `init` (n8n starting up,
	 * i.e. after a restart) or `update`. Manual mode always uses `manual`.
	 */
	activation?: Exclude<WorkflowActivateMode, 'manual'>;
	/** The workflow's global static data from a previous call (what `poll()` returned as `globalStaticData`). */
	globalStaticData?: IDataObject;
	/** What `getPollBudgetMs()` answers (n8n's durable scheduler gives less than the default 5 minutes). */
	pollBudgetMs?: number;
}

export interface PollResult {
	/** What the node's `poll()` returned: `null` means "nothing new". */
	items: INodeExecutionData[][] | null;
	/** The node's workflow static data after the poll, a plain copy to pass back to the next call. */
	staticData: IDataObject;
	/** The workflow's global static data after the poll, a plain copy. */
	globalStaticData: IDataObject;
}

/** A node as it stands in the editor while one of its parameters asks for its options. */
export interface EditorCall {
	credentials?: RunOptions['credentials'];
	/** The node's current parameter values (defaults are filled in as the editor does). */
	parameters: INodeParameters;
}

export interface EditorSearchCall extends EditorCall {
	/** What the user typed into the list's search box. */
	filter?: string;
	/** The token the previous page returned, when the user scrolls to the end of the list. */
	paginationToken?: string;
}

export interface Harness {
	/** Runs a workflow (object, or path to an exported JSON file) like "Execute workflow" in the editor. */
	run(workflow: IWorkflowBase | WorkflowJson | string, options?: RunOptions): Promise<RunResult>;
	/** Performs the credential's `test` request the way the editor's "Test" button does, over real HTTP. */
	testCredential(
		type: 'visionStoryApi',
		data: VisionStoryApiCredentialData,
		options?: CredentialTestOptions,
	): Promise<CredentialTestResult>;
	/** Drives a polling trigger's real `poll()` through n8n-core's `PollContext`. */
	poll(node: INode, options?: PollOptions): Promise<PollResult>;
	/**
	 * The "From List" of a resource locator, as the editor loads it: `parameter` is the parameter's
	 * name (the one shown for these parameter values); its list mode names the method called.
	 */
	searchList(
		nodeType: string,
		parameter: string,
		call: EditorSearchCall,
	): Promise<INodeListSearchResult>;
	/** The options of an options parameter that loads them (`typeOptions.loadOptionsMethod`); `options.x` for one inside Options. */
	loadOptions(
		nodeType: string,
		parameter: string,
		call: EditorCall,
	): Promise<INodePropertyOptions[]>;
	/** Deletes temporary folders and releases the engine's process-wide state. Call it in `afterAll`. */
	shutdown(): Promise<void>;
}
