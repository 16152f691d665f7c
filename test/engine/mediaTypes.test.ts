import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TRIGGER, useEngine } from '../support/engine';
import { byId, NODE, oneNode } from '../support/workflow';

/**
 * n8n labels one file type differently depending on where the file came from (a form, an HTTP
 * download, Read Files). Known aliases are sent as the type each endpoint accepts; the emulator
 * checks the sent type against the contract's list for that endpoint, so a run that succeeds proves
 * the normalized type was accepted.
 */
const engine = useEngine({}, { binaryMode: 'default' });
const fixture = (name: string) => readFileSync(join(__dirname, '../emulator/media', name));

beforeEach(() => engine.emu.reset());

function fileItem(bytes: Buffer, mimeType: string, fileName: string): INodeExecutionData {
	return {
		json: {},
		binary: {
			data: {
				data: bytes.toString('base64'),
				mimeType,
				fileName,
				fileExtension: fileName.split('.').pop(),
			},
		},
	};
}

async function runWith(type: string, parameters: IDataObject, item: INodeExecutionData) {
	return await engine.harness.run(oneNode(type, parameters as never), {
		credentials: engine.credentials,
		pinData: { [TRIGGER]: [item] },
	});
}

const talkingAudio = {
	operation: 'create',
	avatarId: byId('public_anna'),
	scriptType: 'audio',
	audioSource: 'binary',
	audioBinaryProperty: 'data',
	waitForCompletion: false,
};

test.each(['audio/wave', 'audio/vnd.wave', 'audio/x-wav', 'audio/x-pn-wav'])(
	'Talking Video: a WAV labelled %s is sent as audio/wav and accepted',
	async (mimeType) => {
		const result = await runWith(
			'talkingVideo',
			talkingAudio,
			fileItem(fixture('sample.wav'), mimeType, 'take.wav'),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.video_id).toEqual(expect.any(String));
		expect(engine.emu.tasks()).toHaveLength(1);
	},
);

test('Talking Video: an .mp4 recording (video/mp4) is accepted as MP4 audio', async () => {
	const result = await runWith(
		'talkingVideo',
		talkingAudio,
		fileItem(fixture('sample.mp4'), 'video/mp4', 'recording.mp4'),
	);
	expect(result.error).toBeUndefined();
	expect(engine.emu.tasks()).toHaveLength(1);
});

test.each([
	['audio/mpeg3', 'sample.mp3'],
	['audio/x-mpeg', 'sample.mp3'],
	['audio/x-mp3', 'sample.mp3'],
	['audio/vnd.wave', 'sample.wav'],
])('Align: audio labelled %s is accepted', async (mimeType, file) => {
	const parameters = {
		operation: 'align',
		audioSource: 'binary',
		audioBinaryProperty: 'data',
		text: 'Hello there',
	};
	const result = await runWith('align', parameters, fileItem(fixture(file), mimeType, file));
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)[0].json.words).toEqual(expect.any(Array));
});

test.each([
	['audio/vnd.wave', 'sample.wav'],
	['audio/mpeg3', 'sample.mp3'],
	['audio/x-m4a', 'sample.mp4'],
])('Voice: a clone sample labelled %s is accepted', async (mimeType, file) => {
	const parameters = { operation: 'clone', sampleSource: 'binary', sampleBinaryProperty: 'data' };
	const result = await runWith('voice', parameters, fileItem(fixture(file), mimeType, file));
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)[0].json.voice_id).toEqual(expect.any(String));
});

test.each(['image/jpg', 'image/pjpeg', 'image/x-png'])(
	'Image: a reference labelled %s is accepted',
	async (mimeType) => {
		const parameters = {
			operation: 'generate',
			modelId: byId('nano-banana-2'),
			prompt: 'The bottle on a beach',
			refs: { ref: [{ source: 'binary', binaryProperty: 'data' }] },
		};
		const result = await runWith(
			'image',
			parameters,
			fileItem(fixture('sample.png'), mimeType, 'bottle.png'),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.url).toEqual(expect.any(String));
	},
);

test('what really is not accepted is still refused, naming the field and the accepted types', async () => {
	const result = await runWith(
		'talkingVideo',
		talkingAudio,
		fileItem(Buffer.alloc(4096, 1), 'audio/ogg', 'take.ogg'),
	);
	expect(result.error?.message).toMatch(
		/"Audio Input Binary Field" \(audioBinaryProperty\):? holds a file of type "audio\/ogg" \(take\.ogg\); allowed: .*audio\/mpeg.*audio\/wav/,
	);
	expect(result.error?.description).toMatch(/Nothing was sent/);
	expect(engine.emu.requests({ origin: 'api' })).toHaveLength(0);
});
