import type { HttpMethod } from './contract';

/** A readable byte stream (a Node.js Readable in both channels). */
export type ByteStream = NodeJS.ReadableStream & AsyncIterable<Uint8Array | string>;

/** A JSON body too large to hold in memory, opened once per attempt, with its length known up front. */
export interface StreamedBody {
	length: number;
	open(): Promise<ByteStream | Buffer>;
}

export interface HttpRequest {
	method: HttpMethod;
	url: string;
	query?: Record<string, string>;
	/** JSON-serialisable value, or JSON text already serialised; sent as application/json. */
	body?: unknown;
	/** A JSON body too large to hold in memory, streamed instead of `body`. */
	stream?: StreamedBody;
	timeoutMs: number;
	/** `json`: the body parsed; `stream`: the raw body as a stream, for files. */
	response: 'json' | 'stream';
	/** Attach the API key. The exchange asks for it only for the API's own origin. */
	withApiKey: boolean;
	followRedirects: boolean;
	signal?: AbortSignal;
}

export interface HttpResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON (or text when not JSON) for `json`, a ByteStream for `stream`. */
	body: unknown;
}

/** The raw HTTP layer: n8n's request helpers in the nodes, undici in scripts and tests. */
export interface HttpChannel {
	/** Resolves for every HTTP status; rejects with NetworkError when there is no answer. */
	send(request: HttpRequest): Promise<HttpResponse>;
}

/** Error codes meaning the request never left this machine, so resending cannot double anything. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'UND_ERR_CONNECT_TIMEOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** No answer came: what a channel throws, with the code that tells whether the request left. */
export class NetworkError extends Error {
	readonly code: string;
	readonly aborted: boolean;

	constructor(code: string, message: string, aborted = false) {
		super(message);
		this.name = 'NetworkError';
		this.code = code;
		this.aborted = aborted;
	}

	get mayHaveReachedService(): boolean {
		return !NOT_SENT_CODES.has(this.code);
	}
}

/** A file the service serves (video, image, audio), as a stream. */
export interface Download {
	stream: ByteStream;
	mimeType?: string;
	fileName?: string;
	contentLength?: number;
}
