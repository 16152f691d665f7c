import type { ICredentialType } from 'n8n-workflow';

import type { BinaryStore } from './binary-data';
import type { HarnessNodeTypes } from './node-types';

/** What one harness hands each operation: its node and credential types and its binary store. */
export interface EngineContext {
	nodeTypes: HarnessNodeTypes;
	credentialTypes: Record<string, ICredentialType>;
	binaryStore: BinaryStore;
}
