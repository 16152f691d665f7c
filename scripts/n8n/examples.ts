/**
 * The example workflows as the real-n8n runs import them, and the one credential they all name.
 * Only what a user is told to change is changed: the callback URL, and (for 1.x tests only) the
 * trigger's Poll Times.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { repoRoot } from './installSteps';

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, any>;
		credentials?: Record<string, { id: string; name: string }>;
	}>;
	[key: string]: unknown;
}

export const CALLBACK_PLACEHOLDER = 'https://example.com/visionstory-callback';

/** Examples keyed by file name without `.json`. */
export function loadExamples(): Record<string, WorkflowJson> {
	const dir = join(repoRoot(), 'examples');
	const examples: Record<string, WorkflowJson> = {};
	for (const file of readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()) {
		examples[basename(file, '.json')] = JSON.parse(
			readFileSync(join(dir, file), 'utf8'),
		) as WorkflowJson;
	}
	return examples;
}

/** The credential the examples reference (they must all reference the same one). */
export function exampleCredentialRef(examples: Record<string, WorkflowJson>): {
	id: string;
	name: string;
} {
	const refs = new Map<string, { id: string; name: string }>();
	for (const workflow of Object.values(examples)) {
		for (const node of workflow.nodes) {
			const ref = node.credentials?.visionStoryApi;
			if (ref) refs.set(ref.id, ref);
		}
	}
	if (refs.size !== 1)
		throw new Error(
			`the examples should share one visionStoryApi credential, found ${[...refs.keys()].join(', ') || 'none'}`,
		);
	return [...refs.values()][0];
}

export function visionStoryCredential(
	ref: { id: string; name: string },
	apiKey: string,
	baseUrl: string,
): Record<string, unknown> {
	return { id: ref.id, name: ref.name, type: 'visionStoryApi', data: { apiKey, baseUrl } };
}

export interface PrepareOptions {
	callbackUrl?: string;
	/** A custom Poll Times cron for the trigger (n8n 1.x accepts one with seconds). */
	pollCron?: string;
}

export function prepareExample(workflow: WorkflowJson, options: PrepareOptions): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		const url = node.parameters.url;
		// Test fixtures add a path after the placeholder to tell their callbacks apart.
		if (options.callbackUrl && typeof url === 'string' && url.startsWith(CALLBACK_PLACEHOLDER))
			node.parameters.url = options.callbackUrl + url.slice(CALLBACK_PLACEHOLDER.length);
		if (options.pollCron && node.type.endsWith('.visionStoryTrigger')) {
			node.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: options.pollCron }] };
		}
	}
	return copy;
}
