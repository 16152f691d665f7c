jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { sep } from 'node:path';

import type { IExecuteFunctions } from 'n8n-workflow';

import { VisionStoryTalkingVideo } from '../../packages/n8n-nodes-visionstory/nodes/VisionStoryTalkingVideo/VisionStoryTalkingVideo.node';
import { firstPublicAvatarId } from '../support/avatars';
import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * A walk of one operation's call path (docs/architecture.md): Talking Video → Create with Wait for
 * Completion, as n8n runs it. Every call the node makes into n8n (its parameters, the HTTP requests,
 * the binary store, the log) records the stack at that moment. Each stack, read from the node
 * inward, lists the package files it passes through; a file appearing twice with another between
 * them is a call back into a file already left.
 */

const NODES = `${sep}nodes${sep}`;

interface Probe {
	/** What the node asked n8n for: `helpers.httpRequestWithAuthentication`, `getNodeParameter`… */
	call: string;
	/** Package files on the stack, outermost first, each run of frames in one file counted once. */
	files: string[];
}

function packageFiles(stack: string): string[] {
	const files: string[] = [];
	// Innermost frame first in V8's stack; read outermost first.
	for (const line of stack.split('\n').slice(1).reverse()) {
		const match = /\(?((?:[A-Za-z]:)?[^():]+\.ts):\d+:\d+\)?\s*$/.exec(line);
		if (!match || !match[1].includes(NODES)) continue;
		const file = match[1].slice(match[1].indexOf(NODES) + 1);
		if (files[files.length - 1] !== file) files.push(file);
	}
	return files;
}

/** Every method of `target` (own and inherited), each noting the stack before it runs on `target` itself. */
function wrapped<T extends object>(
	target: T,
	prefix: string,
	note: (call: string) => void,
	self: (given: unknown) => unknown = () => target,
): Record<string, unknown> {
	const methods: Record<string, unknown> = {};
	for (
		let object: object | null = target;
		object && object !== Object.prototype;
		object = Object.getPrototypeOf(object) as object | null
	) {
		for (const key of Object.getOwnPropertyNames(object)) {
			if (key === 'constructor' || key in methods) continue;
			const value = (target as Record<string, unknown>)[key];
			if (typeof value !== 'function') continue;
			methods[key] = function (this: unknown, ...args: unknown[]) {
				note(prefix + key);
				return (value as (...a: unknown[]) => unknown).apply(self(this), args);
			};
		}
	}
	return methods;
}

/** n8n's context as the node sees it, except that every call into it notes the stack. */
function recording(context: IExecuteFunctions, probes: Probe[]): IExecuteFunctions {
	const note = (call: string) =>
		probes.push({ call, files: packageFiles(new Error().stack ?? '') });
	const view = Object.create(context) as IExecuteFunctions;
	const define = (key: string, value: unknown) =>
		Object.defineProperty(view, key, { value, enumerable: true });
	for (const [key, value] of Object.entries(wrapped(context, '', note))) define(key, value);
	// Helpers are called with the context as `this` (httpRequestWithAuthentication): the real one.
	define('helpers', {
		...context.helpers,
		...wrapped(context.helpers, 'helpers.', note, (given) => (given === view ? context : given)),
	});
	if (context.logger) define('logger', wrapped(context.logger, 'logger.', note));
	return view;
}

const probes: Probe[] = [];
/** The node as the package ships it, run with the recording context. */
const node = new VisionStoryTalkingVideo();
const execute = node.execute;
node.execute = async function (this: IExecuteFunctions) {
	return await execute.call(recording(this, probes));
};
const engine = useEngine(
	{ clock: 'manual', renderMs: 60_000 },
	{
		binaryMode: 'filesystem',
		extraNodeTypes: { 'n8n-nodes-visionstory.visionStoryTalkingVideo': node },
	},
);
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
	Error.stackTraceLimit = Infinity;
});

test('Talking Video → Create with waiting: at most 8 files from the node to the HTTP call and back, none entered twice', async () => {
	const workflow = oneNode('visionStoryTalkingVideo', {
		operation: 'create',
		avatarId: byId(avatarId),
		text: 'Our spring sale starts today!',
		voiceId: byId('Alice'),
		waitForCompletion: true,
		downloadResult: true,
	});
	const result = await engine.run(workflow, [{}, {}]);
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)).toHaveLength(2);
	expect(result.output(NODE)[0].binary?.data).toBeDefined();

	const http = probes.filter((p) => p.call.startsWith('helpers.httpRequest'));
	// Both creates, status reads and both downloads went through n8n's request helpers.
	expect(http.length).toBeGreaterThanOrEqual(4);
	const returns = probes.filter((p) => new Set(p.files).size !== p.files.length);
	expect(returns.map((p) => `${p.call}: ${p.files.join(' → ')}`)).toEqual([]);

	const longest = http.reduce((a, b) => (b.files.length > a.files.length ? b : a));
	const touched = [...new Set(probes.flatMap((p) => p.files))].sort();
	// The figures docs/architecture.md states; printed so the doc can be checked against a run.
	console.log(
		[
			`call path of Talking Video → Create (waiting), ${probes.length} calls into n8n, ${http.length} of them HTTP:`,
			`longest path to an HTTP call: ${longest.files.length} files: ${longest.files.join(' → ')}`,
			`files on any path into n8n: ${touched.length}: ${touched.join(', ')}`,
			`calls back into a file already left: ${returns.length}`,
		].join('\n'),
	);
	// The node's `execute` is the router over its operations (`routerFor`): the path starts there.
	expect(longest.files[0]).toBe('nodes/shared/framework/router.ts');
	expect(longest.files[1]).toBe('nodes/VisionStoryTalkingVideo/actions/create.ts');
	// router, create, taskRun, taskCreate or taskReads, spendingClient, client, transport, n8n/client.
	expect(longest.files.length).toBeLessThanOrEqual(8);
});
