/**
 * The suite's HTTP to the servers it starts (scripts/suiteHttp.ts) against the failure seen on a
 * loaded machine: a server that answers with keep-alive and then closes that socket just as the
 * client writes its next request into it ("other side closed").
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { Agent, fetch } from 'undici';

import { suiteAgent, suiteFetch } from '../../scripts/suiteHttp';

interface TestServer {
	url: string;
	/** Requests the server received, answered or not, by method. */
	received: string[];
	server: Server;
}

/** `drop` decides, per request, whether the server destroys the socket instead of answering. */
async function startServer(
	drop: (req: IncomingMessage, onSocket: number, overall: number) => boolean,
): Promise<TestServer> {
	const received: string[] = [];
	const perSocket = new WeakMap<Socket, number>();
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		received.push(req.method ?? '?');
		const onSocket = (perSocket.get(req.socket) ?? 0) + 1;
		perSocket.set(req.socket, onSocket);
		if (drop(req, onSocket, received.length)) {
			req.socket.destroy();
			return;
		}
		res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' });
		res.end(`answer ${received.length}`);
	});
	// Far longer than the test: the server never closes an idle socket on its own clock here.
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}/`, received, server };
}

const servers: Server[] = [];
const agents: Agent[] = [];
afterEach(async () => {
	await Promise.all(agents.splice(0).map((agent) => agent.close()));
	for (const server of servers.splice(0)) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});

/**
 * Until the agent has released the last answer's socket: closed, or idle in its pool where a
 * keep-alive client would write the next request into it (no clock involved).
 */
async function untilReleased(agent: Agent, url: string): Promise<void> {
	const origin = new URL(url).origin;
	for (let turn = 0; turn < 10_000; turn++) {
		const pool = (
			agent.stats as Record<string, { connected: number; free: number; running: number }>
		)[origin];
		if (!pool || (pool.running === 0 && pool.connected === pool.free)) return;
		await new Promise((resolve) => setImmediate(resolve));
	}
	throw new Error(`the agent never released its socket to ${origin}`);
}

async function closesKeptAliveSockets(): Promise<TestServer> {
	// The first request on a socket is answered and the socket kept alive; a second one written into it is cut off.
	const started = await startServer((_req, onSocket) => onSocket > 1);
	servers.push(started.server);
	return started;
}

test('a client that keeps the connection alive fails as the suite did: the server cut its second request off', async () => {
	const { url } = await closesKeptAliveSockets();
	const keepAlive = new Agent({ keepAliveTimeout: 30_000 });
	agents.push(keepAlive);
	expect(await (await fetch(url, { dispatcher: keepAlive })).text()).toBe('answer 1');
	await untilReleased(keepAlive, url);
	expect(keepAlive.stats[new URL(url).origin]).toMatchObject({ connected: 1, free: 1 });
	const second = fetch(url, { dispatcher: keepAlive });
	await expect(second).rejects.toMatchObject({
		message: 'fetch failed',
		cause: expect.objectContaining({ code: 'UND_ERR_SOCKET', message: 'other side closed' }),
	});
});

test('suiteFetch gets every answer from that server: each call on a connection of its own', async () => {
	const { url, received } = await closesKeptAliveSockets();
	for (const method of ['GET', 'POST', 'GET', 'PUT', 'GET']) {
		const response = await suiteFetch(url, { method, body: method === 'GET' ? undefined : '{}' });
		expect(response.status).toBe(200);
		await response.text();
		await untilReleased(suiteAgent, url);
	}
	// Each sent once: nothing was lost, so nothing was sent again.
	expect(received).toEqual(['GET', 'POST', 'GET', 'PUT', 'GET']);
});

test('a read whose connection is lost before the answer is sent again and answered', async () => {
	const started = await startServer((_req, _onSocket, overall) => overall === 1);
	servers.push(started.server);
	const response = await suiteFetch(started.url);
	expect(await response.text()).toBe('answer 2');
	expect(started.received).toEqual(['GET', 'GET']);
});

test('a POST whose connection is lost is never sent again: the server may have acted on it', async () => {
	const started = await startServer((_req, _onSocket, overall) => overall === 1);
	servers.push(started.server);
	await expect(suiteFetch(started.url, { method: 'POST', body: '{}' })).rejects.toMatchObject({
		cause: expect.objectContaining({ code: 'UND_ERR_SOCKET' }),
	});
	expect(started.received).toEqual(['POST']);
});

test('a read the server keeps refusing to answer fails after a bounded number of sends', async () => {
	const started = await startServer(() => true);
	servers.push(started.server);
	await expect(suiteFetch(started.url)).rejects.toThrow('fetch failed');
	expect(started.received).toEqual(['GET', 'GET', 'GET']);
});
