/**
 * The suite's own HTTP to the servers it starts on loopback (n8n's REST and public APIs, its
 * webhooks, Node-RED's admin API): one function, so no call site can lose the race below.
 *
 * A kept-alive connection is closed by the server on its own clock (n8n and Node-RED after 5 s
 * idle); on a loaded machine the client can write its next request into a socket the server is
 * closing, and the call fails with "other side closed" though the server is fine. So every call
 * gets a connection of its own (`reset`: `connection: close`, nothing kept idle; a loopback connect
 * costs well under a millisecond), and a GET or HEAD whose connection is lost before the answer is
 * sent again, since reading twice is harmless. Other methods are never sent again: the server may
 * have acted on them.
 */
import { Agent, fetch, type Dispatcher, type RequestInit, type Response } from 'undici';

const RESENDS = 2;
const RESEND_PAUSE_MS = 100;

/** Errors that mean the connection went away before an answer came, the server still there. */
const LOST_CONNECTION = new Set([
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'ECONNRESET',
	'EPIPE',
	'ECONNABORTED',
]);

/** The connections behind suiteFetch (its stats tell a test when a call has released its socket). */
export const suiteAgent = new Agent();
const freshConnections: Dispatcher = suiteAgent.compose(
	(dispatch) => (options, handler) => dispatch({ ...options, reset: true }, handler),
);

export function lostConnection(error: unknown): boolean {
	for (let e = error; e instanceof Error; e = e.cause) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code && LOST_CONNECTION.has(code)) return true;
	}
	return false;
}

function isRead(init: RequestInit | undefined): boolean {
	const method = (init?.method ?? 'GET').toUpperCase();
	return method === 'GET' || method === 'HEAD';
}

export async function suiteFetch(url: string | URL, init?: RequestInit): Promise<Response> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await fetch(url, { ...init, dispatcher: freshConnections });
		} catch (error) {
			if (!isRead(init) || attempt >= RESENDS || !lostConnection(error)) throw error;
			await new Promise((resolve) => setTimeout(resolve, RESEND_PAUSE_MS));
		}
	}
}
