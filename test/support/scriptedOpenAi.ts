/**
 * An OpenAI-compatible chat completions server on loopback that plays a script instead of a model:
 * n8n's OpenAI Chat Model (its credential's Base URL pointed here) gets tool calls the test decides,
 * and every request n8n sent (the tool schemas, the tool results the "model" got back) is kept for
 * the test to assert. Answers plain JSON, or server-sent events when the request asks to stream.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: 'function';
	function: {
		name: string;
		description?: string;
		parameters?: {
			type?: string;
			properties?: Record<string, { type?: string; description?: string }>;
			required?: string[];
		};
	};
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
}

export interface ToolCall {
	name: string;
	args: Record<string, unknown>;
}

/** The next turn of the "model": tool calls to make, or the final answer. */
export type Reply = { toolCalls: ToolCall[] } | { content: string };

/** Decides the next turn from the conversation so far. */
export type Script = (request: ChatRequest) => Reply;

export interface ScriptedOpenAi {
	/** The credential's Base URL: `http://127.0.0.1:<port>/v1`. */
	baseUrl: string;
	requests: ChatRequest[];
	script: Script;
	stop(): Promise<void>;
}

/** The text of a message's content, whichever form n8n sent it in. */
export function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/** The tool results the conversation holds, oldest first, by the name of the tool that was called. */
export function toolResults(request: ChatRequest): Array<{ name: string; content: string }> {
	const names = new Map<string, string>();
	for (const message of request.messages)
		for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
	return request.messages
		.filter((m) => m.role === 'tool')
		.map((m) => ({ name: names.get(m.tool_call_id ?? '') ?? '?', content: textOf(m) }));
}

/** A string field's first value anywhere in a tool result (`"video_id":"vid_…"`). */
export function fieldIn(content: string, field: string): string | undefined {
	return new RegExp(`\\\\?"${field}\\\\?":\\s*\\\\?"([^"\\\\]+)`).exec(content)?.[1];
}

let callSeq = 0;

function completion(request: ChatRequest, reply: Reply) {
	const message =
		'toolCalls' in reply
			? {
					role: 'assistant',
					content: null,
					tool_calls: reply.toolCalls.map((call) => ({
						id: `call_${++callSeq}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.args) },
					})),
				}
			: { role: 'assistant', content: reply.content };
	return {
		id: `chatcmpl-${callSeq}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model,
		choices: [{ index: 0, message, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

function stream(response: ServerResponse, request: ChatRequest, reply: Reply): void {
	const body = completion(request, reply);
	const message = body.choices[0].message as {
		content?: string | null;
		tool_calls?: Array<Record<string, unknown>>;
	};
	const chunk = (delta: Record<string, unknown>, finish: string | null) =>
		`data: ${JSON.stringify({ id: body.id, object: 'chat.completion.chunk', created: body.created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	response.write(chunk({ role: 'assistant', content: message.content ?? '' }, null));
	if (message.tool_calls)
		response.write(
			chunk({ tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }, null),
		);
	response.write(chunk({}, body.choices[0].finish_reason));
	response.write(
		`data: ${JSON.stringify({ id: body.id, object: 'chat.completion.chunk', created: body.created, model: body.model, choices: [], usage: body.usage })}\n\n`,
	);
	response.end('data: [DONE]\n\n');
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export async function startScriptedOpenAi(
	script: Script = () => ({ content: 'Done.' }),
): Promise<ScriptedOpenAi> {
	const state = { requests: [] as ChatRequest[], script };
	const server: Server = createServer((req, res) => {
		void (async () => {
			const url = req.url ?? '';
			if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
				res
					.writeHead(404, { 'content-type': 'application/json' })
					.end(JSON.stringify({ error: { message: `not scripted: ${req.method} ${url}` } }));
				return;
			}
			try {
				const request = JSON.parse(await readBody(req)) as ChatRequest;
				state.requests.push(request);
				const reply = state.script(request);
				if (request.stream) stream(res, request, reply);
				else
					res
						.writeHead(200, { 'content-type': 'application/json' })
						.end(JSON.stringify(completion(request, reply)));
			} catch (error) {
				res
					.writeHead(500, { 'content-type': 'application/json' })
					.end(JSON.stringify({ error: { message: String(error) } }));
			}
		})();
	});
	// The model's client (n8n's OpenAI node) keeps sockets alive: leave closing them to it, as the
	// emulator does, or a loaded machine loses a turn to a socket closed under its request.
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		get requests() {
			return state.requests;
		},
		get script() {
			return state.script;
		},
		set script(next: Script) {
			state.script = next;
		},
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
