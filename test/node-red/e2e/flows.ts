/**
 * The test tab the suite deploys beside the examples: HTTP endpoints around the nodes, so a test drives
 * a flow and reads its result, and a watch node recording into the global context.
 */
import {
	fn,
	httpIn,
	httpOut,
	resultsEndpoint,
	type FlowNode,
} from '../../../scripts/node-red/examples';

const T = 'vs-tests';

/** The account the floor test spends from, its config node's id, and the floor set there. */
export const FLOOR = {
	apiKey: 'sk-vs-emulator-nr-e2e-floor-00000000',
	config: 'vs-floor-config',
	keepAtLeast: 10,
};

/**
 * The test tab: POST /vs/talking runs a talking-video batch, POST /vs/floor one talking video through a
 * config node with Keep at Least N Credits set; GET /vs/watched and /vs/results read the recorders.
 */
export function testTab(): FlowNode[] {
	return [
		{ id: T, type: 'tab', label: 'VisionStory tests', disabled: false, info: '' },
		httpIn('t-in', T, 'post', '/vs/talking', 't-prep'),
		fn(
			't-prep',
			T,
			'request',
			'msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; if (msg.payload.filename) msg.filename = msg.payload.filename; msg.payload = msg.payload.texts; return msg;',
			[['t-talking']],
		),
		{
			id: 't-talking',
			type: 'visionstory-talking-video',
			z: T,
			name: 'talking videos',
			config: 'vs-config',
			operation: 'create',
			scriptType: 'text',
			waitForCompletion: true,
			pollIntervalSeconds: 5,
			timeoutMinutes: 5,
			downloadResult: true,
			outputFile: '',
			x: 0,
			y: 0,
			wires: [['t-summary']],
		},
		fn(
			't-summary',
			T,
			'summary',
			'msg.payload = { files: [].concat(msg.payload).map((b) => Buffer.isBuffer(b) ? b.length : b), tasks: msg.visionstory, errors: msg.errors || [] }; return msg;',
			[['t-out']],
		),
		httpOut('t-out', T),
		{
			id: 't-catch',
			type: 'catch',
			z: T,
			name: '',
			scope: ['t-talking'],
			uncaught: false,
			x: 0,
			y: 0,
			wires: [['t-error']],
		},
		fn(
			't-error',
			T,
			'error',
			'msg.statusCode = 500; msg.payload = { error: msg.error }; return msg;',
			[['t-out']],
		),
		{
			id: 't-watch',
			type: 'visionstory-watch',
			z: T,
			name: '',
			config: 'vs-config',
			events: ['talkingVideo', 'aiVideo'],
			statuses: ['created', 'failed'],
			pollIntervalSeconds: 5,
			x: 0,
			y: 0,
			wires: [['t-watched']],
		},
		fn(
			't-watched',
			T,
			'record',
			"const seen = global.get('watched') || []; seen.push({ id: msg.payload.video_id, status: msg.status, topic: msg.topic }); global.set('watched', seen); return null;",
		),
		httpIn('t-watched-in', T, 'get', '/vs/watched', 't-watched-read'),
		fn('t-watched-read', T, 'read', "msg.payload = global.get('watched') || []; return msg;", [
			['t-watched-out'],
		]),
		httpOut('t-watched-out', T),
		...resultsEndpoint(T),
		httpIn('t-floor-in', T, 'post', '/vs/floor', 't-floor-prep'),
		fn(
			't-floor-prep',
			T,
			'request',
			'msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; msg.payload = msg.payload.text; return msg;',
			[['t-floor']],
		),
		{
			id: 't-floor',
			type: 'visionstory-talking-video',
			z: T,
			name: 'above the floor',
			config: FLOOR.config,
			operation: 'create',
			scriptType: 'text',
			waitForCompletion: false,
			downloadResult: false,
			x: 0,
			y: 0,
			wires: [['t-floor-out']],
		},
		httpOut('t-floor-out', T),
		{
			id: 't-floor-catch',
			type: 'catch',
			z: T,
			name: '',
			scope: ['t-floor'],
			uncaught: false,
			x: 0,
			y: 0,
			wires: [['t-error']],
		},
	];
}

/** The long speech's config node: the examples' has a cap of 200 credits a message, below 100,000 characters' price. */
const SPEECH_CONFIG = 'vs-speech-config';

/**
 * POST /vs/speech speaks `text` (any length) into one MP3 and answers it (base64) with its figures; POST
 * /vs/captions aligns `text` with the recording at `audioUrl` and answers the SRT and WebVTT captions.
 */
export function speechAndCaptionsTab(): FlowNode[] {
	const catchTo = (id: string, scope: string) => ({
		id,
		type: 'catch',
		z: T,
		name: '',
		scope: [scope],
		uncaught: false,
		x: 0,
		y: 0,
		wires: [['t-error']],
	});
	return [
		httpIn('t-speech-in', T, 'post', '/vs/speech', 't-speech-prep'),
		fn('t-speech-prep', T, 'request', 'msg.payload = msg.payload.text; return msg;', [
			['t-speech'],
		]),
		{
			id: 't-speech',
			type: 'visionstory-text-to-speech',
			z: T,
			name: 'long speech',
			config: SPEECH_CONFIG,
			operation: 'synthesize',
			voiceId: 'Alice',
			downloadResult: true,
			outputFile: '',
			x: 0,
			y: 0,
			wires: [['t-speech-summary']],
		},
		fn(
			't-speech-summary',
			T,
			'summary',
			'msg.payload = { mp3: msg.payload.toString("base64"), details: msg.visionstory }; return msg;',
			[['t-out']],
		),
		catchTo('t-speech-catch', 't-speech'),
		httpIn('t-captions-in', T, 'post', '/vs/captions', 't-captions-prep'),
		fn(
			't-captions-prep',
			T,
			'request',
			'msg.audioUrl = msg.payload.audioUrl; msg.text = msg.payload.text; return msg;',
			[['t-captions']],
		),
		{
			id: 't-captions',
			type: 'visionstory-align',
			z: T,
			name: 'captions',
			config: 'vs-config',
			operation: 'align',
			audioSource: 'url',
			captions: 'both',
			maxCharsPerLine: 32,
			x: 0,
			y: 0,
			wires: [['t-out']],
		},
		catchTo('t-captions-catch', 't-captions'),
	];
}

/** A second config node on the floor test's account, as the editor sends it on deploy. */
export function floorConfig(baseUrl: string): FlowNode {
	return {
		id: FLOOR.config,
		type: 'visionstory-config',
		name: 'with a floor',
		baseUrl,
		maxCreditsPerMessage: '',
		keepAtLeastCredits: String(FLOOR.keepAtLeast),
		requestsPerSecond: '',
		credentials: { apiKey: FLOOR.apiKey },
	};
}

/** The long speech's config node: the emulator's default account, no cap. */
export function speechConfig(baseUrl: string, apiKey: string): FlowNode {
	return {
		id: SPEECH_CONFIG,
		type: 'visionstory-config',
		name: 'without a cap',
		baseUrl,
		maxCreditsPerMessage: '',
		requestsPerSecond: '',
		credentials: { apiKey },
	};
}
