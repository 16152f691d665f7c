/**
 * The HTTP side of a running n8n: owner setup and an API key through the editor's REST API (the
 * only way to get a key), then the public API, which is the same on 1.x and 2.x.
 */
import { suiteFetch } from '../suiteHttp';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const TEST_OWNER: Owner = {
	email: 'owner@visionstory.test',
	password: 'VisionStory-test-1',
	firstName: 'Test',
	lastName: 'Owner',
};

const API_KEY_SCOPES = [
	'workflow:read',
	'workflow:list',
	'workflow:activate',
	'workflow:deactivate',
	'execution:read',
	'execution:list',
];

export class N8nRest {
	private cookie = '';
	// 2.x ties the auth cookie to the browser-id header sent at login.
	private readonly browserId = 'visionstory-e2e';
	private apiKey = '';

	constructor(readonly baseUrl: string) {}

	private async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await suiteFetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.get('set-cookie');
		const auth = setCookie?.match(/n8n-auth=[^;]+/);
		if (auth) this.cookie = auth[0];
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/** The node or credential types the editor offers (needs the owner's session). */
	async types(
		kind: 'nodes' | 'credentials',
	): Promise<Array<{ name: string; displayName: string }>> {
		const response = await suiteFetch(`${this.baseUrl}/types/${kind}.json`, {
			headers: { 'browser-id': this.browserId, cookie: this.cookie },
		});
		if (!response.ok) throw new Error(`GET /types/${kind}.json: HTTP ${response.status}`);
		return (await response.json()) as Array<{ name: string; displayName: string }>;
	}

	async setupOwner(owner: Owner = TEST_OWNER): Promise<void> {
		await this.rest('POST', '/owner/setup', owner);
	}

	async createApiKey(): Promise<void> {
		// 1.x before scopes ignores them; both current lines need them.
		const key = await this.rest<{ rawApiKey?: string; apiKey: string }>('POST', '/api-keys', {
			label: 'visionstory-e2e',
			scopes: API_KEY_SCOPES,
			expiresAt: null,
		});
		this.apiKey = key.rawApiKey ?? key.apiKey;
	}

	async api<T>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('create an API key first');
		const response = await suiteFetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: { 'content-type': 'application/json', 'X-N8N-API-KEY': this.apiKey },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /api/v1${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
		return JSON.parse(text) as T;
	}

	async activate(workflowId: string): Promise<{ active: boolean }> {
		return this.api('POST', `/workflows/${encodeURIComponent(workflowId)}/activate`);
	}

	async deactivate(workflowId: string): Promise<{ active: boolean }> {
		return this.api('POST', `/workflows/${encodeURIComponent(workflowId)}/deactivate`);
	}

	/** The editor's "Execute workflow" from a trigger (its Manual Trigger unless named); returns the execution id. */
	async runManually(workflowId: string, triggerName?: string): Promise<string> {
		const workflowData = await this.rest<{ nodes?: Array<{ name: string; type: string }> }>(
			'GET',
			`/workflows/${encodeURIComponent(workflowId)}`,
		);
		const trigger =
			triggerName ??
			workflowData.nodes?.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name;
		if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger to start from`);
		const started = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${encodeURIComponent(workflowId)}/run`,
			{
				workflowData,
				triggerToStartFrom: { name: trigger },
			},
		);
		if (!started.executionId)
			throw new Error(`n8n did not start ${workflowId}: ${JSON.stringify(started)}`);
		return String(started.executionId);
	}

	/** The editor's "Retry" of a failed execution (with the workflow as it was then); returns the new execution's id. */
	async retryExecution(executionId: string, loadWorkflow = false): Promise<string> {
		const retried = await this.rest<{ id: string | number } | string | number>(
			'POST',
			`/executions/${encodeURIComponent(executionId)}/retry`,
			{ loadWorkflow },
		);
		return String(typeof retried === 'object' ? retried.id : retried);
	}

	/** A stored binary file (database or filesystem mode) through the editor's download route. */
	async binaryData(id: string): Promise<Buffer> {
		const response = await suiteFetch(
			`${this.baseUrl}/rest/binary-data?id=${encodeURIComponent(id)}&action=download`,
			{ headers: { 'browser-id': this.browserId, cookie: this.cookie } },
		);
		if (!response.ok) throw new Error(`GET /rest/binary-data ${id}: HTTP ${response.status}`);
		return Buffer.from(await response.arrayBuffer());
	}

	async execution(executionId: string): Promise<ExecutionSummary> {
		return await this.api<ExecutionSummary>(
			'GET',
			`/executions/${encodeURIComponent(executionId)}?includeData=true`,
		);
	}

	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const page = await this.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true&limit=50`,
		);
		return page.data;
	}
}

export interface ExecutionSummary {
	id: string | number;
	status: string;
	mode: string;
	finished?: boolean;
	retryOf?: string | null;
	retrySuccessId?: string | null;
	startedAt?: string;
	stoppedAt?: string | null;
	waitTill?: string | null;
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: Record<string, any> }> | null> } }>
			>;
			error?: { message?: string };
			lastNodeExecuted?: string;
		};
		executionData?: { nodeExecutionStack?: unknown[]; contextData?: Record<string, unknown> };
	};
}

export interface WebhookAnswer {
	status: number;
	body: any;
	ms: number;
}

/** POSTs to a production webhook; 2.x answers 404 for a moment after activation, so 404s are retried briefly. */
export async function callWebhook(
	baseUrl: string,
	path: string,
	body: unknown,
	registerWaitMs = 10_000,
): Promise<WebhookAnswer> {
	const deadline = Date.now() + registerWaitMs;
	for (;;) {
		const started = Date.now();
		const response = await suiteFetch(`${baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		const ms = Date.now() - started;
		if (response.status === 404 && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 200));
			continue;
		}
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: response.status, body: parsed, ms };
	}
}
