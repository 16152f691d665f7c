import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	IWorkflowBase,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import type { CredentialDataMap } from './credentials';
import { HarnessCredentialsHelper } from './credentials';
import type { EngineContext } from './engine-context';
import type { EditorCall, EditorSearchCall } from './types';

/** The name n8n's editor gives the one node of the throwaway workflow it loads options through. */
const TEMP_NODE = 'Temp-Node';

/**
 * The editor asks for a parameter's options the way n8n's CLI (DynamicNodeParametersService) does:
 * a one-node workflow holding the node as it is being edited, n8n-core's LoadOptionsContext with the
 * node's current parameters, and the node type's method called with that context as `this`
 * (list searches also get the search text and the paging token the previous page returned).
 */
function editorContext(
	engine: EngineContext,
	nodeTypeName: string,
	call: EditorCall,
	path: string,
) {
	const nodeType = engine.nodeTypes.getByNameAndVersion(nodeTypeName, 1);
	const parameters =
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			call.parameters,
			true,
			false,
			null,
			nodeType.description,
		) ?? {};
	const node: INode = {
		id: 'uuid-1234',
		name: TEMP_NODE,
		type: nodeTypeName,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { visionStoryApi: { id: 'vsCredential0001', name: 'VisionStory account' } },
	};
	const workflowData = {
		id: 'harness-editor-workflow',
		name: 'Harness editor workflow',
		active: false,
		nodes: [node],
		connections: {},
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes: engine.nodeTypes });
	const credentialsHelper = new HarnessCredentialsHelper(
		engine.credentialTypes,
		(call.credentials ?? {}) as CredentialDataMap,
	);
	const additionalData = buildAdditionalData({
		credentialsHelper,
		workflow: workflowData as unknown as IWorkflowBase,
		mode: 'internal',
	});
	additionalData.currentNodeParameters = parameters;
	return {
		nodeType,
		context: new LoadOptionsContext(workflow, workflow.getNode(TEMP_NODE)!, additionalData, path),
		parameters,
	};
}

/**
 * The property the editor shows under `name` for these parameter values: with several properties of
 * one name (one per operation), the one whose display options match. `options.x` looks inside the
 * Options collection.
 */
function shownProperty(
	nodeType: INodeType,
	parameters: INodeParameters,
	name: string,
): INodeProperties {
	const [head, child] = name.split('.');
	const description = nodeType.description;
	const property = description.properties.find(
		(p) =>
			p.name === head &&
			NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 }, description, parameters),
	);
	if (!property)
		throw new Error(
			`${description.name} shows no parameter "${head}" for ${JSON.stringify(parameters)}`,
		);
	if (!child) return property;
	const inner = (property.options ?? []).find(
		(o): o is INodeProperties => 'name' in o && o.name === child && 'type' in o,
	);
	if (!inner) throw new Error(`${description.name} has no "${name}"`);
	return inner;
}

export async function searchList(
	engine: EngineContext,
	nodeTypeName: string,
	parameter: string,
	call: EditorSearchCall,
): Promise<INodeListSearchResult> {
	const { nodeType, context, parameters } = editorContext(
		engine,
		nodeTypeName,
		call,
		`parameters.${parameter}`,
	);
	const property = shownProperty(nodeType, parameters, parameter);
	const listMode = property.modes?.find((m) => m.type === 'list');
	const methodName = listMode?.typeOptions?.searchListMethod;
	if (!methodName) throw new Error(`"${parameter}" of ${nodeTypeName} has no searchable list`);
	const method = nodeType.methods?.listSearch?.[methodName];
	if (!method)
		throw new Error(`${nodeTypeName} names list search "${methodName}" but does not define it`);
	return await method.call(context, call.filter, call.paginationToken);
}

export async function loadOptions(
	engine: EngineContext,
	nodeTypeName: string,
	parameter: string,
	call: EditorCall,
): Promise<INodePropertyOptions[]> {
	const { nodeType, context, parameters } = editorContext(
		engine,
		nodeTypeName,
		call,
		`parameters.${parameter}`,
	);
	const methodName = shownProperty(nodeType, parameters, parameter).typeOptions?.loadOptionsMethod;
	if (!methodName) throw new Error(`"${parameter}" of ${nodeTypeName} does not load its options`);
	const method = nodeType.methods?.loadOptions?.[methodName];
	if (!method)
		throw new Error(
			`${nodeTypeName} names load-options method "${methodName}" but does not define it`,
		);
	return await method.call(context);
}
