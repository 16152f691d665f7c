import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * Result files whose link is on the API's own origin and redirects to another origin (a CDN), the
 * emulator's `redirectMedia`. Through n8n's request helpers (the nodes' channel): the file arrives,
 * and the request that reaches the other origin carries no X-API-Key, while n8n would forward a
 * custom header on a redirect it followed itself.
 */

const engine = useEngine({ clock: 'manual', renderMs: 60_000 }, { binaryMode: 'filesystem' });
const fixture = (name: string) => readFileSync(join(__dirname, '../emulator/media', name));

beforeEach(() => {
	engine.emu.reset();
	engine.emu.setConfig({ redirectMedia: true });
});

async function rendered(kind: 'talking' | 'ai'): Promise<string> {
	const headers = { 'content-type': 'application/json', 'x-api-key': engine.emu.apiKey };
	const body =
		kind === 'talking'
			? { avatar_id: 'public_anna', text_script: { text: 'Hello', voice_id: 'Alice' } }
			: { model_id: 'seedance-1.0-pro', prompt: 'A red kite', duration_sec: 5 };
	const response = await fetch(
		`${engine.emu.baseUrl}/api/v1/${kind === 'talking' ? 'video' : 'ai_video'}`,
		{ method: 'POST', headers, body: JSON.stringify(body) },
	);
	const { data } = (await response.json()) as { data: { video_id: string } };
	engine.emu.advance(61_000);
	engine.emu.clearLog();
	return data.video_id;
}

/** The hops of one file's download: the API origin's redirect, then the media origin. */
function hops(path: string) {
	return engine.emu
		.requests({ path })
		.map((r) => ({ origin: r.origin, status: r.status, apiKey: r.apiKey }));
}

test('Talking Video Get with Download Result: the key stays on the API origin, the video arrives', async () => {
	const videoId = await rendered('talking');
	const workflow = oneNode('talkingVideo', {
		operation: 'get',
		videoId: byId(videoId),
		downloadResult: true,
	});
	const result = await engine.run(workflow);
	expect(result.error).toBeUndefined();
	const [item] = result.output(NODE);
	expect(item.json).toMatchObject({
		video_id: videoId,
		status: 'created',
		video_url: `${engine.emu.baseUrl}/media/videos/${videoId}.mp4`,
	});
	expect(item.binary?.data).toMatchObject({ mimeType: 'video/mp4', fileName: `${videoId}.mp4` });
	expect((await result.binary(NODE)).equals(fixture('sample.mp4'))).toBe(true);
	expect(hops(`/media/videos/${videoId}.mp4`)).toEqual([
		{ origin: 'api', status: 302, apiKey: 'valid' },
		{ origin: 'media', status: 200, apiKey: 'absent' },
	]);
});

test('AI Video Get with Download Result: the same through the AI video node', async () => {
	const videoId = await rendered('ai');
	const workflow = oneNode('aiVideo', {
		operation: 'get',
		videoId: byId(videoId),
		downloadResult: true,
	});
	const result = await engine.run(workflow);
	expect(result.error).toBeUndefined();
	expect((await result.binary(NODE)).equals(fixture('sample.mp4'))).toBe(true);
	expect(hops(`/media/videos/${videoId}.mp4`)).toEqual([
		{ origin: 'api', status: 302, apiKey: 'valid' },
		{ origin: 'media', status: 200, apiKey: 'absent' },
	]);
});

test('Image Generate: the generated image is fetched across the redirect without the key', async () => {
	const workflow = oneNode('image', {
		operation: 'generate',
		modelId: byId('nano-banana-2'),
		prompt: 'A lighthouse at dusk',
	});
	const result = await engine.run(workflow);
	expect(result.error).toBeUndefined();
	const [image] = result.output(NODE);
	const path = new URL(String(image.json.url)).pathname;
	expect(String(image.json.url).startsWith(engine.emu.baseUrl)).toBe(true);
	expect((await result.binary(NODE)).equals(fixture('sample.png'))).toBe(true);
	expect(hops(path)).toEqual([
		{ origin: 'api', status: 302, apiKey: 'valid' },
		{ origin: 'media', status: 200, apiKey: 'absent' },
	]);
	expect(engine.emu.requests({ origin: 'media' }).every((r) => r.apiKey === 'absent')).toBe(true);
});
