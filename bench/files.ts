import { request } from 'undici';

import type { Harness } from '../test/harness';
import type { EmulatorProcess } from './emulatorProcess';
import type { MemoryAtPeak } from './memory';
import { peakRssGrowth } from './memory';

type Credentials = { visionStoryApi: { apiKey: string; baseUrl: string } };

export interface FileFigures {
	what: string;
	mib: number;
	streamedPeakMiB: number;
	/** What the streamed peak was made of. */
	streamedAtPeak: MemoryAtPeak;
	bufferedPeakMiB: number;
}

const MIB = 1024 * 1024;

function workflow(nodes: Array<Record<string, unknown>>) {
	const names = nodes.map((n) => n.name as string);
	return {
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...nodes,
		],
		connections: Object.fromEntries(
			['Start', ...names]
				.slice(0, -1)
				.map((from, i) => [from, { main: [[{ node: names[i], type: 'main', index: 0 }]] }]),
		),
	};
}

const credential = { visionStoryApi: { id: 'bench', name: 'VisionStory' } };

/** A finished talking video of `bytes` downloaded by the node into n8n's filesystem binary store. */
export async function videoDownload(
	harness: Harness,
	emu: EmulatorProcess,
	credentials: Credentials,
	bytes = 1024 * MIB,
): Promise<FileFigures> {
	await emu.reset();
	const headers = { 'X-API-Key': emu.apiKey, 'content-type': 'application/json' };
	const avatars = (await (
		await fetch(`${emu.baseUrl}/api/v1/avatars?is_public=true&limit=1`, { headers })
	).json()) as { data: { avatars: Array<{ avatar_id: string }> } };
	const rendered = async (videoBytes: number): Promise<string> => {
		await emu.setConfig({ renderMs: 500, videoBytes });
		const created = (await (
			await fetch(`${emu.baseUrl}/api/v1/video`, {
				method: 'POST',
				headers,
				body: JSON.stringify({
					avatar_id: avatars.data.avatars[0].avatar_id,
					text_script: { text: 'A long video', voice_id: 'Alice' },
				}),
			})
		).json()) as { data: { video_id: string } };
		await new Promise((resolve) => setTimeout(resolve, 1200));
		return created.data.video_id;
	};
	const getWorkflow = (videoId: string) =>
		workflow([
			{
				id: 'get',
				name: 'Get Talking Video',
				type: 'n8n-nodes-visionstory.visionStory',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					resource: 'talkingVideo',
					operation: 'get',
					videoId: { __rl: true, mode: 'id', value: videoId },
					downloadResult: true,
				},
				credentials: credential,
			},
		]);
	// A small download first, not measured: the code it runs is loaded and compiled before the figure.
	const warm = await harness.run(getWorkflow(await rendered(MIB)) as never, { credentials });
	if (warm.error) throw warm.error;
	const created = { data: { video_id: await rendered(bytes) } };
	const get = getWorkflow(created.data.video_id);
	const streamed = await peakRssGrowth(async () => {
		const result = await harness.run(get as never, { credentials });
		if (result.error) throw result.error;
		const binary = result.output('Get Talking Video')[0].binary?.data;
		if (!binary?.id) throw new Error('the video did not reach the filesystem binary store');
	});
	const status = (await (
		await fetch(`${emu.baseUrl}/api/v1/video?video_id=${created.data.video_id}`, { headers })
	).json()) as { data: { video_url: string } };
	const buffered = await peakRssGrowth(async () => {
		const response = await request(status.data.video_url);
		const whole = Buffer.from(await response.body.arrayBuffer());
		if (whole.length !== bytes) throw new Error('short download');
	});
	return {
		what: 'Download a finished video (filesystem binary mode)',
		mib: bytes / MIB,
		streamedPeakMiB: streamed.peakMiB,
		streamedAtPeak: streamed.atPeak,
		bufferedPeakMiB: buffered.peakMiB,
	};
}

/** A file already in n8n's filesystem binary store uploaded as an asset: streamed vs. built as one JSON string. */
export async function assetUpload(
	harness: Harness,
	emu: EmulatorProcess,
	credentials: Credentials,
	bytes = 100 * MIB,
): Promise<FileFigures> {
	await emu.reset();
	const source = `${emu.mediaBaseUrl}/media/blob?bytes=${bytes}&type=video/mp4`;
	const download = workflow([
		{
			id: 'download',
			name: 'Download',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			parameters: { url: source, options: { response: { response: { responseFormat: 'file' } } } },
		},
	]);
	// The file is put in the binary store first (not measured): the figure is the upload's alone.
	const stored = await harness.run(download as never, { credentials });
	if (stored.error) throw stored.error;
	const item = stored.output('Download')[0];
	const upload = workflow([
		{
			id: 'upload',
			name: 'Upload Asset',
			type: 'n8n-nodes-visionstory.visionStory',
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'asset',
				operation: 'upload',
				fileSource: 'binary',
				fileBinaryProperty: 'data',
			},
			credentials: credential,
		},
	]);
	const streamed = await peakRssGrowth(async () => {
		const result = await harness.run(upload as never, { credentials, pinData: { Start: [item] } });
		if (result.error) throw result.error;
		if (result.output('Upload Asset')[0].json.kind !== 'video')
			throw new Error('the upload did not make a video asset');
	});
	const buffered = await peakRssGrowth(async () => {
		const file = Buffer.from(await (await request(source)).body.arrayBuffer());
		const body = JSON.stringify({
			inline_data: { data: file.toString('base64'), mime_type: 'video/mp4' },
		});
		const response = await request(`${emu.baseUrl}/api/v1/asset`, {
			method: 'POST',
			headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
			body,
		});
		await response.body.text();
		if (response.statusCode !== 200)
			throw new Error(`buffered upload answered ${response.statusCode}`);
	});
	return {
		what: 'Upload an asset from binary',
		mib: bytes / MIB,
		streamedPeakMiB: streamed.peakMiB,
		streamedAtPeak: streamed.atPeak,
		bufferedPeakMiB: buffered.peakMiB,
	};
}
