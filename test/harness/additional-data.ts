import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials';

/** Addresses n8n would serve on; nodes build webhook and form URLs from them, nothing listens. */
const INSTANCE_URL = 'http://localhost:5678';

/**
 * What n8n's CLI hands the engine for one execution. Only the credentials helper and the lifecycle
 * hooks do real work here; features the package does not use (sub-workflows, task runners, AI
 * events) fail loudly instead of silently doing nothing.
 */
export function buildAdditionalData(input: {
	credentialsHelper: HarnessCredentialsHelper;
	executionId?: string;
	workflow: IWorkflowBase;
	mode: WorkflowExecuteMode;
}): IWorkflowExecuteAdditionalData {
	const { credentialsHelper, executionId, workflow, mode } = input;
	return {
		credentialsHelper,
		executionId,
		workflowId: workflow.id,
		// WorkflowExecute refuses to start without hooks; nothing needs to listen to them.
		hooks: new ExecutionLifecycleHooks(mode, executionId ?? '', workflow),
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${INSTANCE_URL}/rest`,
		instanceBaseUrl: `${INSTANCE_URL}/`,
		webhookBaseUrl: `${INSTANCE_URL}/webhook`,
		webhookWaitingBaseUrl: `${INSTANCE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${INSTANCE_URL}/webhook-test`,
		formBaseUrl: `${INSTANCE_URL}/form`,
		formWaitingBaseUrl: `${INSTANCE_URL}/form-waiting`,
		formTestBaseUrl: `${INSTANCE_URL}/form-test`,
		mcpBaseUrl: `${INSTANCE_URL}/mcp`,
		mcpTestBaseUrl: `${INSTANCE_URL}/mcp-test`,
		executeWorkflow: async () => {
			throw new Error('Executing sub-workflows is not supported by the test harness');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners (Code node) are not supported by the test harness');
		},
	};
}
