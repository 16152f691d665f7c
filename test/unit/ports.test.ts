/** Ports handed to servers that bind them later (scripts/n8n/ports.ts). */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PortBook, freePort, portRange } from '../../scripts/n8n/ports';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function book(range: { low: number; high: number }): { book: PortBook; dir: string } {
	const dir = mkdtempSync(join(tmpdir(), 'ports-test-'));
	dirs.push(dir);
	return { book: new PortBook(dir, range), dir };
}

test('ports come from below the range outgoing connections take their local ports from', async () => {
	const ephemeralLow = Number(
		readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
	);
	expect(portRange().high).toBeLessThan(ephemeralLow);
	const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
	expect(new Set(ports).size).toBe(50);
	for (const port of ports) expect(port).toBeLessThan(ephemeralLow);
});

// Each case's ports come from freePort: held by this process in the suite's own book, so no other
// process of the suite binds them meanwhile, and none listens on them yet.
test("a port another live process holds is never handed out; a dead holder's claim is taken over", async () => {
	const [held, abandoned] = [await freePort(), await freePort()];
	const first = book({ low: held, high: held });
	writeFileSync(join(first.dir, String(held)), String(process.ppid));
	await expect(first.book.take()).rejects.toThrow(`no free loopback port in ${held}-${held}`);
	const second = book({ low: abandoned, high: abandoned });
	writeFileSync(join(second.dir, String(abandoned)), '2147483646');
	expect(await second.book.take()).toBe(abandoned);
	expect(readFileSync(join(second.dir, String(abandoned)), 'utf8')).toBe(String(process.pid));
	await expect(second.book.take()).rejects.toThrow('no free loopback port');
	second.book.release(abandoned);
	expect(existsSync(join(second.dir, String(abandoned)))).toBe(false);
	expect(await second.book.take()).toBe(abandoned);
});

test('a port something already listens on is skipped and not kept', async () => {
	const port = await freePort();
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	try {
		const { book: ports, dir } = book({ low: port, high: port });
		await expect(ports.take()).rejects.toThrow('no free loopback port');
		expect(existsSync(join(dir, String(port)))).toBe(false);
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
});
