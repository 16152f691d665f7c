import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminHandler } from './admin';
import { createApiHandler } from './apiServer';
import { createClock } from './clock';
import { Controller } from './controller';
import { Drift } from './drift';
import { FaultInjector } from './faults';
import { createMediaHandler } from './mediaServer';
import { RequestLog } from './requestLog';
import { Router } from './router';
import { apiRoutes } from './routes';
import { EmulatorState } from './state';
import type { Emulator, EmulatorOptions } from './types';

export type {
	Emulator,
	EmulatorConfig,
	EmulatorOptions,
	FaultKind,
	Faults,
	FaultScript,
	LedgerEntry,
	RequestLogEntry,
	TaskKind,
	TaskRecord,
	TaskStatus,
} from './types';
export { DEFAULT_API_KEY } from './state';

function listen(server: Server, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function close(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		// Keep-alive sockets and half-read downloads would otherwise hold close() open.
		server.closeAllConnections();
	});
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const apiServer = createServer();
	const mediaServer = createServer();
	// Large uploads and downloads must not hit Node's default per-request timeout. An idle keep-alive
	// socket is left for the client to close: a server closing it at Node's 5 s races a client (undici
	// keeps sockets 4 s) whose event loop lags on a loaded machine, and the reused socket reads ECONNRESET.
	for (const s of [apiServer, mediaServer]) {
		s.requestTimeout = 0;
		s.keepAliveTimeout = 65_000;
	}
	const mediaPort = await listen(mediaServer, options.mediaPort ?? 0);
	let apiPort: number;
	try {
		apiPort = await listen(apiServer, options.port ?? 0);
	} catch (err) {
		await close(mediaServer);
		throw err;
	}
	const baseUrl = `http://127.0.0.1:${apiPort}`;
	const mediaBaseUrl = `http://127.0.0.1:${mediaPort}`;

	const state = new EmulatorState(
		createClock(options.clock ?? 'real'),
		mediaBaseUrl,
		options,
		baseUrl,
	);
	const faults = new FaultInjector(options.seed ?? 1);
	const log = new RequestLog();
	const drift = new Drift(state);
	const controller = new Controller(state, faults, log, drift);
	apiServer.on(
		'request',
		createApiHandler({
			state,
			faults,
			log,
			router: new Router(apiRoutes),
			admin: createAdminHandler(controller),
			drift,
		}),
	);
	mediaServer.on('request', createMediaHandler(state, faults, log, drift));

	const defaultKey = state.allAccounts()[0].apiKey;
	const idOf = (apiKey: string | undefined): string | undefined => {
		if (apiKey === undefined) return undefined;
		const id = controller.accountId(apiKey);
		if (id === undefined) throw new Error('no account has this API key');
		return id;
	};
	let stopped: Promise<void> | undefined;

	return {
		baseUrl,
		mediaBaseUrl,
		apiKey: defaultKey,
		addAccount: (apiKey, credits) => void controller.addAccount(apiKey, credits),
		setConfig: (c) => controller.setConfig(c),
		setFaults: (f) => controller.setFaults(f),
		clearFaults: () => controller.clearFaults(),
		advance: (ms) => controller.advance(ms),
		now: () => controller.now(),
		ledger: (apiKey) => controller.ledger(idOf(apiKey)),
		balance: (apiKey) => controller.balance(idOf(apiKey ?? defaultKey) as string),
		requests: (filter) => controller.requests(filter),
		tasks: (apiKey) => controller.tasks(idOf(apiKey)),
		clearLog: () => controller.clearLog(),
		reset: () => controller.reset(),
		stop: () =>
			(stopped ??= Promise.all([close(apiServer), close(mediaServer)]).then(() => undefined)),
		config: () => controller.config(),
		faults: () => controller.faults(),
		accountId: (apiKey) => controller.accountId(apiKey),
	};
}
