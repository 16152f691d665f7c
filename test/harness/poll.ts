import { Container } from '@n8n/di';
import { PollContext, TriggersAndPollers } from 'n8n-core';
import type { IDataObject, INode, IWorkflowBase } from 'n8n-workflow';
import { deepCopy, Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { withBinaryStore } from './binary-data';
import type { CredentialDataMap } from './credentials';
import { HarnessCredentialsHelper } from './credentials';
import type { EngineContext } from './engine-context';
import type { PollOptions, PollResult } from './types';

/**
 * One call of a polling trigger's `poll()`, the way n8n makes it: a workflow holding the trigger,
 * n8n-core's PollContext (mode `trigger` for an active workflow, `manual` for "Fetch test event"),
 * and the call itself through n8n-core's TriggersAndPollers.
 *
 * The workflow's static data is what n8n persists in its database between polls; here the caller
 * holds it: pass the `staticData` a call returned into the next call, even on a new harness, to
 * simulate polls across an n8n restart. Real n8n does not save static data changed by a manual
 * "Fetch test event", so a faithful test does not feed manual-mode static data back.
 */
export async function pollOnce(
	engine: EngineContext,
	trigger: INode,
	options: PollOptions = {},
): Promise<PollResult> {
	const mode = options.mode ?? 'trigger';
	const node = deepCopy(trigger);
	const staticKey = `node:${node.name}`;
	const workflowData = {
		id: 'harness-poll-workflow',
		name: 'Harness poll workflow',
		active: mode === 'trigger',
		nodes: [node],
		connections: {},
	};
	const workflow = new Workflow({
		...workflowData,
		nodeTypes: engine.nodeTypes,
		staticData: {
			...(options.staticData ? { [staticKey]: deepCopy(options.staticData) } : {}),
			...(options.globalStaticData ? { global: deepCopy(options.globalStaticData) } : {}),
		},
	});
	const credentialsHelper = new HarnessCredentialsHelper(
		engine.credentialTypes,
		(options.credentials ?? {}) as CredentialDataMap,
	);
	// A poll runs outside any execution, so n8n gives it no execution id.
	const additionalData = buildAdditionalData({
		credentialsHelper,
		workflow: workflowData as unknown as IWorkflowBase,
		mode,
	});
	const activation = mode === 'manual' ? 'manual' : (options.activation ?? 'activate');
	const budget = options.pollBudgetMs;
	// The arguments between are n8n's own hooks (emit, cursor commits); their defaults fit one call.
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		mode,
		activation,
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		budget === undefined ? undefined : () => budget,
	);

	const items = await withBinaryStore(
		engine.binaryStore,
		async () => await Container.get(TriggersAndPollers).runPollFunction(workflow, node, context),
	);
	// Plain copies: the live objects are n8n ObservableObjects that flag changes on their parent.
	const plain = (key: string) => {
		const copy = deepCopy((workflow.staticData[key] as IDataObject | undefined) ?? {});
		delete copy.__dataChanged;
		return copy;
	};
	return { items: items ?? null, staticData: plain(staticKey), globalStaticData: plain('global') };
}
