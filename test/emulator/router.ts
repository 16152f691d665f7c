import { ApiError, invalid } from './errors';
import type { Account, EmulatorState } from './state';
import { isObject, type Json } from './validation';

export interface RouteContext {
	state: EmulatorState;
	account: Account;
	query: URLSearchParams;
	/** Parsed JSON body; undefined when the request had none. */
	body: unknown;
	now: number;
}

export type Reply =
	| { kind: 'json'; status: number; data: unknown }
	| { kind: 'binary'; status: number; headers: Record<string, string>; body: Buffer };

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

export interface Route {
	method: 'GET' | 'POST' | 'DELETE';
	path: string;
	handler: Handler;
}

export function ok(data: unknown, status = 200): Reply {
	return { kind: 'json', status, data };
}

export function jsonBody(ctx: RouteContext): Json {
	if (!isObject(ctx.body)) throw invalid({ body: 'must be a JSON object' });
	return ctx.body;
}

export type Match = { route: Route } | { allowed: string[] } | undefined;

export class Router {
	private byPath = new Map<string, Route[]>();

	constructor(routes: Route[]) {
		for (const r of routes) this.byPath.set(r.path, [...(this.byPath.get(r.path) ?? []), r]);
	}

	match(method: string, path: string): Match {
		const candidates = this.byPath.get(path.replace(/\/+$/, '') || '/');
		if (!candidates) return undefined;
		const route = candidates.find((r) => r.method === method);
		return route ? { route } : { allowed: candidates.map((r) => r.method) };
	}
}

export function routeNotFound(method: string, path: string): ApiError {
	return new ApiError(404, 404, `No such endpoint: ${method} ${path}`);
}

export function methodNotAllowed(method: string, path: string, allowed: string[]): ApiError {
	return new ApiError(405, 405, `${method} is not supported on ${path}`, {
		headers: { Allow: allowed.join(', ') },
	});
}
