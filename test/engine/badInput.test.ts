/**
 * Bad input, table-driven: every row runs a manual trigger → one VisionStory node with a bad
 * parameter (or a bad file on the pinned item) through the engine against the emulator, and asserts
 * that the execution fails with an error naming the field and what is allowed, and that the
 * emulator's API origin received no request at all (nothing sent, nothing charged).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { TRIGGER, useEngine } from '../support/engine';

const engine = useEngine();

const MIB = 1024 * 1024;
const NODE = 'Node Under Test';

const TYPES = {
	talkingVideo: 'talkingVideo',
	aiVideo: 'aiVideo',
	image: 'image',
	textToSpeech: 'textToSpeech',
	align: 'align',
	avatar: 'avatar',
	voice: 'voice',
	understand: 'understand',
	asset: 'asset',
	account: 'account',
} as const;
type NodeKey = keyof typeof TYPES;

/** A file on the pinned trigger item: only its type, name and size matter to the checks. */
interface FileSpec {
	mimeType: string;
	fileName: string;
	bytes: number;
}

interface Row {
	node: NodeKey;
	/** What the row is about, shown in the test name. */
	title: string;
	parameters: IDataObject;
	/** Binary properties of the pinned trigger item. */
	files?: Record<string, FileSpec>;
	/** The parameter the error must name: `"label" (field)`, as the user sees it in the node. */
	field: string;
	label: string;
	/** Fragments of the allowed values or the limit that the message must carry. */
	says: string[];
	/** Run with the node setting "On Error: Continue" and assert on the error item instead. */
	continueOnFail?: boolean;
}

const rl = (value: string) => ({ __rl: true, value, mode: 'id' });
/**
 * An empty value as it reaches a node in practice: an expression over an empty field of the
 * incoming item. (A literal empty required parameter never gets that far: n8n refuses to start.)
 */
const EMPTY = '={{ $json.empty }}';
const repeat = (length: number) => 'a'.repeat(length);
const AVATAR = rl('public_anna');
const VOICE = rl('Alice');
const AI_MODEL = rl('seedance-1.0-pro');
const IMAGE_MODEL = rl('nano-banana-2');
const png = (bytes = 2048): FileSpec => ({ mimeType: 'image/png', fileName: 'photo.png', bytes });
const mp3 = (bytes = 2048): FileSpec => ({ mimeType: 'audio/mpeg', fileName: 'voice.mp3', bytes });
const text = (): FileSpec => ({ mimeType: 'text/plain', fileName: 'notes.txt', bytes: 300 });
const pdf = (): FileSpec => ({
	mimeType: 'application/pdf',
	fileName: 'brochure.pdf',
	bytes: 4096,
});

const talkingText = (extra: IDataObject = {}): IDataObject => ({
	operation: 'create',
	avatarId: AVATAR,
	scriptType: 'text',
	text: 'Our spring sale starts today!',
	voiceId: VOICE,
	waitForCompletion: false,
	...extra,
});
const talkingAudio = (extra: IDataObject = {}): IDataObject => ({
	operation: 'create',
	avatarId: AVATAR,
	scriptType: 'audio',
	audioSource: 'binary',
	audioBinaryProperty: 'data',
	waitForCompletion: false,
	...extra,
});
const aiCreate = (extra: IDataObject = {}): IDataObject => ({
	operation: 'create',
	modelId: AI_MODEL,
	prompt: 'Slow dolly shot of a sneaker on a marble plinth',
	waitForCompletion: false,
	...extra,
});
const imageGenerate = (extra: IDataObject = {}): IDataObject => ({
	operation: 'generate',
	modelId: IMAGE_MODEL,
	prompt: 'The bottle on a beach at sunset',
	...extra,
});
const tts = (extra: IDataObject = {}): IDataObject => ({
	operation: 'synthesize',
	text: 'Welcome to our shop',
	voiceId: VOICE,
	...extra,
});
const urlInputs = (count: number) => ({
	input: Array.from({ length: count }, (_, i) => ({
		source: 'url',
		url: `https://example.com/media/${i + 1}.png`,
	})),
});
const understand = (extra: IDataObject = {}): IDataObject => ({
	operation: 'analyze',
	inputs: urlInputs(1),
	prompt: 'Describe the mood of the photo',
	schemaMode: 'fields',
	fields: {
		field: [{ name: 'mood', type: 'string', allowedValues: 'happy, calm, sad', required: true }],
	},
	...extra,
});

const rows: Row[] = [
	// Talking Video
	{
		node: 'talkingVideo',
		title: 'empty script',
		parameters: talkingText({ text: EMPTY }),
		field: 'text',
		label: 'Script',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'script of blanks only',
		parameters: talkingText({ text: '   \n ' }),
		field: 'text',
		label: 'Script',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'empty avatar id',
		parameters: talkingText({ avatarId: rl(EMPTY) }),
		field: 'avatarId',
		label: 'Avatar',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'background colour #GGG000',
		parameters: talkingText({ options: { backgroundColor: '#GGG000' } }),
		field: 'backgroundColor',
		label: 'Background Color',
		says: ['6-digit hex', '#00FF00'],
	},
	{
		node: 'talkingVideo',
		title: 'background colour "red"',
		parameters: talkingText({ options: { backgroundColor: 'red' } }),
		field: 'backgroundColor',
		label: 'Background Color',
		says: ['leading #'],
	},
	{
		node: 'talkingVideo',
		title: 'background colour #FFF (3 digits)',
		parameters: talkingText({ options: { backgroundColor: '#FFF' } }),
		field: 'backgroundColor',
		label: 'Background Color',
		says: ['6-digit hex'],
	},
	{
		node: 'talkingVideo',
		title: 'unknown speech rate by expression',
		parameters: talkingText({ speechRate: '=turbo' }),
		field: 'speechRate',
		label: 'Speech Rate',
		says: ['turbo', 'slow', 'normal', 'fast'],
	},
	{
		node: 'talkingVideo',
		title: 'unknown aspect ratio by expression',
		parameters: talkingText({ aspectRatio: '=4:5' }),
		field: 'aspectRatio',
		label: 'Aspect Ratio',
		says: ['4:5', '9:16', '16:9', '1:1'],
	},
	{
		node: 'talkingVideo',
		title: 'unknown emotion by expression',
		parameters: talkingText({ options: { emotion: '=furious' } }),
		field: 'emotion',
		label: 'Emotion',
		says: ['furious', 'cheerful', 'news'],
	},
	{
		node: 'talkingVideo',
		title: 'unknown resolution by expression',
		parameters: talkingText({ resolution: '=8k' }),
		field: 'resolution',
		label: 'Resolution Name or ID',
		says: ['720p', '1080p', '2k'],
	},
	{
		node: 'talkingVideo',
		title: 'idempotency key with a space',
		parameters: talkingText({ options: { idempotencyKey: 'order 1234' } }),
		field: 'idempotencyKey',
		label: 'Idempotency Key',
		says: ['1 to 128 characters'],
	},
	{
		node: 'talkingVideo',
		title: 'idempotency key of 129 characters',
		parameters: talkingText({ options: { idempotencyKey: repeat(129) } }),
		field: 'idempotencyKey',
		label: 'Idempotency Key',
		says: ['1 to 128 characters'],
	},
	{
		node: 'talkingVideo',
		title: 'a PNG as the audio script',
		parameters: talkingAudio(),
		files: { data: png() },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['image/png', 'photo.png', 'audio/mpeg'],
	},
	{
		node: 'talkingVideo',
		title: 'audio script binary property missing',
		parameters: talkingAudio({ audioBinaryProperty: 'recording' }),
		files: { data: mp3() },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['"recording"', 'available: data'],
	},
	{
		node: 'talkingVideo',
		title: 'audio script from an empty URL',
		parameters: talkingAudio({ audioSource: 'url', audioUrl: EMPTY }),
		field: 'audioUrl',
		label: 'Audio URL',
		says: ['is empty'],
	},
	{
		node: 'talkingVideo',
		title: 'voice change without a target voice',
		parameters: talkingAudio({
			audioSource: 'url',
			audioUrl: 'https://example.com/a.mp3',
			voiceChange: true,
			targetVoiceId: rl(EMPTY),
		}),
		field: 'targetVoiceId',
		label: 'Target Voice',
		says: ['Change Voice is on'],
	},
	{
		node: 'talkingVideo',
		title: 'get with an empty video id',
		parameters: { operation: 'get', videoId: rl(EMPTY) },
		field: 'videoId',
		label: 'Video',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'delete with an empty video id',
		parameters: { operation: 'delete', videoId: rl(EMPTY) },
		field: 'videoId',
		label: 'Video',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'a .mov labelled application/octet-stream as the audio script',
		parameters: talkingAudio(),
		files: { data: { mimeType: 'application/octet-stream', fileName: 'clip.mov', bytes: 4096 } },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['video/quicktime', 'clip.mov', 'audio/wav'],
	},
	{
		node: 'talkingVideo',
		title: 'an OGG recording as the audio script',
		parameters: talkingAudio(),
		files: { data: { mimeType: 'audio/ogg', fileName: 'take.ogg', bytes: 4096 } },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['audio/ogg', 'take.ogg', 'audio/mpeg', 'audio/wav'],
	},
	{
		node: 'talkingVideo',
		title: 'idempotency key starting with "-"',
		parameters: talkingText({ options: { idempotencyKey: '-order-1234' } }),
		field: 'idempotencyKey',
		label: 'Idempotency Key',
		says: ['starting with a letter or digit'],
	},
	{
		node: 'talkingVideo',
		title: 'get many with limit 0',
		parameters: { operation: 'getMany', returnAll: false, limit: 0 },
		field: 'limit',
		label: 'Limit',
		says: ['at least 1'],
	},
	{
		node: 'talkingVideo',
		title: 'get many with status filter "done"',
		parameters: { operation: 'getMany', filters: { status: ['done'] } },
		field: 'status',
		label: 'Status',
		says: ['done', 'queued', 'created', 'failed'],
	},

	// AI Video
	{
		node: 'aiVideo',
		title: 'empty prompt',
		parameters: aiCreate({ prompt: EMPTY }),
		field: 'prompt',
		label: 'Prompt',
		says: ['must not be empty'],
	},
	{
		node: 'aiVideo',
		title: 'empty model id',
		parameters: aiCreate({ modelId: rl(EMPTY) }),
		field: 'modelId',
		label: 'Model',
		says: ['must not be empty'],
	},
	{
		node: 'aiVideo',
		title: 'a text file as the first frame',
		parameters: aiCreate({ firstFrameSource: 'binary', firstFrameBinaryProperty: 'data' }),
		files: { data: text() },
		field: 'firstFrameBinaryProperty',
		label: 'First Frame Input Binary Field',
		says: ['text/plain', 'image/png'],
	},
	{
		node: 'aiVideo',
		title: 'end frame from an empty asset id',
		parameters: aiCreate({ endFrameSource: 'asset', endFrameAssetId: rl(EMPTY) }),
		field: 'endFrameAssetId',
		label: 'End Frame Asset',
		says: ['pick an asset'],
	},
	{
		node: 'aiVideo',
		title: 'reference with an empty URL',
		parameters: aiCreate({ refs: { ref: [{ source: 'url', url: '' }] } }),
		field: 'refs',
		label: 'Reference Media',
		says: ['entry 1', 'is empty'],
	},
	{
		node: 'aiVideo',
		title: 'idempotency key of 129 characters',
		parameters: aiCreate({ options: { idempotencyKey: repeat(129) } }),
		field: 'idempotencyKey',
		label: 'Idempotency Key',
		says: ['1 to 128 characters'],
	},
	{
		node: 'aiVideo',
		title: 'get with 21 ids',
		parameters: {
			operation: 'get',
			select: 'many',
			videoIds: Array.from({ length: 21 }, (_, i) => `vid_${i + 1}`).join(', '),
		},
		field: 'videoIds',
		label: 'Video IDs',
		says: ['at most 20'],
	},
	{
		node: 'aiVideo',
		title: 'get several with no ids',
		parameters: { operation: 'get', select: 'many', videoIds: ' , ' },
		field: 'videoIds',
		label: 'Video IDs',
		says: ['at least one video ID'],
	},
	{
		node: 'aiVideo',
		title: 'get one with an empty id',
		parameters: { operation: 'get', select: 'one', videoId: rl(EMPTY) },
		field: 'videoId',
		label: 'Video',
		says: ['must not be empty'],
	},
	{
		node: 'aiVideo',
		title: 'get many with status filter "done"',
		parameters: { operation: 'getMany', filters: { status: ['done'] } },
		field: 'status',
		label: 'Status',
		says: ['done', 'queued', 'creating'],
	},
	{
		node: 'aiVideo',
		title: 'estimate cost without a duration',
		parameters: { operation: 'estimateCost', modelId: AI_MODEL, duration: EMPTY },
		field: 'duration',
		label: 'Duration (Seconds) Name or ID',
		says: ['is required'],
	},
	{
		node: 'aiVideo',
		title: 'estimate cost for 5.5 seconds',
		parameters: { operation: 'estimateCost', modelId: AI_MODEL, duration: '=5.5' },
		field: 'duration',
		label: 'Duration (Seconds) Name or ID',
		says: ['whole number'],
	},
	{
		node: 'aiVideo',
		title: 'delete with an empty video id',
		parameters: { operation: 'delete', videoId: rl(EMPTY) },
		field: 'videoId',
		label: 'Video',
		says: ['must not be empty'],
	},

	// Image
	{
		node: 'image',
		title: 'empty prompt',
		parameters: imageGenerate({ prompt: EMPTY }),
		field: 'prompt',
		label: 'Prompt',
		says: ['must not be empty'],
	},
	{
		node: 'image',
		title: 'empty model id',
		parameters: imageGenerate({ modelId: rl(EMPTY) }),
		field: 'modelId',
		label: 'Model',
		says: ['must not be empty'],
	},
	{
		node: 'image',
		title: '15 reference images',
		parameters: imageGenerate({ refs: { ref: urlInputs(15).input } }),
		field: 'refs',
		label: 'Reference Images',
		says: ['15 entries', 'at most 14'],
	},
	{
		node: 'image',
		title: 'a text file as a reference image',
		parameters: imageGenerate({ refs: { ref: [{ source: 'binary', binaryProperty: 'data' }] } }),
		files: { data: text() },
		field: 'refs',
		label: 'Reference Images',
		says: ['entry 1', 'text/plain', 'image/png'],
	},

	// Text to Speech
	{
		node: 'textToSpeech',
		title: 'empty text',
		parameters: tts({ text: EMPTY }),
		field: 'text',
		label: 'Text',
		says: ['must not be empty'],
	},
	{
		node: 'textToSpeech',
		title: 'a word of 3001 characters',
		parameters: tts({ text: repeat(3001) }),
		field: 'text',
		label: 'Text',
		says: ['a word of 3,001 characters', 'add a space or punctuation'],
	},
	{
		node: 'textToSpeech',
		title: 'empty voice',
		parameters: tts({ voiceId: rl(EMPTY) }),
		field: 'voiceId',
		label: 'Voice',
		says: ['must not be empty'],
	},
	{
		node: 'textToSpeech',
		title: 'unknown speech rate by expression',
		parameters: tts({ speechRate: '=turbo' }),
		field: 'speechRate',
		label: 'Speech Rate',
		says: ['turbo', 'slow', 'fast'],
	},
	{
		node: 'textToSpeech',
		title: 'one-letter locale',
		parameters: tts({ options: { locale: 'e' } }),
		field: 'locale',
		label: 'Locale',
		says: ['such as en or en-GB'],
	},

	// Align
	{
		node: 'align',
		title: 'align with empty text',
		parameters: {
			operation: 'align',
			audioSource: 'url',
			audioUrl: 'https://example.com/a.mp3',
			text: EMPTY,
		},
		field: 'text',
		label: 'Text',
		says: ['must not be empty'],
	},
	{
		node: 'align',
		title: 'align audio of 16 MB',
		parameters: {
			operation: 'align',
			audioSource: 'binary',
			audioBinaryProperty: 'data',
			text: 'Hello there',
		},
		files: { data: mp3(16 * MIB) },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['holds 16 MB', 'the limit is 15 MB'],
	},
	{
		node: 'align',
		title: 'align audio as an M4A',
		parameters: {
			operation: 'align',
			audioSource: 'binary',
			audioBinaryProperty: 'data',
			text: 'Hello there',
		},
		files: { data: { mimeType: 'audio/m4a', fileName: 'memo.m4a', bytes: 4096 } },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['audio/m4a', 'audio/wav', 'audio/mpeg'],
	},
	{
		node: 'align',
		title: 'align audio labelled audio/x-m4a (no name of M4A is accepted)',
		parameters: {
			operation: 'align',
			audioSource: 'binary',
			audioBinaryProperty: 'data',
			text: 'Hello there',
		},
		files: { data: { mimeType: 'audio/x-m4a', fileName: 'memo.m4a', bytes: 4096 } },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['audio/x-m4a', 'memo.m4a', 'audio/wav', 'audio/mpeg'],
	},
	{
		node: 'align',
		title: 'transcribe from an empty asset id',
		parameters: { operation: 'transcribe', audioSource: 'asset', audioAssetId: rl(EMPTY) },
		field: 'audioAssetId',
		label: 'Audio Asset',
		says: ['pick an asset'],
	},
	{
		node: 'align',
		title: 'transcribe a PNG',
		parameters: { operation: 'transcribe', audioSource: 'binary', audioBinaryProperty: 'data' },
		files: { data: png() },
		field: 'audioBinaryProperty',
		label: 'Audio Input Binary Field',
		says: ['image/png', 'audio/wav'],
	},

	// Avatar
	{
		node: 'avatar',
		title: 'a text file as the portrait',
		parameters: { operation: 'create', imageSource: 'binary', imageBinaryProperty: 'data' },
		files: { data: text() },
		field: 'imageBinaryProperty',
		label: 'Image Input Binary Field',
		says: ['text/plain', 'image/jpeg', 'image/heic'],
	},
	{
		node: 'avatar',
		title: 'a portrait of 11 MB',
		parameters: { operation: 'create', imageSource: 'binary', imageBinaryProperty: 'data' },
		files: { data: png(11 * MIB) },
		field: 'imageBinaryProperty',
		label: 'Image Input Binary Field',
		says: ['holds 11 MB', 'the limit is 10 MB'],
	},
	{
		node: 'avatar',
		title: 'portrait URL "not a url"',
		parameters: { operation: 'create', imageSource: 'url', imageUrl: 'not a url' },
		field: 'imageUrl',
		label: 'Image URL',
		says: ['http'],
	},
	{
		node: 'avatar',
		title: 'portrait URL on ftp://',
		parameters: { operation: 'create', imageSource: 'url', imageUrl: 'ftp://example.com/face.png' },
		field: 'imageUrl',
		label: 'Image URL',
		says: ['starting with http:// or https://'],
	},
	{
		node: 'avatar',
		title: 'empty portrait URL',
		parameters: { operation: 'create', imageSource: 'url', imageUrl: '  ' },
		field: 'imageUrl',
		label: 'Image URL',
		says: ['is empty'],
	},
	{
		node: 'avatar',
		title: 'delete with an empty avatar id',
		parameters: { operation: 'delete', avatarId: rl(EMPTY) },
		field: 'avatarId',
		label: 'Avatar',
		says: ['must not be empty'],
	},

	// Voice
	{
		node: 'voice',
		title: 'a voice sample of 31 MB',
		parameters: { operation: 'clone', sampleSource: 'binary', sampleBinaryProperty: 'data' },
		files: { data: mp3(31 * MIB) },
		field: 'sampleBinaryProperty',
		label: 'Sample Input Binary Field',
		says: ['holds 31 MB', 'the limit is 30 MB'],
	},
	{
		node: 'voice',
		title: 'a PNG as the voice sample',
		parameters: { operation: 'clone', sampleSource: 'binary', sampleBinaryProperty: 'data' },
		files: { data: png() },
		field: 'sampleBinaryProperty',
		label: 'Sample Input Binary Field',
		says: ['image/png', 'audio/mpeg', 'video/mp4'],
	},
	{
		node: 'voice',
		title: 'sample URL on ftp://',
		parameters: {
			operation: 'clone',
			sampleSource: 'url',
			sampleUrl: 'ftp://example.com/voice.mp3',
		},
		field: 'sampleUrl',
		label: 'Sample URL',
		says: ['http'],
	},
	{
		node: 'voice',
		title: 'preview text of 101 characters',
		parameters: {
			operation: 'clone',
			sampleSource: 'url',
			sampleUrl: 'https://example.com/voice.mp3',
			previewText: repeat(101),
		},
		field: 'previewText',
		label: 'Preview Text',
		says: ['at most 100'],
	},
	{
		node: 'voice',
		title: 'sample from an empty URL',
		parameters: { operation: 'clone', sampleSource: 'url', sampleUrl: EMPTY },
		field: 'sampleUrl',
		label: 'Sample URL',
		says: ['is empty'],
	},
	{
		node: 'voice',
		title: 'get many with limit 0',
		parameters: { operation: 'getMany', returnAll: false, limit: 0 },
		field: 'limit',
		label: 'Limit',
		says: ['at least 1'],
	},
	{
		node: 'voice',
		title: 'delete with an empty voice id',
		parameters: { operation: 'delete', voiceId: rl(EMPTY) },
		field: 'voiceId',
		label: 'Voice',
		says: ['must not be empty'],
	},
	{
		node: 'voice',
		title: 'one-letter locale filter',
		parameters: { operation: 'getMany', filters: { locale: 'e' } },
		field: 'locale',
		label: 'Locale',
		says: ['such as en or en-GB'],
	},

	// Understand
	{
		node: 'understand',
		title: '9 inputs',
		parameters: understand({ inputs: urlInputs(9) }),
		field: 'inputs',
		label: 'Media',
		says: ['9 entries', 'at most 8'],
	},
	{
		node: 'understand',
		title: 'no inputs',
		parameters: understand({ inputs: { input: [] } }),
		field: 'inputs',
		label: 'Media',
		says: ['at least 1'],
	},
	{
		node: 'understand',
		title: 'empty prompt',
		parameters: understand({ prompt: ' ' }),
		field: 'prompt',
		label: 'Prompt',
		says: ['must not be empty'],
	},
	{
		node: 'understand',
		title: 'a PDF as media',
		parameters: understand({ inputs: { input: [{ source: 'binary', binaryProperty: 'data' }] } }),
		files: { data: pdf() },
		field: 'inputs',
		label: 'Media',
		says: ['entry 1', 'application/pdf', 'image/png', 'video/mp4'],
	},
	{
		node: 'understand',
		title: 'input from an empty asset id',
		parameters: understand({ inputs: { input: [{ source: 'asset', assetId: EMPTY }] } }),
		field: 'inputs',
		label: 'Media',
		says: ['entry 1', 'pick an asset'],
	},
	{
		node: 'understand',
		title: 'input binary property missing',
		parameters: understand({
			inputs: {
				input: [
					{ source: 'url', url: 'https://example.com/a.png' },
					{ source: 'binary', binaryProperty: 'photo' },
				],
			},
		}),
		field: 'inputs',
		label: 'Media',
		says: ['entry 2', '"photo"', 'carries no files'],
	},
	{
		node: 'understand',
		title: 'field list with a repeated name',
		parameters: understand({
			fields: {
				field: [
					{ name: 'mood', type: 'string' },
					{ name: 'mood', type: 'number' },
				],
			},
		}),
		field: 'fields',
		label: 'Fields',
		says: ['entry 2', 'repeats the name "mood"'],
	},
	{
		node: 'understand',
		title: 'field list with an empty name',
		parameters: understand({
			fields: {
				field: [
					{ name: 'mood', type: 'string' },
					{ name: ' ', type: 'string' },
				],
			},
		}),
		field: 'fields',
		label: 'Fields',
		says: ['entry 2', 'has no name'],
	},
	{
		node: 'understand',
		title: 'empty field list',
		parameters: understand({ fields: {} }),
		field: 'fields',
		label: 'Fields',
		says: ['at least one field'],
	},
	{
		node: 'understand',
		title: 'number field with text allowed values',
		parameters: understand({
			fields: { field: [{ name: 'score', type: 'number', allowedValues: 'low, high' }] },
		}),
		field: 'fields',
		label: 'Fields',
		says: ['entry 1', '"low" is not a number', 'type String'],
	},
	{
		node: 'understand',
		title: 'integer field with 1.5 allowed',
		parameters: understand({
			fields: { field: [{ name: 'stars', type: 'integer', allowedValues: '1, 1.5, 2' }] },
		}),
		field: 'fields',
		label: 'Fields',
		says: ['entry 1', '"1.5" is not a whole number'],
	},
	{
		node: 'understand',
		title: 'field of unknown type by expression',
		parameters: understand({ fields: { field: [{ name: 'mood', type: '=object' }] } }),
		field: 'fields',
		label: 'Fields',
		says: ['"object"', 'string, number, integer, boolean, array'],
	},
	{
		node: 'understand',
		title: 'JSON Schema that is not JSON',
		parameters: understand({ schemaMode: 'json', jsonSchema: '{ "type": "object", ' }),
		field: 'jsonSchema',
		label: 'JSON Schema',
		says: ['not valid JSON'],
	},
	{
		node: 'understand',
		title: 'JSON Schema that is an array',
		parameters: understand({ schemaMode: 'json', jsonSchema: '[{ "type": "object" }]' }),
		field: 'jsonSchema',
		label: 'JSON Schema',
		says: ['must be a JSON object'],
	},

	// Asset
	{
		node: 'asset',
		title: 'a PDF upload',
		parameters: { operation: 'upload', fileSource: 'binary', fileBinaryProperty: 'data' },
		files: { data: pdf() },
		field: 'fileBinaryProperty',
		label: 'File Input Binary Field',
		says: ['application/pdf', 'image/png', 'audio/mpeg', 'video/mp4'],
	},
	{
		node: 'asset',
		title: 'an audio upload of 16 MB',
		parameters: { operation: 'upload', fileSource: 'binary', fileBinaryProperty: 'data' },
		files: { data: mp3(16 * MIB) },
		field: 'fileBinaryProperty',
		label: 'File Input Binary Field',
		says: ['holds 16 MB', 'the limit is 15 MB'],
	},
	{
		node: 'asset',
		title: 'upload URL "not a url"',
		parameters: { operation: 'upload', fileSource: 'url', fileUrl: 'not a url' },
		field: 'fileUrl',
		label: 'File URL',
		says: ['http'],
	},
	{
		node: 'asset',
		title: 'upload URL on ftp://',
		parameters: { operation: 'upload', fileSource: 'url', fileUrl: 'ftp://example.com/a.png' },
		field: 'fileUrl',
		label: 'File URL',
		says: ['starting with http:// or https://'],
	},
	{
		node: 'asset',
		title: 'empty upload URL',
		parameters: { operation: 'upload', fileSource: 'url', fileUrl: EMPTY },
		field: 'fileUrl',
		label: 'File URL',
		says: ['is empty'],
	},
	{
		node: 'asset',
		title: 'unknown kind filter by expression',
		parameters: { operation: 'getMany', filters: { kind: '=document' } },
		field: 'kind',
		label: 'Kind',
		says: ['document', 'image', 'video', 'audio'],
	},
	{
		node: 'asset',
		title: 'delete with an empty asset id',
		parameters: { operation: 'delete', assetId: rl(EMPTY) },
		field: 'assetId',
		label: 'Asset',
		says: ['must not be empty'],
	},

	// Values only an expression can produce, checked against what the parameter declares.
	{
		node: 'talkingVideo',
		title: 'poll interval of 1 second',
		parameters: talkingText({ waitForCompletion: true, pollIntervalSeconds: 1 }),
		field: 'pollIntervalSeconds',
		label: 'Poll Interval (Seconds)',
		says: ['at least 5'],
	},
	{
		node: 'talkingVideo',
		title: 'timeout of 0 minutes',
		parameters: talkingText({ waitForCompletion: true, timeoutMinutes: 0 }),
		field: 'timeoutMinutes',
		label: 'Timeout (Minutes)',
		says: ['at least 1'],
	},
	{
		node: 'talkingVideo',
		title: 'text script with an empty voice names Voice, not Target Voice',
		parameters: talkingText({ voiceId: rl(EMPTY) }),
		field: 'voiceId',
		label: 'Voice',
		says: ['must not be empty'],
	},
	{
		node: 'talkingVideo',
		title: 'audio URL on ftp://',
		parameters: talkingAudio({ audioSource: 'url', audioUrl: 'ftp://example.com/a.mp3' }),
		field: 'audioUrl',
		label: 'Audio URL',
		says: ['http://'],
	},
	{
		node: 'aiVideo',
		title: 'first frame URL "not a url"',
		parameters: aiCreate({ firstFrameSource: 'url', firstFrameUrl: 'not a url' }),
		field: 'firstFrameUrl',
		label: 'First Frame URL',
		says: ['http://'],
	},
	{
		node: 'aiVideo',
		title: 'reference URL "not a url" (entries count from 1)',
		parameters: aiCreate({ refs: { ref: [{ source: 'url', url: 'not a url' }] } }),
		field: 'refs',
		label: 'Reference Media',
		says: ['entry 1', 'http://'],
	},
	{
		node: 'align',
		title: 'transcribe from an ftp:// URL',
		parameters: {
			operation: 'transcribe',
			audioSource: 'url',
			audioUrl: 'ftp://example.com/a.mp3',
		},
		field: 'audioUrl',
		label: 'Audio URL',
		says: ['http://'],
	},
	{
		node: 'avatar',
		title: 'update framing with zoom 0.5',
		parameters: {
			operation: 'updateFraming',
			avatarId: AVATAR,
			aspectRatio: '1:1',
			framing: { zoom: 0.5 },
		},
		field: 'zoom',
		label: 'Zoom',
		says: ['at least 1'],
	},
	{
		node: 'avatar',
		title: 'update framing with offset X 1.5',
		parameters: {
			operation: 'updateFraming',
			avatarId: AVATAR,
			aspectRatio: '1:1',
			framing: { offsetX: 1.5 },
		},
		field: 'offsetX',
		label: 'Offset X',
		says: ['at most 1'],
	},
	{
		node: 'avatar',
		title: 'update framing of an empty avatar id',
		parameters: {
			operation: 'updateFraming',
			avatarId: rl(EMPTY),
			aspectRatio: '1:1',
			framing: { zoom: 2 },
		},
		field: 'avatarId',
		label: 'Avatar',
		says: ['must not be empty'],
	},
	{
		node: 'avatar',
		title: 'update framing for aspect ratio 4:5',
		parameters: {
			operation: 'updateFraming',
			avatarId: AVATAR,
			aspectRatio: '=4:5',
			framing: { zoom: 2 },
		},
		field: 'aspectRatio',
		label: 'Aspect Ratio',
		says: ['4:5', '9:16', '16:9', '1:1'],
	},
	{
		node: 'avatar',
		title: 'get many from library "everyone"',
		parameters: { operation: 'getMany', library: '=everyone' },
		field: 'library',
		label: 'Library',
		says: ['everyone', 'own', 'public'],
	},
	{
		node: 'voice',
		title: 'get many from library "everyone"',
		parameters: { operation: 'getMany', library: '=everyone' },
		field: 'library',
		label: 'Library',
		says: ['everyone', 'all', 'own', 'public'],
	},
	{
		node: 'understand',
		title: 'schema mode "xml"',
		parameters: understand({ schemaMode: '=xml' }),
		field: 'schemaMode',
		label: 'Schema',
		says: ['xml', 'fields', 'json'],
	},
	{
		node: 'understand',
		title: 'input URL "not a url" (entries count from 1)',
		parameters: understand({
			inputs: {
				input: [
					{ source: 'url', url: 'https://example.com/a.png' },
					{ source: 'url', url: 'not a url' },
				],
			},
		}),
		field: 'inputs',
		label: 'Media',
		says: ['entry 2', 'http://'],
	},
	{
		node: 'understand',
		title: 'JSON Schema whose top level is not an object',
		parameters: understand({ schemaMode: 'json', jsonSchema: '{ "type": "string" }' }),
		field: 'jsonSchema',
		label: 'JSON Schema',
		says: ['"type": "object"'],
	},
	{
		node: 'aiVideo',
		title: 'estimate cost for "abc" seconds',
		parameters: { operation: 'estimateCost', modelId: AI_MODEL, duration: '=abc' },
		field: 'duration',
		label: 'Duration (Seconds) Name or ID',
		says: ['must be a number'],
	},

	// Continue on fail: the error becomes the item's output, still nothing sent.
	{
		node: 'talkingVideo',
		title: 'empty script (continue on fail)',
		parameters: talkingText({ text: EMPTY }),
		field: 'text',
		label: 'Script',
		says: ['must not be empty'],
		continueOnFail: true,
	},
	{
		node: 'textToSpeech',
		title: 'a word of 3001 characters (continue on fail)',
		parameters: tts({ text: repeat(3001) }),
		field: 'text',
		label: 'Text',
		says: ['a word of 3,001 characters', 'add a space or punctuation'],
		continueOnFail: true,
	},
	{
		node: 'understand',
		title: '9 inputs (continue on fail)',
		parameters: understand({ inputs: urlInputs(9) }),
		field: 'inputs',
		label: 'Media',
		says: ['at most 8'],
		continueOnFail: true,
	},
	{
		node: 'avatar',
		title: 'a text file as the portrait (continue on fail)',
		parameters: { operation: 'create', imageSource: 'binary', imageBinaryProperty: 'data' },
		files: { data: text() },
		field: 'imageBinaryProperty',
		label: 'Image Input Binary Field',
		says: ['text/plain', 'image/jpeg'],
		continueOnFail: true,
	},
	{
		node: 'aiVideo',
		title: 'get with 21 ids (continue on fail)',
		parameters: {
			operation: 'get',
			select: 'many',
			videoIds: Array.from({ length: 21 }, (_, i) => `vid_${i + 1}`).join(','),
		},
		field: 'videoIds',
		label: 'Video IDs',
		says: ['at most 20'],
		continueOnFail: true,
	},
	{
		node: 'asset',
		title: 'a PDF upload (continue on fail)',
		parameters: { operation: 'upload', fileSource: 'binary', fileBinaryProperty: 'data' },
		files: { data: pdf() },
		field: 'fileBinaryProperty',
		label: 'File Input Binary Field',
		says: ['application/pdf'],
		continueOnFail: true,
	},
];

function workflowFor(row: Row): WorkflowJson {
	const trigger: INode = {
		id: 'b0b5e7c4-0000-4000-8000-000000000001',
		name: TRIGGER,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node: INode = {
		id: 'b0b5e7c4-0000-4000-8000-000000000002',
		name: NODE,
		type: 'n8n-nodes-visionstory.visionStory',
		typeVersion: 1,
		position: [220, 0],
		parameters: { resource: TYPES[row.node], ...row.parameters } as INode['parameters'],
		credentials: { visionStoryApi: { id: 'vsCredential0001', name: 'VisionStory account' } },
		...(row.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	return {
		nodes: [trigger, node],
		connections: { [TRIGGER]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function pinnedItem(row: Row): INodeExecutionData {
	const item: INodeExecutionData = { json: { empty: '' } };
	if (row.files) {
		item.binary = {};
		for (const [property, file] of Object.entries(row.files)) {
			const extension = file.fileName.split('.').pop();
			item.binary[property] = {
				data: Buffer.alloc(file.bytes, 7).toString('base64'),
				mimeType: file.mimeType,
				fileName: file.fileName,
				fileExtension: extension,
			};
		}
	}
	return item;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `"Label" (field)`, or `"Label" (field entry 2)` for one entry of a list. */
function fieldPattern(label: string, field: string): RegExp {
	return new RegExp(`"${escapeRegExp(label)}" \\(${escapeRegExp(field)}( entry \\d+)?\\)`);
}

beforeEach(() => engine.emu.reset());

test('the table covers at least 40 bad inputs across every node with parameters', () => {
	expect(rows.length).toBeGreaterThanOrEqual(40);
	const nodes = new Set(rows.map((r) => r.node));
	for (const node of Object.keys(TYPES) as NodeKey[]) {
		// Account's one operation (Get Credits) takes no parameters, so there is nothing to get wrong.
		if (node !== 'account') expect(nodes).toContain(node);
	}
	expect(rows.filter((r) => r.continueOnFail).length).toBeGreaterThanOrEqual(3);
	expect(new Set(rows.map((r) => `${r.node}: ${r.title}`)).size).toBe(rows.length);
});

test.each(rows.map((row) => [`${row.node}: ${row.title}`, row] as const))(
	'%s is refused before any request',
	async (_, row) => {
		const result = await engine.harness.run(workflowFor(row), {
			credentials: engine.credentials,
			pinData: { [TRIGGER]: [pinnedItem(row)] },
		});

		let message: string;
		if (row.continueOnFail) {
			expect(result.error).toBeUndefined();
			const output = result.output(NODE);
			expect(output).toHaveLength(1);
			expect(output[0].pairedItem).toEqual({ item: 0 });
			message = String(output[0].json.error);
			expect(output[0].json.hint).toMatch(/Nothing was sent/);
		} else {
			const error = result.nodeError(NODE);
			expect(error).toBeDefined();
			expect(result.error?.message).toBe(error?.message);
			expect(error?.description).toMatch(/Nothing was sent/);
			expect(error?.context.itemIndex).toBe(0);
			message = error?.message ?? '';
		}

		expect(message).toMatch(/^Invalid input: /);
		expect(message).toMatch(fieldPattern(row.label, row.field));
		for (const fragment of row.says) expect(message).toContain(fragment);
		// Nothing reached the API, so nothing was created or charged.
		expect(engine.emu.requests({ origin: 'api' })).toEqual([]);
		expect(engine.emu.ledger()).toEqual([]);
	},
);
