import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

export class VisionStoryApi implements ICredentialType {
	name = 'visionStoryApi';

	displayName = 'VisionStory API';

	icon: Icon = {
		light: 'file:../icons/visionstory.svg',
		dark: 'file:../icons/visionstory.dark.svg',
	};

	documentationUrl = 'https://github.com/visionstory-ai/n8n-nodes-visionstory#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'sk-vs-...',
			description:
				'Create a key on the API Keys page of your VisionStory account (Pro plan or higher)',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://openapi.visionstory.ai',
			description:
				'Leave as is unless VisionStory support gave you another address. Must start with https:// (http:// only for localhost, 127.0.0.1 or ::1): the key must not travel in clear text.',
		},
		{
			displayName: 'Max Credits per Execution',
			name: 'maxCreditsPerExecution',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description:
				"The default spend cap of every VisionStory node using this credential: a call that would take one execution's spend past this many credits is refused before it is sent, with nothing charged. A node's own Options → Max Credits per Execution overrides it; 0 means no cap.",
		},
		{
			displayName: 'Keep at Least N Credits',
			name: 'keepAtLeastCredits',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description:
				"A limit across every execution, AI agent and MCP tool call using this credential: before each charged call the account balance is read (free), and a call that could take it below this many credits is refused, with nothing charged. Calls under way in the same n8n process count as spent; workers of a queue-mode setup see only each other's finished calls. 0 means no limit.",
		},
	];

	// Trimmed, as VisionStory trims it and as the nodes name the account by it: a key pasted with a
	// space is the same key, for the credential's test too.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-Key': '={{ String($credentials.apiKey).trim() }}',
			},
		},
	};

	// The credit balance is free to read, so testing the credential never costs anything.
	test: ICredentialTestRequest = {
		request: {
			// The same fallback as the nodes: a cleared Base URL means the production address. An http://
			// Base URL off loopback, which the nodes refuse, is sent nowhere: the test goes to a name that
			// never resolves (.invalid, RFC 2606) and says why, so the key never travels in clear text.
			baseURL:
				'={{ /^http:\\/\\/(?!(localhost|127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|\\[::1\\])(:\\d+)?(\\/|$))/i.test(String($credentials.baseUrl || "").trim()) ? "https://base-url-must-start-with-https.invalid" : String($credentials.baseUrl || "").trim().replace(/\\/+$/, "") || "https://openapi.visionstory.ai" }}',
			url: '/api/v1/billing/credits',
			method: 'GET',
			// A redirect would carry the X-API-Key header to wherever it points.
			disableFollowRedirect: true,
		},
	};
}
