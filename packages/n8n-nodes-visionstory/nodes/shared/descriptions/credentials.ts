import type { INodeCredentialDescription } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../n8n/client';

/** The credential every VisionStory node uses. */
export const credentials: INodeCredentialDescription[] = [
	{ name: CREDENTIAL_TYPE, required: true },
];
