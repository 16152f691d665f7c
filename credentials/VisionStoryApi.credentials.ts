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

	icon: Icon = { light: 'file:../icons/visionstory.svg', dark: 'file:../icons/visionstory.dark.svg' };

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
			description: 'Leave as is unless VisionStory support gave you another address',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-Key': '={{$credentials.apiKey}}',
			},
		},
	};

	// The credit balance is free to read, so testing the credential never costs anything.
	test: ICredentialTestRequest = {
		request: {
			// The same fallback as the nodes: a cleared Base URL means the production address.
			baseURL: '={{ String($credentials.baseUrl || "").trim().replace(/\\/+$/, "") || "https://openapi.visionstory.ai" }}',
			url: '/api/v1/billing/credits',
			method: 'GET',
		},
	};
}
