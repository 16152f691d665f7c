import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IRunExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { withBinaryStore } from './binary-data';
import { HarnessCredentialsHelper, withDefaults } from './credentials';
import type { EngineContext } from './engine-context';
import { HarnessNodeTypes } from './node-types';
import type { CredentialTestOptions, CredentialTestResult } from './types';

/** The error shapes n8n's HTTP helpers throw: a NodeApiError whose cause is the HTTP error. */
interface RequestFailure {
	message?: string;
	cause?: { code?: string; response?: { status?: number; statusText?: string } };
}

/**
 * Tests credential data the way n8n's editor "Test" button does (the CLI's CredentialsTester):
 * the credential type's `test.request` becomes the routing of a one-parameter throw-away node,
 * n8n-core's RoutingNode sends it, resolving `={{$credentials…}}` expressions against the data and
 * applying the credential's `authenticate` through the credentials helper. Any answer outside 2xx,
 * or a network error, is an `Error` result, described the way n8n describes it.
 */
export async function testCredential(
	engine: EngineContext,
	type: string,
	rawData: ICredentialDataDecryptedObject,
	options: CredentialTestOptions = {},
): Promise<CredentialTestResult> {
	const helper = new HarnessCredentialsHelper(
		engine.credentialTypes,
		{ [type]: rawData },
		options.beforeSend,
	);
	const credentialType = helper.getType(type);
	const test = credentialType.test;
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };
	// n8n fills the type's defaults in before testing, so an omitted base URL means the default one.
	const data = withDefaults(helper.getCredentialsProperties(type), rawData);

	const testNodeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'noOp',
			group: ['transform'],
			version: 1,
			description: 'Sends a credential test request',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: 'harness', name: 'Harness credential' } },
	};
	const workflowData = {
		id: 'credential-test',
		name: 'Credential test',
		active: false,
		nodes: [node],
		connections: {},
	};
	const workflow = new Workflow({
		...workflowData,
		nodeTypes: new HarnessNodeTypes({ 'n8n-nodes-base.noOp': testNodeType }),
	});
	const additionalData = buildAdditionalData({
		credentialsHelper: helper,
		workflow: workflowData as unknown as IWorkflowBase,
		mode: 'internal',
	});
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		resultData: { runData: {} },
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, {
		id: 'harness',
		name: 'Harness credential',
		type,
		data,
	});

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await withBinaryStore(engine.binaryStore, async () => await routingNode.runNode());
	} catch (error) {
		return describeFailure(error as RequestFailure, test);
	}
	return checkSuccessBody(response, test) ?? { status: 'OK', message: 'Connection successful!' };
}

function describeFailure(
	error: RequestFailure,
	test: ICredentialTestRequest,
): CredentialTestResult {
	const response = error.cause?.response;
	if (response?.status !== undefined) {
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		return {
			status: 'Error',
			message: response.statusText || `Received HTTP status code: ${response.status}`,
		};
	}
	if (error.cause?.code) return { status: 'Error', message: error.cause.code };
	return { status: 'Error', message: String(error.message) };
}

/** `responseSuccessBody` rules turn a 2xx answer with a given body value into a failure. */
function checkSuccessBody(
	response: INodeExecutionData[][] | undefined,
	test: ICredentialTestRequest,
): CredentialTestResult | undefined {
	const body = response?.[0]?.[0]?.json;
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return undefined;
}
