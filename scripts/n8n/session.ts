/**
 * A real n8n ready to run the examples: installed (cached), a fresh user folder, the packed package
 * installed as a community package, the VisionStory credential and every example imported.
 */
import { join } from 'node:path';

import {
	exampleCredentialRef,
	loadExamples,
	prepareExample,
	visionStoryCredential,
	type PrepareOptions,
	type WorkflowJson,
} from './examples';
import { ensureN8n } from './install';
import { N8nInstance } from './instance';
import { installIntoUserFolder, packPackage } from './package';
import type { N8nLine } from './versions';

export interface SessionOptions extends PrepareOptions {
	line: N8nLine;
	userFolder: string;
	/** Where the credential points: the emulator or the real service. */
	service: { apiKey: string; baseUrl: string };
	port?: number;
	env?: Record<string, string>;
	log?: (line: string) => void;
}

export interface N8nSession {
	instance: N8nInstance;
	/** The examples as imported, keyed by file name. */
	examples: Record<string, WorkflowJson>;
	packageDir: string;
}

export async function prepareSession(options: SessionOptions): Promise<N8nSession> {
	const log = options.log ?? (() => undefined);
	const install = await ensureN8n(options.line, log);
	const instance = await N8nInstance.create({
		install,
		userFolder: options.userFolder,
		port: options.port,
		env: options.env,
	});
	const pkg = await packPackage(join(options.userFolder, 'pack'));
	const packageDir = await installIntoUserFolder(pkg, options.userFolder);
	log(
		`n8n ${options.line.n8n}: ${pkg.name}@${pkg.version} installed as a community package in ${packageDir}`,
	);
	const source = loadExamples();
	const examples = Object.fromEntries(
		Object.entries(source).map(([key, workflow]) => [key, prepareExample(workflow, options)]),
	);
	await instance.importCredentials([
		visionStoryCredential(
			exampleCredentialRef(source),
			options.service.apiKey,
			options.service.baseUrl,
		),
	]);
	await instance.importWorkflows(Object.values(examples));
	log(
		`n8n ${options.line.n8n}: credential and ${Object.keys(examples).length} example workflows imported`,
	);
	return { instance, examples, packageDir };
}
