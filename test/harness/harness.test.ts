import type { INode } from 'n8n-workflow';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { fixtureNodeTypes } from './fixtures';
import type { FakeApi } from './fixtures/api-server';
import { GOOD_KEY, startFakeApi } from './fixtures/api-server';
import type { Harness, WorkflowJson } from './index';
import { createHarness } from './index';
import { REPO_ROOT } from '../../scripts/paths';
import {
	loadPackageCredentialTypes,
	loadPackageNodeTypes,
	PACKAGE_ROOT,
	sourcePathOf,
} from './package';

const TRIGGER = 'When clicking ‘Execute workflow’';
const workflow = (name: string): string => path.join('test', 'workflows', `harness-${name}.json`);
const loadJson = (file: string): WorkflowJson =>
	JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as WorkflowJson;

let api: FakeApi;
let harness: Harness;

const credentials = (apiKey = GOOD_KEY) => ({ visionStoryApi: { apiKey, baseUrl: api.baseUrl } });
const creditRequests = () =>
	api.requests.filter((request) => request.path === '/api/v1/billing/credits');

beforeAll(async () => {
	api = await startFakeApi();
	harness = await createHarness({ extraNodeTypes: fixtureNodeTypes() });
});

afterAll(async () => {
	await harness.shutdown();
	await api.close();
});

beforeEach(() => {
	api.requests.length = 0;
	api.failNext(0);
});

describe('package loading', () => {
	test('maps the dist paths package.json lists to the TypeScript sources', () => {
		expect(sourcePathOf('dist/nodes/VisionStory/VisionStory.node.js')).toBe(
			path.join(PACKAGE_ROOT, 'nodes/VisionStory/VisionStory.node.ts'),
		);
	});

	test('loads each listed node from its source, under the community package type name', () => {
		const types = loadPackageNodeTypes({
			name: 'n8n-nodes-visionstory',
			dir: REPO_ROOT,
			n8n: {
				nodes: [
					'dist/test/harness/fixtures/Credits.node.js',
					'dist/test/harness/fixtures/PollCounter.node.js',
				],
			},
		});
		expect(Object.keys(types).sort()).toEqual([
			'n8n-nodes-visionstory.credits',
			'n8n-nodes-visionstory.pollCounter',
		]);
		expect(types['n8n-nodes-visionstory.credits'].description.displayName).toBe('Harness Credits');
	});

	test("loads the package's own credential from package.json", () => {
		const types = loadPackageCredentialTypes();
		expect(Object.keys(types)).toEqual(['visionStoryApi']);
		expect(types.visionStoryApi.authenticate).toMatchObject({
			properties: { headers: { 'X-API-Key': '={{ String($credentials.apiKey).trim() }}' } },
		});
	});

	test('names an unknown node type and the known ones', async () => {
		const result = await harness
			.run({
				...loadJson(workflow('credits')),
				nodes: [
					{
						parameters: {},
						type: 'n8n-nodes-base.nope',
						typeVersion: 1,
						position: [0, 0],
						id: 'x',
						name: 'Nope',
					},
				],
				connections: {},
			})
			.catch((error: Error) => error);
		expect(result).toBeInstanceOf(Error);
		expect((result as Error).message).toMatch(
			/Unknown node type "n8n-nodes-base\.nope".*n8n-nodes-base\.manualTrigger/,
		);
	});
});

describe('testCredential', () => {
	test('OK when the server accepts the key, which it received in X-API-Key', async () => {
		const result = await harness.testCredential('visionStoryApi', {
			apiKey: GOOD_KEY,
			baseUrl: api.baseUrl,
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(creditRequests()).toHaveLength(1);
		expect(creditRequests()[0].headers['x-api-key']).toBe(GOOD_KEY);
	});

	test('resolves the expressions of the test request against the credential data', async () => {
		// The credential's baseURL expression strips trailing slashes.
		const result = await harness.testCredential('visionStoryApi', {
			apiKey: GOOD_KEY,
			baseUrl: `${api.baseUrl}//`,
		});
		expect(result.status).toBe('OK');
		expect(api.requests.map((request) => request.path)).toEqual(['/api/v1/billing/credits']);
	});

	test('Error when the server answers 401 to a wrong key', async () => {
		const result = await harness.testCredential('visionStoryApi', {
			apiKey: 'sk-vs-wrong',
			baseUrl: api.baseUrl,
		});
		expect(result).toEqual({ status: 'Error', message: 'Unauthorized' });
		expect(creditRequests()[0].headers['x-api-key']).toBe('sk-vs-wrong');
	});

	test('Error naming the network failure when nothing listens', async () => {
		const result = await harness.testCredential('visionStoryApi', {
			apiKey: GOOD_KEY,
			baseUrl: 'http://127.0.0.1:9',
		});
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('run', () => {
	test('runs an exported workflow: authenticated request, then the Set stand-in evaluating expressions', async () => {
		const result = await harness.run(workflow('credits'), { credentials: credentials() });

		expect(result.error).toBeUndefined();
		expect(creditRequests()).toHaveLength(1);
		expect(creditRequests()[0].headers['x-api-key']).toBe(GOOD_KEY);
		expect(result.output('Get Credits')).toEqual([
			{ json: { credits: 1000, plan: 'pro' }, pairedItem: { item: 0 } },
		]);
		expect(result.output('Edit Fields')[0].json).toEqual({
			credits: 1000,
			plan: 'pro',
			doubled: 2000,
			// `$execution.mode` is `test` in a manual execution, as in the editor.
			summary: { label: 'Plan pro at test' },
		});
	});

	test('gives each run a fresh execution id unless one is passed', async () => {
		const first = await harness.run(workflow('credits'), { credentials: credentials() });
		const second = await harness.run(workflow('credits'), { credentials: credentials() });
		const again = await harness.run(workflow('credits'), {
			credentials: credentials(),
			executionId: first.executionId,
		});

		const seen = creditRequests().map((request) => request.headers['x-execution-id']);
		expect(seen).toEqual([first.executionId, second.executionId, first.executionId]);
		expect(first.executionId).not.toBe(second.executionId);
		expect(again.executionId).toBe(first.executionId);
	});

	test('a failing node fails the execution; output() explains, nodeError() returns the error', async () => {
		api.failNext(1);
		const result = await harness.run(workflow('credits'), { credentials: credentials() });

		// n8n's NodeApiError: a generic message for the status, the service's own message in the description.
		expect(result.error?.message).toBe('The service was not able to process your request');
		expect(result.nodeError('Get Credits')).toMatchObject({
			httpCode: '500',
			description: 'Internal error',
		});
		expect(() => result.output('Get Credits')).toThrow(/Node "Get Credits" failed/);
		expect(() => result.output('Edit Fields')).toThrow(
			/Node "Edit Fields" did not run\. Nodes that ran: .*Get Credits/,
		);
		expect(result.nodeError('Edit Fields')).toBeUndefined();
	});

	test('Retry On Fail re-runs the node within the same execution until it succeeds', async () => {
		api.failNext(1);
		const result = await harness.run(workflow('credits-retry'), {
			credentials: credentials(),
			executionId: 'exec-retry',
		});

		expect(result.error).toBeUndefined();
		expect(result.output('Get Credits')).toEqual([
			{ json: { credits: 1000, plan: 'pro' }, pairedItem: { item: 0 } },
		]);
		// Two attempts, one recorded run, both requests inside the same execution.
		expect(creditRequests().map((request) => request.headers['x-execution-id'])).toEqual([
			'exec-retry',
			'exec-retry',
		]);
		expect(result.runData['Get Credits']).toHaveLength(1);
	});

	test('Retry On Fail gives up after maxTries', async () => {
		api.failNext(5);
		const result = await harness.run(workflow('credits-retry'), { credentials: credentials() });

		expect(creditRequests()).toHaveLength(3);
		expect(result.nodeError('Get Credits')).toMatchObject({ httpCode: '500' });
	});

	test('"On Error: Continue" turns the failure into an output item and the workflow goes on', async () => {
		const result = await harness.run(workflow('credits-continue'), {
			credentials: credentials('sk-vs-wrong'),
		});

		expect(result.error).toBeUndefined();
		const [item] = result.output('Get Credits');
		expect(item.json.error).toMatch(/Authorization failed|401|Invalid API key/i);
		expect(result.output('After Error')).toEqual([expect.objectContaining({ json: item.json })]);
	});

	test('Always Output Data gives the next node one empty item when a node outputs none', async () => {
		const continueWorkflow = loadJson(workflow('credits-continue'));
		const pinData = { 'Get Credits': [] };
		const without = await harness.run(continueWorkflow, { credentials: credentials(), pinData });
		expect(() => without.output('After Error')).toThrow(/did not run/);

		continueWorkflow.nodes.find((node) => node.name === 'Get Credits')!.alwaysOutputData = true;
		const withSetting = await harness.run(continueWorkflow, {
			credentials: credentials(),
			pinData,
		});
		expect(withSetting.output('After Error')).toEqual([expect.objectContaining({ json: {} })]);
	});

	test('pinned data replaces a node run, as in a manual execution in the editor', async () => {
		const result = await harness.run(workflow('credits'), {
			credentials: credentials(),
			pinData: { 'Get Credits': [{ json: { credits: 5, plan: 'free' } }] },
		});

		expect(creditRequests()).toHaveLength(0);
		expect(result.output('Edit Fields')[0].json).toMatchObject({ credits: 5, doubled: 10 });
	});

	test('the HTTP Request stand-in reads files and JSON; the raw-mode Set reaches back to earlier nodes', async () => {
		const result = await harness.run(workflow('http-request'), {
			pinData: {
				[TRIGGER]: [
					{
						json: {
							fileUrl: `${api.baseUrl}/files/clip.mp4`,
							creditsUrl: `${api.baseUrl}/api/v1/billing/credits`,
							apiKey: GOOD_KEY,
						},
					},
				],
			},
		});

		expect(result.error).toBeUndefined();
		const video = result.output('Fetch File')[0].binary?.video;
		expect(video).toMatchObject({ fileName: 'result-clip.mp4', mimeType: 'video/mp4' });
		expect((await result.binary('Fetch File', 0, 'video')).equals(api.file)).toBe(true);
		expect(result.output('Fetch JSON')[0].json).toMatchObject({
			data: { credits: 1000, plan: 'pro' },
			message: 'success',
		});
		expect(result.output('Summarise')[0].json).toEqual({ credits: 1000, file: 'result-clip.mp4' });
	});
});

describe.each(['default', 'filesystem'] as const)('binary data in %s mode', (binaryMode) => {
	let binaryHarness: Harness;

	beforeAll(async () => {
		binaryHarness = await createHarness({ binaryMode, extraNodeTypes: fixtureNodeTypes() });
	});

	afterAll(async () => {
		await binaryHarness.shutdown();
	});

	test('a streamed download is stored and reads back byte for byte', async () => {
		const url = `${api.baseUrl}/files/clip.mp4`;
		const result = await binaryHarness.run(workflow('download'), {
			pinData: { [TRIGGER]: [{ json: { url } }] },
		});

		expect(result.error).toBeUndefined();
		const stored = result.output('Download')[0].binary?.video;
		expect(stored).toMatchObject({
			fileName: 'result-clip.mp4',
			mimeType: 'video/mp4',
			bytes: api.file.length,
		});
		if (binaryMode === 'filesystem') {
			expect(stored?.id).toMatch(/^filesystem-v2:/);
		} else {
			expect(stored?.id).toBeUndefined();
			expect(Buffer.from(stored?.data ?? '', 'base64').equals(api.file)).toBe(true);
		}
		expect((await result.binary('Download', 0, 'video')).equals(api.file)).toBe(true);
		// The media URL is not the API: no key goes there.
		const download = api.requests.find((request) => request.path === '/files/clip.mp4');
		expect(download?.headers['x-api-key']).toBeUndefined();
	});

	test('binary() names the properties an item has when asked for a missing one', async () => {
		const url = `${api.baseUrl}/files/clip.mp4`;
		const result = await binaryHarness.run(workflow('download'), {
			pinData: { [TRIGGER]: [{ json: { url } }] },
		});
		await expect(result.binary('Download', 0, 'data')).rejects.toThrow(
			/no binary property "data" \(it has: video\)/,
		);
	});
});

describe('binary data across harnesses', () => {
	test('harnesses with different binary modes can run at the same time, each storing its own way', async () => {
		const [memory, disk] = await Promise.all([
			createHarness({ binaryMode: 'default', extraNodeTypes: fixtureNodeTypes() }),
			createHarness({ binaryMode: 'filesystem', extraNodeTypes: fixtureNodeTypes() }),
		]);
		try {
			const pinData = { [TRIGGER]: [{ json: { url: `${api.baseUrl}/files/clip.mp4` } }] };
			const [inMemory, onDisk] = await Promise.all([
				memory.run(workflow('download'), { pinData }),
				disk.run(workflow('download'), { pinData }),
			]);
			expect(inMemory.output('Download')[0].binary?.video.id).toBeUndefined();
			expect(onDisk.output('Download')[0].binary?.video.id).toMatch(/^filesystem-v2:/);
			expect((await inMemory.binary('Download', 0, 'video')).equals(api.file)).toBe(true);
			expect((await onDisk.binary('Download', 0, 'video')).equals(api.file)).toBe(true);
		} finally {
			await Promise.all([memory.shutdown(), disk.shutdown()]);
		}
	});
});

describe('poll', () => {
	const trigger: INode = {
		id: 'poll-counter',
		name: 'Poll Counter',
		type: 'harness-fixtures.pollCounter',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { visionStoryApi: { id: 'hVsTestCred00001', name: 'VisionStory account' } },
	};

	test('static data persists across polls and across harness instances (an n8n restart)', async () => {
		const first = await createHarness({ extraNodeTypes: fixtureNodeTypes() });
		const activation = await first.poll(trigger, { credentials: credentials(), mode: 'trigger' });
		await first.shutdown();

		expect(activation).toEqual({ items: null, staticData: { polls: 1 }, globalStaticData: {} });
		expect(creditRequests()).toHaveLength(0);

		const second = await createHarness({ extraNodeTypes: fixtureNodeTypes() });
		try {
			const afterRestart = await second.poll(trigger, {
				credentials: credentials(),
				staticData: activation.staticData,
				activation: 'init',
			});
			expect(afterRestart.items).toEqual([
				[{ json: { polls: 2, activation: 'init', credits: 1000 } }],
			]);
			expect(afterRestart.staticData).toEqual({ polls: 2 });
			expect(creditRequests()[0].headers['x-api-key']).toBe(GOOD_KEY);
		} finally {
			await second.shutdown();
		}
		// The caller's object is never written to: the harness works on a copy.
		expect(activation.staticData).toEqual({ polls: 1 });
	});

	test('manual mode ("Fetch test event") runs the poll with activation "manual"', async () => {
		const result = await harness.poll(trigger, { credentials: credentials(), mode: 'manual' });
		expect(result.items).toEqual([[{ json: { polls: 1, activation: 'manual', credits: 1000 } }]]);
	});

	test('a polling trigger in a workflow runs once in a manual execution', async () => {
		const result = await harness.run(
			{ nodes: [trigger], connections: {} },
			{ credentials: credentials() },
		);
		expect(result.output('Poll Counter')).toEqual([
			expect.objectContaining({ json: { polls: 1, activation: 'manual', credits: 1000 } }),
		]);
	});
});

describe('environment', () => {
	test('N8N_USER_FOLDER points into a temporary folder while a harness is alive', () => {
		const userFolder = process.env.N8N_USER_FOLDER ?? '';
		expect(userFolder.startsWith(path.join(tmpdir(), 'n8n-harness-'))).toBe(true);
		expect(existsSync(userFolder)).toBe(true);
	});

	test('a process using every feature exits by itself after shutdown, leaving no temporary folder', async () => {
		// Its own process, because jest would hide a leftover timer or socket until the very end.
		const script = path.join(__dirname, 'fixtures', 'exit-check.ts');
		const { N8N_USER_FOLDER: _ours, ...env } = process.env;
		const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
			execFile(
				process.execPath,
				[require.resolve('tsx/cli'), script],
				{ cwd: REPO_ROOT, timeout: 60_000, env },
				(error, out, err) =>
					error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out }),
			);
		});
		expect(stdout).toContain('harness exit check: done');
	});
});
