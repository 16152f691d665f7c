import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { VisionStory } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/VisionStory.node';
import { resources } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/actions/resources';

/**
 * What the node declares for its AI-tool variant and the spend cap: a tool description per operation
 * (shown only on the `visionStoryTool` variant, following Wait for Completion where it matters), Wait
 * for Completion and downloads off there, and the spend options on every charged operation. Resolved
 * with n8n's own parameter resolution, as the engine and the editor run it.
 */
// Required at use: n8n-workflow's entry loads much.
const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');

const node = new VisionStory().description;
// What n8n's loader makes of a node with usableAsTool: the same properties under `<name>Tool`.
const tool = { ...node, name: `${node.name}Tool` };
const resolve = (description: typeof node, parameters: INodeParameters) =>
	NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		null,
		description,
	) as Record<string, unknown>;

const CHARGED = new Set([
	'talkingVideo:create',
	'aiVideo:create',
	'image:generate',
	'textToSpeech:synthesize',
	'align:align',
	'align:transcribe',
	'understand:analyze',
]);
const pairs = resources.flatMap((r) =>
	r.operations.map((o) => [r.option.value, o.option.value] as const),
);

test.each(pairs)(
	'%s %s: a tool description on the tool variant only, and the spend options exactly when charged',
	(resource, operation) => {
		const asTool = resolve(tool, { resource, operation });
		expect(String(asTool.toolDescription).length).toBeGreaterThan(30);
		const plain = resolve(node, { resource, operation });
		expect(plain).not.toHaveProperty('toolDescription');
		const options = (node.properties as INodeProperties[]).find(
			(p) =>
				p.name === 'options' &&
				p.displayOptions?.show?.resource?.includes(resource) &&
				p.displayOptions?.show?.operation?.includes(operation),
		);
		const names = ((options?.options ?? []) as INodeProperties[]).map((o) => o.name);
		const charged = CHARGED.has(`${resource}:${operation}`);
		expect({
			cap: names.includes('maxCreditsPerExecution'),
			dryRun: names.includes('validateOnly'),
		}).toEqual({ cap: charged, dryRun: charged });
	},
);

const description = (resource: string, operation: string, extra: INodeParameters = {}) =>
	String(resolve(tool, { resource, operation, ...extra }).toolDescription);

test('the tool descriptions of creates say what they cost, return and what to call next', () => {
	expect(description('talkingVideo', 'create')).toMatch(
		/Costs credits.*Returns at once with video_id.*Next: check it with the talking video Check Status tool/,
	);
	expect(description('aiVideo', 'create')).toMatch(
		/Estimate Cost.*Returns at once with video_id.*Check Status/,
	);
	expect(description('textToSpeech', 'synthesize')).toMatch(
		/2 credits per started 1,000 characters.*the MP3 itself is not part of this answer/,
	);
	expect(description('talkingVideo', 'check')).toMatch(/Free/);
});

test.each(['talkingVideo', 'aiVideo'])(
	'%s create: with Wait for Completion on, the description says it waits and returns the finished video',
	(resource) => {
		const waiting = description(resource, 'create', { waitForCompletion: true });
		expect(waiting).toMatch(/Waits until the video is rendered.*video_url/);
		expect(waiting).not.toMatch(/at once/);
	},
);

test('as a tool, Wait for Completion and downloads are off by default; on the node they stay on', () => {
	for (const resource of ['talkingVideo', 'aiVideo']) {
		expect(resolve(tool, { resource, operation: 'create' }).waitForCompletion).toBe(false);
		expect(
			resolve(tool, { resource, operation: 'create', waitForCompletion: true }).downloadResult,
		).toBe(false);
		expect(resolve(tool, { resource, operation: 'check' }).downloadResult).toBe(false);
		const plain = resolve(node, { resource, operation: 'create' });
		expect([plain.waitForCompletion, plain.downloadResult]).toEqual([true, true]);
		expect(resolve(node, { resource, operation: 'check' }).downloadResult).toBe(true);
	}
	expect(resolve(tool, { resource: 'image', operation: 'generate' }).downloadResult).toBe(false);
	expect(resolve(node, { resource: 'image', operation: 'generate' })).not.toHaveProperty(
		'downloadResult',
	);
});
