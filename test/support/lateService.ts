import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

import { freePort } from '../../scripts/n8n/ports';

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

	/**
	 * Reserves a free port that will forward to `targetUrl` once opened: one no other process of the
	 * suite is handed and no outgoing connection takes meanwhile (see scripts/n8n/ports.ts).
	 */
	static async reserve(targetUrl: string): Promise<LateService> {
		return new LateService(await freePort(), new URL(targetUrl));
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
