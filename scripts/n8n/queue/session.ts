/**
 * A queue-mode n8n ready to use: the cluster started, the VisionStory credential and the workflows
 * imported through main's CLI (into the shared Postgres), the owner set up and an API key made.
 */
import {
	exampleCredentialRef,
	loadExamples,
	prepareExample,
	visionStoryCredential,
	type PrepareOptions,
	type WorkflowJson,
} from '../examples';
import { N8nRest } from '../rest';
import type { N8nLine } from '../versions';
import { QueueCluster, type QueueClusterOptions } from './cluster';

export interface QueueSessionOptions extends PrepareOptions {
	line: N8nLine;
	root: string;
	service: { apiKey: string; baseUrl: string };
	workers: QueueClusterOptions['workers'];
	/** Workflows imported beside the examples (test fixtures), keyed like the examples. */
	extraWorkflows?: Record<string, WorkflowJson>;
	env?: Record<string, string>;
	/** Changes a user could make in the editor (shorter waits for a test), applied before the import. */
	adjust?: (key: string, workflow: WorkflowJson) => void;
	log?: (line: string) => void;
}

export interface QueueSession {
	cluster: QueueCluster;
	rest: N8nRest;
	/** The examples and extra workflows as imported, keyed by name. */
	workflows: Record<string, WorkflowJson>;
}

export async function prepareQueueSession(options: QueueSessionOptions): Promise<QueueSession> {
	const cluster = await QueueCluster.create({
		line: options.line,
		root: options.root,
		workers: options.workers,
		env: options.env,
		log: options.log,
	});
	try {
		const source = loadExamples();
		const workflows = Object.fromEntries(
			Object.entries({ ...source, ...options.extraWorkflows }).map(([key, workflow]) => {
				const prepared = prepareExample(workflow, options);
				options.adjust?.(key, prepared);
				return [key, prepared];
			}),
		);
		await cluster.main.importCredentials([
			visionStoryCredential(
				exampleCredentialRef(source),
				options.service.apiKey,
				options.service.baseUrl,
			),
		]);
		await cluster.main.importWorkflows(Object.values(workflows));
		options.log?.(
			`credential and ${Object.keys(workflows).length} workflows imported into Postgres`,
		);
		await cluster.startProcesses();
		const rest = new N8nRest(cluster.main.baseUrl);
		await rest.setupOwner();
		await rest.createApiKey();
		return { cluster, rest, workflows };
	} catch (error) {
		await cluster.stop().catch(() => undefined);
		throw error;
	}
}
