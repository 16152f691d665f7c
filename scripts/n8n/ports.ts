import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { alive } from './installSteps';

/**
 * Ports handed to servers that bind them later (n8n and its task broker, Node-RED, Postgres, Redis),
 * so between the pick and the bind nothing else may take them. Two things could:
 * - an outgoing connection: its local port comes from the kernel's ephemeral range, and the suite
 *   opens a connection per HTTP call. So ports are picked below that range, where none lands.
 * - another process of the suite (four suites run side by side): each handed-out port is reserved
 *   by a file named after it, holding the pid that took it, until that process ends.
 */
export class PortBook {
	private readonly mine = new Set<number>();

	constructor(
		private readonly dir: string,
		private readonly range: { low: number; high: number },
	) {}

	/** Takes `port` for this process unless a live process holds it; a dead holder's claim is dropped. */
	reserve(port: number): boolean {
		mkdirSync(this.dir, { recursive: true });
		const file = join(this.dir, String(port));
		for (let tries = 0; tries < 2; tries++) {
			try {
				writeFileSync(file, String(process.pid), { flag: 'wx' });
				this.mine.add(port);
				return true;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
				if (alive(holder(file))) return false;
				rmSync(file, { force: true });
			}
		}
		return false;
	}

	/** A port in the range that this process could bind now and no live process of the suite holds. */
	async take(): Promise<number> {
		const size = this.range.high - this.range.low + 1;
		const start = Math.floor(Math.random() * size);
		for (let i = 0; i < size; i++) {
			const port = this.range.low + ((start + i) % size);
			if (this.mine.has(port) || !this.reserve(port)) continue;
			if (await bindable(port)) return port;
			this.release(port);
		}
		throw new Error(`no free loopback port in ${this.range.low}-${this.range.high}`);
	}

	release(port: number): void {
		if (this.mine.delete(port)) rmSync(join(this.dir, String(port)), { force: true });
	}

	releaseAll(): void {
		for (const port of [...this.mine]) this.release(port);
	}

	/** Drops the claims of processes that have ended (jest's workers end without running exit handlers). */
	sweep(): void {
		let names: string[] = [];
		try {
			names = readdirSync(this.dir);
		} catch {
			return;
		}
		for (const name of names) {
			const file = join(this.dir, name);
			if (!alive(holder(file))) rmSync(file, { force: true });
		}
	}
}

function holder(file: string): number {
	try {
		return Number(readFileSync(file, 'utf8'));
	} catch {
		return NaN;
	}
}

function bindable(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Below the kernel's ephemeral range (Linux's is 32768-60999 unless configured otherwise). */
export function portRange(): { low: number; high: number } {
	let ephemeralLow = 32768;
	try {
		const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(low)) ephemeralLow = low;
	} catch {
		// not Linux: the common default
	}
	const high = ephemeralLow - 1;
	// A machine whose ephemeral range starts low leaves no room below it: the reservations still hold.
	if (high < 5024) return { low: 20000, high: 29999 };
	return { low: Math.min(20000, high - 4000), high };
}

const book = new PortBook(join(tmpdir(), 'visionstory-test-ports'), portRange());
book.sweep();
process.on('exit', () => book.releaseAll());

/** A loopback port free now and kept for this process: n8n needs several per process (HTTP, task broker). */
export function freePort(): Promise<number> {
	return book.take();
}

/** Whether something accepts connections on this loopback port. */
export function isListening(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}
