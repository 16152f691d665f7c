import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import type { Emulator, EmulatorOptions } from '../emulator';
import { startEmulator } from '../emulator';
import type { Harness, HarnessOptions, RunOptions, RunResult, WorkflowJson } from '../harness';
import { createHarness } from '../harness';
import { virtualClock } from './virtualTime';

export const TRIGGER = 'When clicking ‘Execute workflow’';

export interface EngineContext {
	emu: Emulator;
	harness: Harness;
	credentials: NonNullable<RunOptions['credentials']>;
	/** Runs a workflow (file or object); `items` become the manual trigger's output (pinned, as in the editor). */
	run(
		workflow: string | WorkflowJson,
		items?: Array<Record<string, unknown>>,
		options?: RunOptions,
	): Promise<RunResult>;
}

/** An emulator and an engine harness for one test file, torn down after it; a manual clock is driven by virtual time. */
export function useEngine(
	emulatorOptions: EmulatorOptions = {},
	harnessOptions: HarnessOptions = {},
): EngineContext {
	const context = {} as EngineContext;
	beforeAll(async () => {
		context.emu = await startEmulator(emulatorOptions);
		// A manual emulator clock follows the virtual sleeps of files that mock n8n-workflow's sleep.
		if (emulatorOptions.clock === 'manual') virtualClock.target = context.emu;
		context.harness = await createHarness(harnessOptions);
		context.credentials = {
			visionStoryApi: { apiKey: context.emu.apiKey, baseUrl: context.emu.baseUrl },
		};
		context.run = async (file, items, options = {}) => {
			const pinned: INodeExecutionData[] = (items ?? [{}]).map((json) => ({
				json: { mediaBase: context.emu.mediaBaseUrl, ...json } as never,
			}));
			const result = await context.harness.run(file, {
				credentials: context.credentials,
				...options,
				pinData: { [TRIGGER]: pinned, ...options.pinData },
			});
			expectPairedItems(file, result);
			return result;
		};
	});
	afterAll(async () => {
		await context.harness?.shutdown();
		await context.emu?.stop();
	});
	return context;
}

/** Every item a VisionStory node outputs, on any output, must say which input item it came from (n8n's item linking). */
function expectPairedItems(file: string | WorkflowJson, result: RunResult): void {
	const workflow =
		typeof file === 'string'
			? (JSON.parse(readFileSync(join(__dirname, '../..', file), 'utf8')) as WorkflowJson)
			: file;
	for (const node of workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-visionstory.'))) {
		for (const run of result.runData[node.name] ?? []) {
			for (const item of (run.data?.main ?? []).flatMap((output) => output ?? [])) {
				if (item.pairedItem === undefined)
					throw new Error(`${node.name} output an item without pairedItem`);
			}
		}
	}
}
