/**
 * Every operation of every node, run once in Node-RED's runtime against the emulator: all of them are
 * reachable from the editor's choices, and each answers with what the API gives.
 */
import { ACTION_NODES } from '../../packages/node-red-visionstory/src/nodes';
import { startEmulator, type Emulator } from '../emulator';
import { firstPublicAvatarId } from '../support/avatars';
import { ALL_NODES, credentials, flowWith, helper, run } from './support';

let emulator: Emulator;
let avatarId: string;
const ran = new Set<string>();

beforeAll(async () => {
	emulator = await startEmulator({ renderMs: 200 });
	avatarId = await firstPublicAvatarId(emulator);
});
afterAll(async () => await emulator.stop());
afterEach(async () => await helper.unload());

async function op(
	type: string,
	operation: string,
	props: Record<string, unknown>,
	msg: Record<string, unknown> = {},
) {
	await helper.unload();
	await helper.load(
		ALL_NODES,
		flowWith({ type: `visionstory-${type}`, operation, ...props }, emulator.baseUrl),
		credentials(emulator.apiKey),
	);
	const result = await run({ _msgid: `${type}-${operation}-${Math.random()}`, ...msg });
	if (result.output === 'failed')
		throw new Error(`${type} ${operation}: ${JSON.stringify(result.msg.error)}`);
	ran.add(`visionstory-${type}:${operation}`);
	return result;
}

const media = (name: string) => `${emulator.mediaBaseUrl}/media/${name}`;
const wait = { waitForCompletion: true, pollIntervalSeconds: 5, downloadResult: false };

it('runs every operation of every node against the emulator', async () => {
	// Talking video
	const tv = await op(
		'talking-video',
		'create',
		{ scriptType: 'text', ...wait },
		{ avatarId, voiceId: 'Alice', text: 'Hi.' },
	);
	const tvId = (tv.msg.payload as { video_id: string }).video_id;
	expect(
		(await op('talking-video', 'check', { downloadResult: false }, { videoId: tvId })).output,
	).toBe('out1');
	expect(
		(await op('talking-video', 'get', { downloadResult: false }, { videoId: tvId })).msg.payload,
	).toMatchObject({ video_id: tvId, status: 'created' });
	expect((await op('talking-video', 'getMany', { returnAll: true })).msg.payload).toEqual([
		expect.objectContaining({ video_id: tvId }),
	]);
	expect((await op('talking-video', 'listModels', {})).msg.payload).toEqual(
		expect.arrayContaining([expect.objectContaining({ model_id: 'vs_character_v4' })]),
	);
	expect((await op('talking-video', 'delete', { videoId: tvId })).msg.payload).toMatchObject({
		video_id: tvId,
		deleted: true,
	});

	// AI video
	const ai = await op(
		'ai-video',
		'create',
		{ modelId: 'seedance-1.0-pro', duration: '5', ...wait },
		{ prompt: 'A boat.' },
	);
	const aiId = (ai.msg.payload as { video_id: string }).video_id;
	expect(ai.msg.payload).toMatchObject({ status: 'created' });
	expect(
		(await op('ai-video', 'check', { downloadResult: true }, { payload: { video_id: aiId } })).msg
			.payload,
	).toBeInstanceOf(Buffer);
	expect(
		(await op('ai-video', 'get', { videoId: `${aiId}, ${aiId}`, downloadResult: false })).msg
			.payload,
	).toHaveLength(2);
	expect(
		(await op('ai-video', 'getMany', { status: 'created', limit: '5' })).msg.payload,
	).toHaveLength(1);
	expect(
		(
			await op('ai-video', 'estimateCost', {
				modelId: 'seedance-1.0-pro',
				duration: '5',
				resolution: '720p',
			})
		).msg.payload,
	).toEqual({ credit: 20 });
	expect((await op('ai-video', 'listModels', {})).msg.payload).toHaveLength(4);
	expect((await op('ai-video', 'delete', {}, { videoId: aiId })).msg.payload).toMatchObject({
		deleted: true,
	});

	// Image, speech, align
	const image = await op(
		'image',
		'generate',
		{ modelId: 'nano-banana-pro', downloadResult: true },
		{ payload: 'A red bicycle.' },
	);
	expect((image.msg.payload as Buffer).subarray(1, 4).toString('latin1')).toBe('PNG');
	expect(image.msg.visionstory).toMatchObject({ model_id: 'nano-banana-pro' });
	expect((await op('image', 'listModels', {})).msg.payload).toHaveLength(7);
	const speech = await op(
		'text-to-speech',
		'synthesize',
		{ voiceId: 'Alice', downloadResult: true },
		{ payload: 'Hello there.' },
	);
	expect((speech.msg.payload as Buffer).subarray(0, 3).toString('latin1')).toBe('ID3');
	expect(speech.msg.visionstory).toMatchObject({ cost_credit: 2 });
	const aligned = await op(
		'align',
		'align',
		{ audioSource: 'binary' },
		{ payload: speech.msg.payload, text: 'Hello there.' },
	);
	expect((aligned.msg.payload as { words: unknown[] }).words).toHaveLength(2);
	expect(
		(await op('align', 'transcribe', { srt: true }, { audioUrl: media('sample.mp3') })).msg.payload,
	).toMatchObject({ srt: expect.any(String) });

	// Avatar
	const avatar = await op(
		'avatar',
		'create',
		{ imageSource: 'url' },
		{ imageUrl: media('sample.png') },
	);
	const mine = (avatar.msg.payload as { avatar_id: string }).avatar_id;
	expect((await op('avatar', 'getMany', { library: 'mine' })).msg.payload).toEqual(
		expect.arrayContaining([expect.objectContaining({ avatar_id: mine })]),
	);
	expect(
		(
			await op(
				'avatar',
				'updateFraming',
				{ aspectRatio: '9:16', zoom: '1.5', offsetX: '0', offsetY: '0.1' },
				{ avatarId: mine },
			)
		).msg.payload,
	).toMatchObject({ zoom: 1.5 });
	expect((await op('avatar', 'delete', { avatarId: mine })).msg.payload).toMatchObject({
		deleted: true,
	});

	// Voice
	const clone = await op(
		'voice',
		'clone',
		{ sampleSource: 'url', previewText: 'Hi' },
		{ sampleUrl: media('sample.mp3') },
	);
	const voiceId = (clone.msg.payload as { voice_id: string }).voice_id;
	expect((await op('voice', 'getMany', { library: 'mine' })).msg.payload).toEqual([
		expect.objectContaining({ voice_id: voiceId }),
	]);
	expect((await op('voice', 'delete', {}, { voiceId })).msg.payload).toMatchObject({
		deleted: true,
	});

	// Understand, asset, account
	const understood = await op(
		'understand',
		'analyze',
		{ inputSource: 'url', schemaMode: 'fields', fields: 'subject, mood' },
		{ inputUrl: media('sample.png'), prompt: 'Describe it.' },
	);
	expect((understood.msg.payload as { output: object }).output).toEqual({
		subject: expect.any(String),
		mood: expect.any(String),
	});
	const asset = await op(
		'asset',
		'upload',
		{ fileSource: 'binary' },
		{ payload: image.msg.payload },
	);
	const assetId = (asset.msg.payload as { asset_id: string }).asset_id;
	expect((await op('asset', 'getMany', { kind: 'image' })).msg.payload).toEqual([
		expect.objectContaining({ asset_id: assetId }),
	]);
	expect((await op('asset', 'delete', {}, { assetId })).msg.payload).toMatchObject({
		deleted: true,
	});
	expect((await op('account', 'getCredits', {})).msg.payload).toMatchObject({
		credits: expect.any(Number),
	});

	const every = ACTION_NODES.flatMap((spec) =>
		spec.operations.map((o) => `${spec.type}:${o.value}`),
	);
	expect([...ran].sort()).toEqual(every.sort());
});
