import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

/**
 * What the nodes declare for their AI-tool variants and the spend cap: a tool description per
 * operation (shown only on the `*Tool` variant), Wait for Completion off there, and the spend options
 * on every charged operation.
 */
import { N8N_PACKAGE_DIR } from '../../scripts/paths';

const root = N8N_PACKAGE_DIR;
const NODES: Record<string, string> = {
	VisionStoryTalkingVideo: 'nodes/VisionStoryTalkingVideo/VisionStoryTalkingVideo.node',
	VisionStoryAiVideo: 'nodes/VisionStoryAiVideo/VisionStoryAiVideo.node',
	VisionStoryImage: 'nodes/VisionStoryImage/VisionStoryImage.node',
	VisionStoryTextToSpeech: 'nodes/VisionStoryTextToSpeech/VisionStoryTextToSpeech.node',
	VisionStoryAlign: 'nodes/VisionStoryAlign/VisionStoryAlign.node',
	VisionStoryAvatar: 'nodes/VisionStoryAvatar/VisionStoryAvatar.node',
	VisionStoryVoice: 'nodes/VisionStoryVoice/VisionStoryVoice.node',
	VisionStoryUnderstand: 'nodes/VisionStoryUnderstand/VisionStoryUnderstand.node',
	VisionStoryAsset: 'nodes/VisionStoryAsset/VisionStoryAsset.node',
	VisionStoryAccount: 'nodes/VisionStoryAccount/VisionStoryAccount.node',
};
const CHARGED: Record<string, string[]> = {
	VisionStoryTalkingVideo: ['create'],
	VisionStoryAiVideo: ['create'],
	VisionStoryImage: ['generate'],
	VisionStoryTextToSpeech: ['synthesize'],
	VisionStoryAlign: ['align', 'transcribe'],
	VisionStoryUnderstand: ['analyze'],
};

const nodes = Object.entries(NODES).map(([name, file]) => {
	const NodeClass = (require(join(root, file)) as Record<string, new () => INodeType>)[name];
	return { name, node: new NodeClass() };
});

const operationsOf = (node: INodeType) =>
	(
		node.description.properties.find((p) => p.name === 'operation')!
			.options as INodePropertyOptions[]
	).map((o) => String(o.value));
const shownFor = (operation: string) => (p: INodeProperties) =>
	(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation) === true;

test.each(nodes)(
	'$name: every operation has a tool description, shown only on the tool variant',
	({ node }) => {
		for (const operation of operationsOf(node)) {
			const descriptions = node.description.properties.filter(
				(p) => p.name === 'toolDescription' && shownFor(operation)(p),
			);
			expect(descriptions).toHaveLength(1);
			expect(descriptions[0].displayOptions?.show?.['@tool']).toEqual([true]);
			expect(String(descriptions[0].default).length).toBeGreaterThan(30);
		}
	},
);

test.each(nodes)(
	'$name: charged operations, and only they, have Max Credits per Execution and Validate Only',
	({ name, node }) => {
		for (const operation of operationsOf(node)) {
			const options = node.description.properties.find(
				(p) => p.name === 'options' && p.type === 'collection' && shownFor(operation)(p),
			);
			const names = ((options?.options ?? []) as INodeProperties[]).map((o) => o.name);
			const charged = (CHARGED[name] ?? []).includes(operation);
			expect({
				operation,
				cap: names.includes('maxCreditsPerExecution'),
				dryRun: names.includes('validateOnly'),
			}).toEqual({ operation, cap: charged, dryRun: charged });
		}
	},
);

test('the tool descriptions of creates say what they cost, return and what to call next', () => {
	const byName = Object.fromEntries(nodes.map(({ name, node }) => [name, node]));
	const toolDescription = (name: string, operation: string) =>
		String(
			byName[name].description.properties.find(
				(p) => p.name === 'toolDescription' && shownFor(operation)(p),
			)!.default,
		);
	expect(toolDescription('VisionStoryTalkingVideo', 'create')).toMatch(
		/Costs credits.*Returns at once with video_id.*Next: check it with the talking video Check Status tool/,
	);
	expect(toolDescription('VisionStoryAiVideo', 'create')).toMatch(
		/Estimate Cost.*Returns at once with video_id.*Check Status/,
	);
	expect(toolDescription('VisionStoryTextToSpeech', 'synthesize')).toMatch(
		/2 credits per started 1,000 characters.*stays in the workflow as a file/,
	);
	expect(toolDescription('VisionStoryTalkingVideo', 'check')).toMatch(/Free/);
});

test('as a tool, Wait for Completion is off by default; elsewhere it stays on', () => {
	for (const name of ['VisionStoryTalkingVideo', 'VisionStoryAiVideo']) {
		const node = nodes.find((n) => n.name === name)!.node;
		const waits = node.description.properties.filter((p) => p.name === 'waitForCompletion');
		expect(
			waits.map((p) => [
				p.default,
				p.displayOptions?.show?.['@tool'] ?? null,
				p.displayOptions?.hide?.['@tool'] ?? null,
			]),
		).toEqual([
			[true, null, [true]],
			[false, [true], null],
		]);
	}
});

describe("n8n's own parameter resolution (NodeHelpers.getNodeParameters, as the engine and the editor run it)", () => {
	// Required at use: n8n-workflow's entry loads much; this file's other tests do not need it.
	const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');
	const talking = nodes.find((n) => n.name === 'VisionStoryTalkingVideo')!.node.description;
	// What n8n's loader makes of a node with usableAsTool: the same properties under `<name>Tool`.
	const asTool = { ...talking, name: `${talking.name}Tool` };
	const resolve = (description: typeof talking, parameters: Record<string, unknown>) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters as never,
			true,
			false,
			null,
			description,
		) as Record<string, unknown>;

	test('the tool variant gets the chosen operation’s description and Wait for Completion off; the node itself neither', () => {
		const tool = resolve(asTool, { operation: 'create' });
		expect(tool.waitForCompletion).toBe(false);
		expect(tool.toolDescription).toMatch(/^Create a talking-avatar video/);
		expect(resolve(asTool, { operation: 'check' }).toolDescription).toMatch(
			/^Check a talking video by video_id/,
		);
		const plain = resolve(talking, { operation: 'create' });
		expect(plain.waitForCompletion).toBe(true);
		expect(plain).not.toHaveProperty('toolDescription');
	});
});
