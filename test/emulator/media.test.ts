import { request } from 'undici';
import { startEmulator, type Emulator } from './index';
import { probe } from './mediaProbe';
import { api, fixture, TEXT_SCRIPT } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 1000 });
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const MiB = 1024 * 1024;

describe('fixtures', () => {
	test('the committed samples are real media files of a sensible size', () => {
		const expectations = {
			'sample.mp3': { kind: 'audio', mime: 'audio/mpeg' },
			'sample.wav': { kind: 'audio', mime: 'audio/wav' },
			'sample.png': { kind: 'image', mime: 'image/png' },
			'sample.mp4': { kind: 'video', mime: 'video/mp4' },
		} as const;
		for (const [name, expected] of Object.entries(expectations)) {
			const bytes = fixture(name as keyof typeof expectations);
			expect(bytes.length).toBeGreaterThan(2_000);
			expect(bytes.length).toBeLessThan(150_000);
			const probed = probe(bytes);
			expect(probed).toMatchObject(expected);
			if (expected.kind !== 'image') expect(probed?.durationSec).toBeGreaterThan(1);
		}
	});
});

describe('media origin', () => {
	test('logs whether any X-API-Key was sent, never the key', async () => {
		const get = async (headers: Record<string, string>) => {
			const res = await request(`${emu.mediaBaseUrl}/media/sample.png`, { headers });
			await res.body.dump();
			return res.statusCode;
		};
		expect(await get({})).toBe(200);
		expect(await get({ 'x-api-key': emu.apiKey })).toBe(200);
		expect(await get({ 'x-api-key': 'sk-vs-leaked-but-wrong-7777' })).toBe(200);
		const log = emu.requests({ origin: 'media' });
		expect(log.map((e) => [e.path, e.apiKey, e.status, e.outcome])).toEqual([
			['/media/sample.png', 'absent', 200, 'answered'],
			['/media/sample.png', 'valid', 200, 'answered'],
			['/media/sample.png', 'invalid', 200, 'answered'],
		]);
		expect(log.every((e) => e.account === undefined)).toBe(true);
		const printed = JSON.stringify(emu.requests());
		expect(printed).not.toContain(emu.apiKey);
		expect(printed).not.toContain('sk-vs-leaked-but-wrong-7777');
		expect(emu.requests({ origin: 'api' })).toEqual([]);
	});

	test('redirectMedia: links point at the API origin, which redirects to the media origin and logs the hop', async () => {
		emu.setConfig({ redirectMedia: true });
		const id = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		emu.advance(1000);
		const task = (await api(emu, 'GET', `/api/v1/video?video_id=${id}`)).body.data;
		expect(task.video_url).toBe(`${emu.baseUrl}/media/videos/${id}.mp4`);
		const image = (
			await api(emu, 'POST', '/api/v1/image', {
				body: { model_id: 'nano-banana-2', prompt: 'A kite' },
			})
		).body.data;
		expect(image.url.startsWith(`${emu.baseUrl}/media/images/`)).toBe(true);

		const hop = await request(`${task.video_url}?x=1`, { headers: { 'x-api-key': emu.apiKey } });
		await hop.body.dump();
		expect(hop.statusCode).toBe(302);
		expect(hop.headers.location).toBe(`${emu.mediaBaseUrl}/media/videos/${id}.mp4?x=1`);
		const file = await request(hop.headers.location as string);
		await file.body.dump();
		expect(file.statusCode).toBe(200);
		const hops = emu.requests({ path: `/media/videos/${id}.mp4` });
		expect(hops.map((e) => [e.origin, e.status, e.apiKey])).toEqual([
			['api', 302, 'valid'],
			['media', 200, 'absent'],
		]);
		const post = await request(task.video_url, { method: 'POST' });
		await post.body.dump();
		expect(post.statusCode).toBe(405);
	});

	test('rendered videos exist only once created; videoBytes switches them to a generated stream', async () => {
		const id = (
			await api(emu, 'POST', '/api/v1/video', {
				body: { avatar_id: 'public_anna', text_script: TEXT_SCRIPT },
			})
		).body.data.video_id;
		const url = `${emu.mediaBaseUrl}/media/videos/${id}.mp4`;
		const early = await request(url);
		expect(early.statusCode).toBe(404);
		await early.body.dump();
		emu.advance(1000);
		const sample = await request(url);
		expect(sample.headers['content-length']).toBe(String(fixture('sample.mp4').length));
		await sample.body.dump();

		emu.setConfig({ videoBytes: 5 * MiB + 3 });
		const big = await request(url);
		expect(big.headers['content-type']).toBe('video/mp4');
		expect(big.headers['content-length']).toBe(String(5 * MiB + 3));
		let n = 0;
		for await (const chunk of big.body) n += (chunk as Buffer).length;
		expect(n).toBe(5 * MiB + 3);
	});

	test('byte ranges: 206 with Content-Range, consistent content, 416 past the end', async () => {
		const whole = fixture('sample.mp3');
		const part = await request(`${emu.mediaBaseUrl}/media/sample.mp3`, {
			headers: { range: 'bytes=100-199' },
		});
		expect(part.statusCode).toBe(206);
		expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.length}`);
		expect(Buffer.from(await part.body.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);

		const tail = await request(`${emu.mediaBaseUrl}/media/blob?bytes=1000&type=video/mp4`, {
			headers: { range: 'bytes=990-' },
		});
		expect(tail.statusCode).toBe(206);
		expect([...Buffer.from(await tail.body.arrayBuffer())]).toEqual(
			Array.from({ length: 10 }, (_, i) => (990 + i) & 0xff),
		);

		const past = await request(`${emu.mediaBaseUrl}/media/blob?bytes=1000`, {
			headers: { range: 'bytes=1000-' },
		});
		expect(past.statusCode).toBe(416);
		expect(past.headers['content-range']).toBe('bytes */1000');
		await past.body.dump();
	});

	test('HEAD answers the headers only; unknown paths and bad blob sizes are errors', async () => {
		const head = await request(
			`${emu.mediaBaseUrl}/media/blob?bytes=${1024 * MiB}&type=video/mp4`,
			{ method: 'HEAD' },
		);
		expect(head.statusCode).toBe(200);
		expect(head.headers['content-length']).toBe(String(1024 * MiB));
		await head.body.dump();
		const missing = await request(`${emu.mediaBaseUrl}/media/nothing`);
		expect(missing.statusCode).toBe(404);
		await missing.body.dump();
		const bad = await request(`${emu.mediaBaseUrl}/media/blob?bytes=-5`);
		expect(bad.statusCode).toBe(400);
		await bad.body.dump();
	});

	test('a 200 MiB blob streams through with the process RSS staying flat', async () => {
		const size = 200 * MiB;
		const before = process.memoryUsage().rss;
		// RSS after the first quarter (allocator and GC warm-up) and the peak over the rest.
		let warm = before;
		let peak = before;
		const res = await request(`${emu.mediaBaseUrl}/media/blob?bytes=${size}&type=video/mp4`);
		expect(res.headers['content-length']).toBe(String(size));
		let received = 0;
		let chunks = 0;
		let contentOk = true;
		for await (const chunk of res.body) {
			const buf = chunk as Buffer;
			// Spot-check the content without keeping it: the byte at offset o is o & 0xff.
			if (buf.length > 0 && buf[buf.length - 1] !== (received + buf.length - 1) % 256)
				contentOk = false;
			received += buf.length;
			if (++chunks % 64 === 0) {
				const rss = process.memoryUsage().rss;
				if (received < size / 4) warm = Math.max(warm, rss);
				else peak = Math.max(peak, rss);
			}
		}
		expect(received).toBe(size);
		expect(contentOk).toBe(true);
		// Keeping the body anywhere (server or client) grows RSS by ~150 MiB over the last three quarters;
		// streaming stays within a few MiB once warm.
		expect(peak - warm).toBeLessThan(48 * MiB);
		expect(peak - before).toBeLessThan(100 * MiB);
		expect(emu.requests({ origin: 'media', path: '/media/blob' })).toEqual([
			expect.objectContaining({ status: 200, outcome: 'answered', apiKey: 'absent' }),
		]);
	});
});
