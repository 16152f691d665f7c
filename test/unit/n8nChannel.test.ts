import { N8nChannel } from '../../packages/n8n-nodes-visionstory/nodes/shared/n8n/client';
import type { RequestContext } from '../../packages/n8n-nodes-visionstory/nodes/shared/n8n/client';
import { NetworkError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';

/**
 * n8n is asked never to throw for an HTTP status, but should it wrap an answer in an error anyway
 * (an axios error inside a NodeApiError), the answer still reaches the one error parser: its status,
 * response headers and body, never the request (which holds the key).
 */

const KEY = 'sk-vs-channel-test-000000';

function channelThrowing(error: unknown): N8nChannel {
	const context = {
		helpers: {
			httpRequestWithAuthentication: async () => {
				throw error;
			},
		},
	} as unknown as RequestContext;
	return new N8nChannel(context);
}

const request = {
	method: 'GET' as const,
	url: 'https://openapi.visionstory.ai/api/v1/billing/credits',
	timeoutMs: 1000,
	response: 'json' as const,
	withApiKey: true,
	followRedirects: false,
};

test('an answer inside a thrown error (NodeApiError → axios error) is returned as the answer', async () => {
	const axiosError = {
		message: 'Request failed with status code 502',
		config: { headers: { 'x-api-key': KEY } },
		response: {
			status: 502,
			headers: { 'Content-Type': 'text/html' },
			data: '<html><title>502 Bad Gateway</title></html>',
		},
	};
	const nodeApiError = Object.assign(new Error('Bad gateway'), { cause: axiosError });
	const answer = await channelThrowing(nodeApiError).send(request);
	expect(answer).toEqual({
		status: 502,
		headers: { 'content-type': 'text/html' },
		body: '<html><title>502 Bad Gateway</title></html>',
	});
	expect(JSON.stringify(answer)).not.toContain(KEY);
});

test('no answer: a NetworkError with the code only', async () => {
	const reset = Object.assign(
		new Error(`socket hang up calling https://openapi.visionstory.ai with ${KEY}`),
		{ code: 'ECONNRESET' },
	);
	const failure = await channelThrowing(Object.assign(new Error('wrapped'), { cause: reset }))
		.send(request)
		.catch((e: unknown) => e);
	expect(failure).toBeInstanceOf(NetworkError);
	expect(failure).toMatchObject({ code: 'ECONNRESET' });
});
