// The in-process n8n engine harness: see harness.ts for the entry point and types.ts for the API.
export { createHarness } from './harness';
export type {
	CredentialTestResult,
	EditorCall,
	EditorSearchCall,
	Harness,
	HarnessOptions,
	PollOptions,
	PollResult,
	RunOptions,
	RunResult,
	VisionStoryApiCredentialData,
	WorkflowJson,
} from './types';
