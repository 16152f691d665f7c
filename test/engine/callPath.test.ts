jest.mock('n8n-workflow', () => jest.requireActual('../support/virtualTime').virtualWorkflow());

import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join, sep } from 'node:path';

import type { IExecuteFunctions } from 'n8n-workflow';

import { VisionStory } from '../../packages/n8n-nodes-visionstory/nodes/VisionStory/VisionStory.node';
import { firstPublicAvatarId } from '../support/avatars';
import type { WorkflowJson } from '../harness';
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

/**
 * Files entered over a whole run: every package file one of whose functions V8 counted as called,
 * from V8's precise coverage (the counters are reset just before the run).
 */
async function filesEntered<T>(run: () => Promise<T>): Promise<{ result: T; files: string[] }> {
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) =>
			session.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer))),
		);
	await post('Profiler.enable');
	await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	await post('Profiler.takePreciseCoverage');
	const result = await run();
	const { result: scripts } = (await post('Profiler.takePreciseCoverage')) as {
		result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>;
	};
	await post('Profiler.stopPreciseCoverage');
	session.disconnect();
	const files = scripts
		.filter((s) => s.url.includes(NODES) && s.url.endsWith('.ts'))
		.filter((s) => s.functions.some((f) => f.ranges[0]?.count > 0))
		.map((s) => s.url.slice(s.url.indexOf(NODES) + 1));
	return { result, files: [...new Set(files)].sort() };
}

const probes: Probe[] = [];
/** The node as the package ships it, run with the recording context. */
const node = new VisionStory();
const execute = node.execute;
node.execute = async function (this: IExecuteFunctions) {
	return await execute.call(recording(this, probes));
};
const engine = useEngine(
	{ clock: 'manual', renderMs: 60_000 },
	{
		binaryMode: 'filesystem',
		extraNodeTypes: { 'n8n-nodes-visionstory.visionStory': node },
	},
);
let avatarId: string;

beforeAll(async () => {
	avatarId = await firstPublicAvatarId(engine.emu);
	Error.stackTraceLimit = Infinity;
});

/** The file of the HTTP channel the n8n adapter hands the API client. */
const CHANNEL = 'nodes/shared/n8n/client.ts';

/** How far in a file sits: the node's router, its operations, then the shared layers from framework to api. */
function depthOf(file: string): number {
	if (file === 'nodes/VisionStory/actions/router.ts') return 0;
	if (file.startsWith('nodes/VisionStory/')) return 1;
	if (file.startsWith('nodes/shared/api/')) return 4;
	if (file.startsWith('nodes/shared/n8n/')) return 3;
	return 2;
}

/**
 * The calls back up, each once: a call from a file into one further out (an object an outer layer
 * handed down). Allowed only into what the n8n adapter hands down for HTTP: the channel's send, and
 * the binary streams a request body reads as the channel sends it.
 */
const HANDED_DOWN = new Set([
	'nodes/shared/api/transport.ts → nodes/shared/n8n/client.ts',
	'nodes/shared/api/mediaBody.ts → nodes/shared/n8n/binary.ts',
]);
function callsBackUp(): string[] {
	const edges = probes.flatMap((p) =>
		p.files.slice(1).flatMap((callee, i) => {
			const caller = p.files[i];
			return depthOf(callee) < depthOf(caller) ? [`${caller} → ${callee}`] : [];
		}),
	);
	return [...new Set(edges)].sort();
}

/** The walk's figures, as docs/architecture.md states them. */
function figures(name: string, entered: string[]) {
	const http = probes.filter((p) => p.call.startsWith('helpers.httpRequest'));
	// A file appearing twice on one stack with another file between: a call back into a file already left.
	const returns = probes.filter((p) => new Set(p.files).size !== p.files.length);
	const deepest = probes.reduce((a, b) => (b.files.length > a.files.length ? b : a));
	const longestHttp = http.reduce((a, b) => (b.files.length > a.files.length ? b : a));
	const upward = callsBackUp();
	console.log(
		[
			`${name}: ${probes.length} calls into n8n, ${http.length} of them HTTP`,
			`files on the deepest stack: ${deepest.files.length} (at ${deepest.call}): ${deepest.files.join(' → ')}`,
			`files on the longest path to an HTTP call: ${longestHttp.files.length}: ${longestHttp.files.join(' → ')}`,
			`files entered over the whole run: ${entered.length}: ${entered.join(', ')}`,
			`stacks re-entering a file already on them: ${returns.length}`,
			`calls back up into a file further out (each once): ${upward.length}: ${upward.join('; ')}`,
		].join('\n'),
	);
	return { http, returns, deepest, longestHttp, upward };
}

beforeEach(() => {
	probes.length = 0;
});

test('Talking Video → Create with waiting (text script): no call back into a file already left, and the figures', async () => {
	const workflow = oneNode('talkingVideo', {
		operation: 'create',
		avatarId: byId(avatarId),
		text: 'Our spring sale starts today!',
		voiceId: byId('Alice'),
		waitForCompletion: true,
		downloadResult: true,
	});
	const { result, files } = await filesEntered(() => engine.run(workflow, [{}, {}]));
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)).toHaveLength(2);
	expect(result.output(NODE)[0].binary?.data).toBeDefined();

	const { http, returns, deepest, longestHttp } = figures(
		'Talking Video → Create (text, waiting)',
		files,
	);
	// Both creates, status reads and both downloads went through n8n's request helpers.
	expect(http.length).toBeGreaterThanOrEqual(4);
	expect(returns.map((p) => `${p.call}: ${p.files.join(' → ')}`)).toEqual([]);
	// The node's `execute` is its router over the one list of operations: every path starts there.
	expect(longestHttp.files.slice(0, 2)).toEqual([
		'nodes/VisionStory/actions/router.ts',
		'nodes/VisionStory/actions/talkingVideo/create.operation.ts',
	]);
	expect(longestHttp.files.at(-1)).toBe(CHANNEL);
	// router, create, videoTasks, taskRun, taskCreate or taskReads, spendingClient, client, transport, n8n/client.
	expect(deepest.files.length).toBeLessThanOrEqual(9);
	// Only the talking-video create of the node's thirty operation files runs.
	expect(files.filter((f) => f.endsWith('.operation.ts'))).toEqual([
		'nodes/VisionStory/actions/talkingVideo/create.operation.ts',
	]);
	expect(files).toEqual(expect.arrayContaining(['nodes/shared/api/taskRun.ts', CHANNEL]));
});

test('Talking Video → Create with waiting (audio script from binary): the binary-audio path, no call back into a file already left', async () => {
	const workflow = JSON.parse(
		readFileSync(join(__dirname, '../workflows/talking-video-audio.json'), 'utf8'),
	) as WorkflowJson;
	const create = workflow.nodes.find((n) => n.name === 'Create From Recording')!;
	create.type = 'n8n-nodes-visionstory.visionStory';
	Object.assign(create.parameters, { waitForCompletion: true, downloadResult: true });
	const { result, files } = await filesEntered(() => engine.run(workflow, [{ avatarId }]));
	expect(result.error).toBeUndefined();
	expect(result.output('Create From Recording')[0].binary?.data).toBeDefined();

	const { returns, upward } = figures('Talking Video → Create (audio from binary, waiting)', files);
	expect(returns.map((p) => `${p.call}: ${p.files.join(' → ')}`)).toEqual([]);
	expect(upward.filter((edge) => !HANDED_DOWN.has(edge))).toEqual([]);
	// The recording is read from n8n's binary store (n8n/binary.ts) and sent inline (api/mediaBody.ts).
	expect(probes.some((p) => p.call.startsWith('helpers.getBinary'))).toBe(true);
	expect(files).toEqual(
		expect.arrayContaining([
			'nodes/shared/n8n/binary.ts',
			'nodes/shared/api/mediaBody.ts',
			'nodes/shared/framework/mediaParams.ts',
		]),
	);
});
