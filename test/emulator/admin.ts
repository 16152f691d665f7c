import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Controller } from './controller';
import { readBody, sendJson } from './http';
import { isObject } from './validation';

type AdminHandler = (
	c: Controller,
	q: URLSearchParams,
	body: unknown,
	account: string | undefined,
) => unknown;

function filterOf(q: URLSearchParams): {
	origin?: 'api' | 'media';
	method?: string;
	path?: string;
} {
	const origin = q.get('origin');
	return {
		...(origin === 'api' || origin === 'media' ? { origin } : {}),
		...(q.get('method') ? { method: q.get('method') as string } : {}),
		...(q.get('path') ? { path: q.get('path') as string } : {}),
	};
}

function objectBody(body: unknown): Record<string, unknown> {
	if (!isObject(body)) throw new Error('the body must be a JSON object');
	return body;
}

/** `METHOD path` → handler. Account-scoped reads take ?account=<id> or an X-API-Key header. */
const ENDPOINTS: Record<string, AdminHandler> = {
	'GET /__emulator/ledger': (c, _q, _b, account) => ({ entries: c.ledger(account) }),
	'GET /__emulator/balance': (c, _q, _b, account) => {
		if (!account) throw new Error('name the account with ?account=<id> or an X-API-Key header');
		return { account, balance: c.balance(account) };
	},
	'GET /__emulator/requests': (c, q) => ({ entries: c.requests(filterOf(q)) }),
	'DELETE /__emulator/requests': (c) => (c.clearLog(), { cleared: true }),
	'GET /__emulator/tasks': (c, _q, _b, account) => ({ tasks: c.tasks(account) }),
	'GET /__emulator/faults': (c) => c.faults(),
	'POST /__emulator/faults': (c, _q, b) => (c.setFaults(objectBody(b)), c.faults()),
	'DELETE /__emulator/faults': (c) => (c.clearFaults(), c.faults()),
	'GET /__emulator/config': (c) => c.config(),
	'POST /__emulator/config': (c, _q, b) => (c.setConfig(objectBody(b)), c.config()),
	'POST /__emulator/reset': (c) => (c.reset(), { reset: true }),
	'GET /__emulator/clock': (c) => ({ now: c.now(), mode: c.state.clock.mode }),
	'POST /__emulator/clock/advance': (c, _q, b) => {
		const ms = objectBody(b).ms;
		if (typeof ms !== 'number') throw new Error('body must be { "ms": <number> }');
		c.advance(ms);
		return { now: c.now() };
	},
	'POST /__emulator/accounts': (c, _q, b) => {
		const { apiKey, credits } = objectBody(b);
		return { account: c.addAccount(apiKey as string, credits as number) };
	},
};

/** Plain JSON (no envelope), no auth: these are the test's controls, not part of the emulated API. */
export function createAdminHandler(
	controller: Controller,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
	return async (req, res, url) => {
		const key = `${(req.method ?? 'GET').toUpperCase()} ${url.pathname.replace(/\/+$/, '')}`;
		const handler = ENDPOINTS[key];
		const received = await readBody(req);
		if (url.pathname.replace(/\/+$/, '') === '/__emulator') {
			sendJson(res, 200, { endpoints: Object.keys(ENDPOINTS) });
			return;
		}
		if (!handler) {
			sendJson(res, 404, {
				error: `no emulator endpoint ${key}`,
				endpoints: Object.keys(ENDPOINTS),
			});
			return;
		}
		try {
			const body =
				received.bytes.length > 0 ? JSON.parse(received.bytes.toString('utf8')) : undefined;
			const header = req.headers['x-api-key'];
			const viaKey = typeof header === 'string' ? controller.accountId(header) : undefined;
			if (typeof header === 'string' && viaKey === undefined)
				throw new Error('the X-API-Key header names no account');
			const account = url.searchParams.get('account') ?? viaKey;
			sendJson(res, 200, handler(controller, url.searchParams, body, account));
		} catch (err) {
			sendJson(res, 400, { error: (err as Error).message });
		}
	};
}
