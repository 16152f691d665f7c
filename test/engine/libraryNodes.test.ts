import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { useEngine } from '../support/engine';

/** Avatar, Voice and Asset: the user's libraries. */
const engine = useEngine({}, { binaryMode: 'default' });

beforeEach(() => engine.emu.reset());

test('Avatar: create from a photo, reframe one ratio keeping the other values, delete; public library', async () => {
	const result = await engine.run('test/workflows/avatar.json');
	expect(result.error).toBeUndefined();
	const [avatar] = result.output('Create Avatar');
	expect(avatar.json.framing).toHaveLength(3);
	const [framed] = result.output('Update Framing');
	// Only the zoom was set: the offsets were read from the current framing and sent back unchanged.
	expect(framed.json).toMatchObject({
		avatar_id: avatar.json.avatar_id,
		aspect_ratio: '1:1',
		zoom: 1.5,
		offset_x: 0,
		offset_y: 0,
	});
	expect(framed.json.previous).toMatchObject({ aspect_ratio: '1:1', zoom: 1 });
	expect(engine.emu.requests({ method: 'GET', path: '/api/v1/avatars' })).toHaveLength(2);
	expect(result.output('Delete Avatar')[0].json).toEqual({
		avatar_id: avatar.json.avatar_id,
		deleted: true,
	});
	const publicAvatars = result.output('Get Public Avatars');
	expect(publicAvatars).toHaveLength(3);
	expect(publicAvatars.every((a) => a.json.framing === null || a.json.framing === undefined)).toBe(
		true,
	);
});

test.each([
	['only a zoom', { zoom: 2 }],
	['all three values', { zoom: 2, offsetX: 0, offsetY: 0 }],
])(
	'Avatar: reframing a legacy avatar whose framing is null (%s) says it cannot be adjusted and sends nothing',
	async (_, framing) => {
		const listed = await fetch(`${engine.emu.baseUrl}/api/v1/avatars`, {
			headers: { 'X-API-Key': engine.emu.apiKey },
		});
		const legacy = (
			(await listed.json()) as {
				data: { avatars: Array<{ avatar_id: string; framing: Array<{ zoom: number | null }> }> };
			}
		).data.avatars.find((a) => a.framing?.every((f) => f.zoom === null))!;
		const result = await engine.harness.run(
			{
				nodes: [
					{
						id: 't',
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: 'f',
						name: 'Update Framing',
						type: 'n8n-nodes-visionstory.visionStory',
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'avatar',
							operation: 'updateFraming',
							avatarId: { __rl: true, mode: 'id', value: legacy.avatar_id },
							aspectRatio: '9:16',
							framing,
						},
						credentials: { visionStoryApi: { id: '1', name: 'VisionStory' } },
					},
				],
				connections: { Start: { main: [[{ node: 'Update Framing', type: 'main', index: 0 }]] } },
			},
			{ credentials: engine.credentials },
		);
		expect(result.error?.message).toMatch(
			/"Framing" \(framing\):? the 9:16 framing of this avatar cannot be adjusted: it was made before framing existed \(its zoom and offsets are null\)/,
		);
		expect(result.error?.description).toMatch(
			/Create the avatar again from its portrait \(Avatar → Create\)/,
		);
		expect(result.error?.description).not.toMatch(/Fix the value/);
		expect(engine.emu.requests({ method: 'POST' })).toHaveLength(0);
	},
);

test('Voice: public voices by locale (all pages), clone from a sample, delete', async () => {
	const result = await engine.run('test/workflows/voice.json');
	expect(result.error).toBeUndefined();
	const british = result.output('Get British Voices');
	expect(british.length).toBeGreaterThan(0);
	expect(british.every((v) => v.json.locale === 'en-GB' && v.json.library === 'public')).toBe(true);
	const [clone] = result.output('Clone Voice');
	expect(clone.json.voice_id).toEqual(expect.any(String));
	expect(result.output('Delete Voice')[0].json).toEqual({
		voice_id: clone.json.voice_id,
		deleted: true,
	});
});

test('Asset: upload from binary and by URL (deduplicated), list by kind, delete', async () => {
	const result = await engine.run('test/workflows/asset.json');
	expect(result.error).toBeUndefined();
	const [image] = result.output('Upload Asset');
	expect(image.json).toMatchObject({ kind: 'image', mime: 'image/png', width: 512, height: 512 });
	const [audio] = result.output('Upload By URL');
	expect(audio.json).toMatchObject({ kind: 'audio' });
	const images = result.output('Get Image Assets');
	expect(images.map((a) => a.json.asset_id)).toEqual([image.json.asset_id]);
	expect(result.output('Delete Asset')[0].json).toEqual({
		asset_id: image.json.asset_id,
		deleted: true,
	});
});

test('Avatar: a zoom above the avatar maximum comes back with the service message naming the maximum', async () => {
	const workflow = JSON.parse(readFileSync(join(__dirname, '../workflows/avatar.json'), 'utf8'));
	workflow.nodes.find((n: { name: string }) => n.name === 'Update Framing').parameters.framing = {
		zoom: 9,
	};
	const result = await engine.harness.run(workflow, {
		credentials: engine.credentials,
		pinData: {
			'When clicking ‘Execute workflow’': [{ json: { mediaBase: engine.emu.mediaBaseUrl } }],
		},
	});
	const error = result.nodeError('Update Framing') as
		| { message: string; description?: string; httpCode?: string }
		| undefined;
	expect(error?.message).toMatch(/zoom/i);
	expect(error?.message).toMatch(/maximum|at most/i);
	expect(error?.httpCode).toBe('422');
	expect(error?.description).toBeTruthy();
});
