import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

/**
 * Stand-in for n8n's "When clicking 'Execute workflow'" node. Like the real one it is a trigger that,
 * when the editor runs the workflow, emits one empty item; the engine drives it through its own
 * manual-trigger path (TriggersAndPollers), so pinned trigger data behaves as in the editor.
 */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: "When clicking 'Execute workflow'",
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		eventTriggerDescription: '',
		maxNodes: 1,
		defaults: { name: "When clicking 'Execute workflow'" },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}
