/** The parts of Node-RED's runtime API these nodes use (typed here, so the package needs no @types). */
import type { Msg } from './context';

export type StatusFill = 'blue' | 'green' | 'yellow' | 'red' | 'grey';
export interface Status {
	fill?: StatusFill;
	shape?: 'dot' | 'ring';
	text?: string;
}

export interface ContextStore {
	get(
		key: string,
		store: string | undefined,
		callback: (error: Error | null, value: unknown) => void,
	): void;
	set(
		key: string,
		value: unknown,
		store: string | undefined,
		callback: (error: Error | null) => void,
	): void;
}

export interface Node {
	id: string;
	type: string;
	name?: string;
	credentials?: Record<string, string | undefined>;
	on(
		event: 'input',
		handler: (msg: Msg, send: (msgs: unknown) => void, done: (error?: Error) => void) => void,
	): void;
	on(event: 'close', handler: (removed: boolean, done: () => void) => void): void;
	send(msgs: unknown): void;
	status(status: Status | Record<string, never>): void;
	error(error: unknown, msg?: Msg): void;
	warn(message: unknown): void;
	log(message: unknown): void;
	context(): ContextStore;
}

export interface Request {
	params: Record<string, string>;
}
export interface Response {
	json(body: unknown): void;
	status(code: number): Response;
}

export interface RED {
	nodes: {
		createNode(node: object, config: object): void;
		registerType(
			type: string,
			constructor: unknown,
			options?: { credentials?: Record<string, { type: 'text' | 'password' }> },
		): void;
		getNode(id: string): unknown;
	};
	httpAdmin: {
		get(
			path: string,
			...handlers: Array<(req: Request, res: Response, next: () => void) => void>
		): void;
	};
	auth: {
		needsPermission(permission: string): (req: Request, res: Response, next: () => void) => void;
	};
	settings: { contextStorage?: Record<string, { module?: unknown } | string> };
	util: {
		setMessageProperty(msg: object, path: string, value: unknown, createMissing?: boolean): void;
	};
	/** The node set's message catalogue (locales/<lang>/<set>.json). */
	_?: (key: string, substitutions?: Record<string, unknown>) => string;
}
