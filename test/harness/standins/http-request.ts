import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

type ResponseFormat = 'autodetect' | 'json' | 'text' | 'file';

interface ResponseOptions {
	fullResponse?: boolean;
	neverError?: boolean;
	responseFormat?: ResponseFormat;
	outputPropertyName?: string;
}

interface NameValue {
	name: string;
	value: string;
}

/**
 * Stand-in for n8n's HTTP Request node, version 4.2, for what test workflows need: unauthenticated
 * GET requests with query and header parameters, the response read as JSON, text or a file (binary
 * under `outputPropertyName`, file name and MIME type taken from the response). Parameter names
 * and nesting (`options.response.response.responseFormat`) are the real node's, so workflows
 * exported from n8n run unchanged.
 */
export class HttpRequest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'HTTP Request',
		name: 'httpRequest',
		group: ['output'],
		version: [4, 4.1, 4.2],
		defaultVersion: 4.2,
		description: 'Makes an HTTP request and returns the response data',
		defaults: { name: 'HTTP Request' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{
				displayName: 'Method',
				name: 'method',
				type: 'options',
				options: [{ name: 'GET', value: 'GET' }],
				default: 'GET',
			},
			{ displayName: 'URL', name: 'url', type: 'string', default: '', required: true },
			{ displayName: 'Send Query Parameters', name: 'sendQuery', type: 'boolean', default: false },
			nameValueList('queryParameters', 'sendQuery'),
			{ displayName: 'Send Headers', name: 'sendHeaders', type: 'boolean', default: false },
			nameValueList('headerParameters', 'sendHeaders'),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Response',
						name: 'response',
						type: 'fixedCollection',
						default: { response: {} },
						options: [
							{
								displayName: 'Response',
								name: 'response',
								values: [
									{
										displayName: 'Include Response Headers and Status',
										name: 'fullResponse',
										type: 'boolean',
										default: false,
									},
									{
										displayName: 'Never Error',
										name: 'neverError',
										type: 'boolean',
										default: false,
									},
									{
										displayName: 'Response Format',
										name: 'responseFormat',
										type: 'options',
										options: [
											{ name: 'Autodetect', value: 'autodetect' },
											{ name: 'File', value: 'file' },
											{ name: 'JSON', value: 'json' },
											{ name: 'Text', value: 'text' },
										],
										default: 'autodetect',
									},
									{
										displayName: 'Put Output in Field',
										name: 'outputPropertyName',
										type: 'string',
										default: 'data',
									},
								],
							},
						],
					},
					{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 10000 },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			try {
				output.push(...(await requestItem(this, i)));
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				output.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [output];
	}
}

async function requestItem(context: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const method = context.getNodeParameter('method', i) as string;
	if (method !== 'GET') {
		throw new NodeOperationError(
			context.getNode(),
			`The HTTP Request stand-in only sends GET, not ${method}`,
		);
	}
	const options = context.getNodeParameter('options', i, {}) as {
		response?: { response?: ResponseOptions };
		timeout?: number;
	};
	const {
		fullResponse = false,
		neverError = false,
		responseFormat = 'autodetect',
		outputPropertyName = 'data',
	} = options.response?.response ?? {};
	const url = context.getNodeParameter('url', i) as string;

	let response: IN8nHttpFullResponse;
	try {
		response = (await context.helpers.httpRequest({
			method: 'GET',
			url,
			qs: nameValues(context, 'sendQuery', 'queryParameters', i),
			headers: nameValues(context, 'sendHeaders', 'headerParameters', i),
			// Bytes, always: the format decides afterwards how to read them, as the real node does.
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: neverError,
			timeout: options.timeout,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		throw new NodeApiError(context.getNode(), error as JsonObject, { itemIndex: i });
	}

	const body = Buffer.from(response.body as Buffer);
	const mimeType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	const format = responseFormat === 'autodetect' ? detectFormat(mimeType) : responseFormat;
	const pairedItem = { item: i };

	if (format === 'file') {
		const item: INodeExecutionData = {
			json: fullResponse ? responseMeta(response) : {},
			pairedItem,
		};
		const fileName = fileNameOf(response.headers['content-disposition'], url);
		item.binary = {
			[outputPropertyName]: await context.helpers.prepareBinaryData(
				body,
				fileName,
				mimeType || undefined,
			),
		};
		return [item];
	}
	if (format === 'text') {
		const text = body.toString('utf8');
		return [
			{
				json: fullResponse
					? { ...responseMeta(response), body: text }
					: { [outputPropertyName]: text },
				pairedItem,
			},
		];
	}
	const parsed: unknown = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
	if (fullResponse)
		return [{ json: { ...responseMeta(response), body: parsed as IDataObject }, pairedItem }];
	// An array answer becomes one item per element, an object one item.
	const entries = Array.isArray(parsed) ? parsed : [parsed];
	return entries.map((json) => ({ json: json as IDataObject, pairedItem }));
}

function detectFormat(mimeType: string): Exclude<ResponseFormat, 'autodetect'> {
	if (mimeType === 'application/json' || mimeType.endsWith('+json')) return 'json';
	if (mimeType.startsWith('text/')) return 'text';
	return 'file';
}

function responseMeta(response: IN8nHttpFullResponse): IDataObject {
	return {
		headers: response.headers,
		statusCode: response.statusCode,
		statusMessage: response.statusMessage,
	};
}

/** `Content-Disposition: attachment; filename="a.mp4"` wins; otherwise the URL's last path segment. */
function fileNameOf(disposition: unknown, url: string): string | undefined {
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(String(disposition ?? ''));
	if (match) return decodeURIComponent(match[1]);
	const last = new URL(url).pathname.split('/').pop();
	return last ? decodeURIComponent(last) : undefined;
}

function nameValues(
	context: IExecuteFunctions,
	toggle: string,
	list: string,
	i: number,
): IDataObject | undefined {
	if (!context.getNodeParameter(toggle, i, false)) return undefined;
	const { parameters = [] } = context.getNodeParameter(list, i, {}) as { parameters?: NameValue[] };
	return Object.fromEntries(parameters.map(({ name, value }) => [name, value]));
}

function nameValueList(name: string, toggle: string): INodeTypeDescription['properties'][number] {
	return {
		displayName: name === 'queryParameters' ? 'Query Parameters' : 'Header Parameters',
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		displayOptions: { show: { [toggle]: [true] } },
		default: { parameters: [{ name: '', value: '' }] },
		options: [
			{
				displayName: 'Parameter',
				name: 'parameters',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}
