import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';

const ROOT = join(__dirname, '..', '..');

test('npm run emulator: prints where it listens and the key, serves, and stops cleanly on SIGTERM', async () => {
	const child = spawn(
		process.execPath,
		[join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(__dirname, 'cli.ts')],
		{
			cwd: ROOT,
			env: {
				...process.env,
				EMULATOR_PORT: '0',
				EMULATOR_MEDIA_PORT: '0',
				RENDER_MS: '800',
				AI_CAP: '2',
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let out = '';
	child.stdout.on('data', (d: Buffer) => (out += d.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	try {
		const deadline = Date.now() + 30_000;
		while (!/Press Ctrl\+C/.test(out) && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 50));
		const api = /API:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
		const media = /media:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
		const key = /key:\s+(sk-vs-\S+)/.exec(out)?.[1];
		expect(api && media && key).toBeTruthy();
		expect(out).toContain('render: 800 ms (queued 200 ms), AI video cap 2 per key');
		const credits = await request(`${api}/api/v1/billing/credits`, {
			headers: { 'x-api-key': key as string },
		});
		expect(credits.statusCode).toBe(200);
		await credits.body.dump();
		const png = await request(`${media}/media/sample.png`);
		expect(png.statusCode).toBe(200);
		await png.body.dump();
	} finally {
		child.kill('SIGTERM');
	}
	expect(await exited).toBe(0);
	expect(out).toContain('SIGTERM: stopping the emulator');
});
