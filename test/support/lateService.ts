import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/**
 * A loopback port where nothing listens yet (connections are refused: ECONNREFUSED, the request
 * never left the machine), and that can later start forwarding to a real server, as a service that
 * comes up between two attempts.
 */
export class LateService {
	private server?: Server;
	private readonly sockets = new Set<Socket>();

	private constructor(
		readonly port: number,
		private readonly target: URL,
	) {}

	/** Reserves a free port (by binding and releasing it) that will forward to `targetUrl` once opened. */
	static async reserve(targetUrl: string): Promise<LateService> {
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const { port } = probe.address() as AddressInfo;
		await new Promise<void>((resolve) => probe.close(() => resolve()));
		return new LateService(port, new URL(targetUrl));
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get isOpen(): boolean {
		return this.server !== undefined;
	}

	async open(): Promise<void> {
		if (this.server) return;
		const server = createServer((client) => {
			const upstream = createConnection({
				host: this.target.hostname,
				port: Number(this.target.port),
			});
			for (const socket of [client, upstream]) {
				this.sockets.add(socket);
				socket.on('close', () => this.sockets.delete(socket));
				socket.on('error', () => undefined);
			}
			client.pipe(upstream).pipe(client);
		});
		this.server = server;
		await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
	}

	async close(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		for (const socket of this.sockets) socket.destroy();
		if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
	}
}
