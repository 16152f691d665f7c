import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { Emulator } from '../emulator';
import { startEmulator } from '../emulator';
import { createUndiciClient } from '../support/undiciTransport';

/**
 * Downloads whose link is on the API's own origin and redirects elsewhere (the emulator's
 * `redirectMedia`), through the undici channel that scripts and the benchmarks use: the key goes to
 * the API origin only, and the file still arrives.
 */

let emu: Emulator;
let client: VisionStoryClient;
const sampleMp4 = readFileSync(join(__dirname, '../emulator/media/sample.mp4'));

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', renderMs: 60_000 });
	client = createUndiciClient(emu.apiKey, {
		baseUrl: emu.baseUrl,
		retry: { baseDelayMs: 5, maxDelayMs: 40 },
	});
});
afterAll(async () => await emu.stop());
beforeEach(() => {
	emu.reset();
	emu.setConfig({ redirectMedia: true });
});

async function bytes(stream: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk));
	return Buffer.concat(chunks);
}

test('a finished video linked on the API origin: the redirect is followed without the key', async () => {
	const { video_id } = await client.createTalkingVideo({
		avatar_id: 'public_anna',
		text_script: { text: 'Hello', voice_id: 'Alice' },
	});
	emu.advance(61_000);
	const task = await client.getTalkingVideo({ video_id });
	expect(task.video_url).toBe(`${emu.baseUrl}/media/videos/${video_id}.mp4`);
	emu.clearLog();

	const download = await client.download(task.video_url!);
	expect(download).toMatchObject({
		mimeType: 'video/mp4',
		fileName: `${video_id}.mp4`,
		contentLength: sampleMp4.length,
	});
	expect((await bytes(download.stream)).equals(sampleMp4)).toBe(true);
	expect(
		emu.requests().map((r) => ({ origin: r.origin, status: r.status, apiKey: r.apiKey })),
	).toEqual([
		{ origin: 'api', status: 302, apiKey: 'valid' },
		{ origin: 'media', status: 200, apiKey: 'absent' },
	]);
});

test('a redirect to a missing file reports the media origin’s 404, not the redirect', async () => {
	emu.clearLog();
	const failure = await client
		.download(`${emu.baseUrl}/media/videos/never-rendered.mp4`)
		.catch((e: unknown) => e);
	expect(failure).toMatchObject({ category: 'api', status: 404 });
	expect(emu.requests({ origin: 'media' }).map((r) => r.apiKey)).toEqual(['absent']);
});
