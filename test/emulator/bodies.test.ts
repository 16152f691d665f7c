import { Readable } from 'node:stream';
import { request } from 'undici';
import { startEmulator, type Emulator } from './index';
import { fixture } from './testkit';

let emu: Emulator;

beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.stop());

const MiB = 1024 * 1024;

/** An MP4 of exactly `size` bytes: the sample followed by padding, so it still probes as video. */
function videoOf(size: number): Buffer {
	const out = Buffer.alloc(size);
	fixture('sample.mp4').copy(out);
	return out;
}

async function uploadJson(json: string): Promise<{ status: number; body: any }> {
	const res = await request(`${emu.baseUrl}/api/v1/asset`, {
		method: 'POST',
		headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
		body: json,
	});
	return { status: res.statusCode, body: await res.body.json() };
}

describe('large request bodies', () => {
	test('a 100 MiB video as base64 in JSON is accepted as an asset', async () => {
		const json = JSON.stringify({
			inline_data: { data: videoOf(100 * MiB).toString('base64'), mime_type: 'video/mp4' },
		});
		expect(json.length).toBeGreaterThan(133 * MiB);
		const r = await uploadJson(json);
		expect(r.status).toBe(200);
		expect(r.body.data).toMatchObject({
			kind: 'video',
			mime: 'video/mp4',
			width: 320,
			height: 240,
		});
		expect(emu.requests({ path: '/api/v1/asset' })[0].bodyBytes).toBe(Buffer.byteLength(json));
	});

	test('one byte over the video cap is a 422 naming the data field', async () => {
		const json = JSON.stringify({
			inline_data: { data: videoOf(100 * MiB + 1).toString('base64'), mime_type: 'video/mp4' },
		});
		const r = await uploadJson(json);
		expect(r.status).toBe(422);
		expect(JSON.parse(r.body.error.details)['inline_data.data']).toMatch(/over the 100 MB limit/);
	});

	test('a body over 200 MiB is a 413, answered after the client finished sending', async () => {
		const size = 200 * MiB + 1;
		const chunk = Buffer.alloc(MiB, 0x20);
		async function* spaces(): AsyncGenerator<Buffer> {
			for (let sent = 0; sent < size; sent += MiB)
				yield sent + MiB <= size ? chunk : chunk.subarray(0, size - sent);
		}
		const res = await request(`${emu.baseUrl}/api/v1/asset`, {
			method: 'POST',
			headers: {
				'x-api-key': emu.apiKey,
				'content-type': 'application/json',
				'content-length': String(size),
			},
			body: Readable.from(spaces()),
		});
		expect(res.statusCode).toBe(413);
		expect((await res.body.json()) as any).toMatchObject({ error: { code: 413 } });
		const logged = emu.requests({ path: '/api/v1/asset' }).at(-1);
		expect(logged).toMatchObject({ status: 413, bodyBytes: size });
	});
});
