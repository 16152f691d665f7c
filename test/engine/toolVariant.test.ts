import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { VisionStory } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/VisionStory.node';
import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * The node run as its tool variant (`visionStoryTool`, what n8n derives from `usableAsTool`), in n8n's
 * engine: how a failure reaches the caller and what a result holds. n8n's AI Agent runs a tool as a
 * node of the execution and hands it the call's arguments with their `toolCallId`; the MCP Server
 * Trigger hands the arguments alone (real n8n: test/e2e/agentChecks.ts, mcpChecks.ts).
 */
const TOOL = 'n8n-nodes-visionstory.visionStoryTool';
const node = new VisionStory();
// The tool variant keeps the node's properties under `<name>Tool`; main input and output keep the harness simple.
const toolNode = Object.assign(Object.create(node) as VisionStory, {
	description: { ...node.description, name: 'visionStoryTool' } as INodeTypeDescription,
});
const engine = useEngine({}, { extraNodeTypes: { [TOOL]: toolNode } });

const asTool = (resource: string, parameters: INodeParameters) => {
	const workflow = oneNode(resource, parameters);
	workflow.nodes[1].type = TOOL;
	return workflow;
};
const missingVideo = { operation: 'check', videoId: byId('vid_doesnotexist') };

test("an AI Agent's call (with toolCallId) that fails gets a readable answer: the service's message, its hint and what to do", async () => {
	const result = await engine.run(asTool('talkingVideo', missingVideo), [{ toolCallId: 'call_1' }]);
	expect(result.error).toBeUndefined();
	const [answer] = result.output(NODE);
	expect(answer.json.error).toEqual(expect.any(String));
	expect(answer.json.hint).toEqual(expect.any(String));
	expect(answer.json.status).toBe(404);
});

test('a call from anyone else (the MCP Server Trigger) that fails throws, with the message and the hint as its details', async () => {
	const result = await engine.run(asTool('talkingVideo', missingVideo), [{}]);
	const [answer] = (
		await engine.run(asTool('talkingVideo', missingVideo), [{ toolCallId: 'call_2' }])
	).output(NODE);
	// n8n's tool wrapper passes on this message and description ("message\n\nDetails: hint").
	expect(result.error).toMatchObject({
		name: 'NodeOperationError',
		message: answer.json.error,
		description: answer.json.hint,
	});
	expect(engine.emu.ledger()).toEqual([]);
});

test('bad input from an MCP client throws before anything is sent, naming the field', async () => {
	const before = engine.emu.requests({ origin: 'api' }).length;
	const result = await engine.run(
		asTool('textToSpeech', { operation: 'synthesize', text: '={{ "" }}', voiceId: byId('Alice') }),
		[{}],
	);
	expect(result.error?.message).toMatch(/Text|text/);
	expect(engine.emu.requests({ origin: 'api' }).length).toBe(before);
});

test('an image made as a tool stays a URL: no download unless Download Result is on', async () => {
	const generate = {
		operation: 'generate',
		modelId: byId('nano-banana-2'),
		prompt: 'A lighthouse',
	};
	const [plain] = (await engine.run(asTool('image', generate), [{ toolCallId: 'c' }])).output(NODE);
	expect(plain.json.url).toEqual(expect.any(String));
	expect(plain.binary).toBeUndefined();
	const downloads = engine.emu.requests({ origin: 'media' }).length;
	const [asked] = (
		await engine.run(asTool('image', { ...generate, downloadResult: true }), [{ toolCallId: 'c' }])
	).output(NODE);
	expect(asked.json.url).toEqual(expect.any(String));
	expect(engine.emu.requests({ origin: 'media' }).length).toBeGreaterThan(downloads);
});
